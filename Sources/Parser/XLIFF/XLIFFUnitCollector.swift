import Model

/// An attribute of an element read from XLIFF.
struct XLIFFAttribute: Sendable {
    var namespace: String
    var localName: String
    var value: String
    /// Where the value starts (just after its opening quote), or the element's location.
    var location: SourceLocation
    /// Whether the value is written exactly as read, on one line (no references, no line breaks),
    /// so that an offset in the value is an offset from `location`.
    var isVerbatim = false
}

/// An element start as the reader delivers it to `XLIFFUnitCollector`.
struct XLIFFElement: Sendable {
    var namespace: String
    var localName: String
    var qualifiedName: String
    var attributes: [XLIFFAttribute]
    /// The `<` of the start tag; spanning the whole tag when it sits on one line.
    var location: SourceLocation
    /// Just after the start tag's `>`: where the content starts.
    var contentLocation: SourceLocation
    /// Byte offset of `contentLocation` in the UTF-8 text, when known.
    var contentOffset: Int?

    func attribute(_ localName: String, namespace: String = "") -> XLIFFAttribute? {
        attributes.first { $0.localName == localName && $0.namespace == namespace }
    }
}

/// Builds `TranslationUnit`s from the elements and text of an XLIFF 1.2 or 2.0 document.
///
/// It sees the document as a stream of start, end and text events (an empty element is a start
/// followed by an end) and keeps only what msgc needs: the root's version and languages, and for
/// each unit its id, source, target, state and any inline markup in the target. Everything else
/// (headers, notes, alt-trans, matches, original data, module elements) is skipped whole.
struct XLIFFUnitCollector {
    static let xliff12Namespaces: Set<String> = [
        "urn:oasis:names:tc:xliff:document:1.2",
        "urn:oasis:names:tc:xliff:document:1.1",
        "urn:oasis:names:tc:xliff:document:1.0",
    ]
    static let xliff20Namespace = "urn:oasis:names:tc:xliff:document:2.0"
    static let xliffNamespacePrefix = "urn:oasis:names:tc:xliff:document:"

    let path: String
    /// The file's text as UTF-8, to tell whether a value is written verbatim.
    private let utf8: [UInt8]

    private(set) var version: TranslationFile.Version?
    private(set) var targetLanguage: Located<String>?
    private(set) var sourceLanguage: Located<String>?
    private(set) var units: [TranslationUnit] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// Set when the document turns out not to be XLIFF msgc reads; reading stops.
    private(set) var fatal: Diagnostic?

    private enum Context {
        case root, file, container, unit, part
    }

    private var documentNamespace = ""
    private var stack: [Context] = []
    /// Greater than zero inside a subtree msgc skips.
    private var skippedDepth = 0
    private var unit: UnitBuilder?
    private var capture: TextCapture?
    private var rootLocation: SourceLocation?
    private var firstFileLocation: SourceLocation?
    /// Whether the current 1.2 `<file>` agrees with the file's target language.
    private var isFileAccepted = true
    private var firstUnitLocations: [String: SourceLocation] = [:]

    init(path: String, utf8: [UInt8]) {
        self.path = path
        self.utf8 = utf8
    }

    // MARK: - Events

    mutating func start(_ element: XLIFFElement) {
        if skippedDepth > 0 {
            skippedDepth += 1
            return
        }
        if capture != nil {
            startInline(element)
            return
        }
        guard let context = stack.last else {
            startRoot(element)
            return
        }
        let isCore = element.namespace == documentNamespace
        let name = isCore ? element.localName : ""
        switch (version, context, name) {
        case (.v1_2, .root, "file"):
            startFile12(element)
        case (.v2_0, .root, "file"):
            stack.append(.file)
            if firstFileLocation == nil { firstFileLocation = element.location }
        case (.v1_2, .file, "body"), (_, .container, "group"), (.v2_0, .file, "group"):
            stack.append(.container)
        case (.v1_2, .container, "trans-unit"), (.v2_0, .container, "unit"), (.v2_0, .file, "unit"):
            startUnit(element)
        case (.v2_0, .unit, "segment"), (.v2_0, .unit, "ignorable"):
            stack.append(.part)
            unit?.parts.append(Part(isSegment: name == "segment", state: element.attribute("state")?.value))
        case (.v1_2, .unit, "source"), (.v2_0, .part, "source"):
            capture = TextCapture(role: .source, element: element)
        case (.v1_2, .unit, "target"), (.v2_0, .part, "target"):
            capture = TextCapture(role: .target, element: element)
            if version == .v1_2 { unit?.parts[0].state = element.attribute("state")?.value }
        default:
            skippedDepth = 1
        }
    }

    mutating func end(contentEndOffset: Int?) {
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        if var current = capture {
            if !current.inline.isEmpty {
                current.inline.removeLast()
                capture = current
                return
            }
            current.isVerbatim = isVerbatim(current, endOffset: contentEndOffset)
            capture = nil
            finish(current)
            return
        }
        guard let context = stack.popLast() else { return }
        if context == .unit, let builder = unit {
            unit = nil
            finishUnit(builder)
        }
    }

    mutating func text(_ value: String) {
        guard skippedDepth == 0, capture != nil, capture!.droppedDepth == 0 else { return }
        capture!.text += value
    }

    /// Called once the whole document has been read without error.
    mutating func finishDocument() {
        if targetLanguage == nil, let version, let location = version == .v1_2 ? firstFileLocation ?? rootLocation : rootLocation {
            diagnostics.append(XLIFFDiagnostics.missingTargetLanguage(version: version, at: location))
        }
    }

    // MARK: - Structure

    private mutating func startRoot(_ element: XLIFFElement) {
        stack.append(.root)
        rootLocation = element.location
        let namespace = element.namespace
        guard element.localName == "xliff" else {
            fatal = XLIFFDiagnostics.notXLIFF(rootName: element.qualifiedName, namespace: namespace, at: element.location)
            return
        }
        let declaredVersion = element.attribute("version")?.value ?? ""
        if Self.xliff12Namespaces.contains(namespace) || (namespace.isEmpty && declaredVersion.hasPrefix("1.")) {
            version = .v1_2
        } else if namespace == Self.xliff20Namespace {
            version = .v2_0
            targetLanguage = nonEmpty(element.attribute("trgLang"))
            sourceLanguage = nonEmpty(element.attribute("srcLang"))
        } else if namespace.hasPrefix(Self.xliffNamespacePrefix) {
            fatal = XLIFFDiagnostics.unsupportedVersion(namespace: namespace, at: element.location)
            return
        } else {
            fatal = XLIFFDiagnostics.notXLIFF(rootName: element.qualifiedName, namespace: namespace, at: element.location)
            return
        }
        documentNamespace = namespace
    }

    private mutating func startFile12(_ element: XLIFFElement) {
        stack.append(.file)
        if firstFileLocation == nil { firstFileLocation = element.location }
        if sourceLanguage == nil { sourceLanguage = nonEmpty(element.attribute("source-language")) }
        isFileAccepted = true
        guard let language = nonEmpty(element.attribute("target-language")) else { return }
        guard let earlier = targetLanguage else {
            targetLanguage = language
            return
        }
        if Self.languageKey(earlier.value) != Self.languageKey(language.value) {
            isFileAccepted = false
            diagnostics.append(XLIFFDiagnostics.conflictingTargetLanguage(
                language.value, earlier: earlier.value, at: language.location.spanning(scalars: language.value.unicodeScalars.count)))
        }
    }

    private mutating func startUnit(_ element: XLIFFElement) {
        stack.append(.unit)
        var builder = UnitBuilder(location: element.location, elementName: element.localName)
        if version == .v1_2 {
            builder.id = nonEmpty(element.attribute("id"))
            builder.isApproved = element.attribute("approved")?.value == "yes"
            builder.isGettextHeader = element.attribute("restype")?.value == "x-gettext-domain-header"
            builder.parts = [Part(isSegment: true, state: nil)]
        } else if let name = nonEmpty(element.attribute("name")) {
            builder.id = name
        } else if let id = nonEmpty(element.attribute("id")) {
            builder.id = id.map { $0.replacingColons() }
        }
        unit = builder
    }

    // MARK: - Text and inline markup

    private mutating func startInline(_ element: XLIFFElement) {
        guard var current = capture else { return }
        let isCore = element.namespace == documentNamespace
        let kind = isCore ? Self.inlineKind(element.localName, version: version) : .code
        switch kind {
        case .annotation:
            current.inline.append(false)
        case .codePoint:
            current.inline.append(false)
            if current.droppedDepth == 0 { current.text.unicodeScalars.append(Self.decodeCodePoint(element.attribute("hex")?.value)) }
        case .pairedCode, .code:
            current.inline.append(kind == .code)
            if current.role == .target {
                current.markup.append(Located(isCore ? element.localName : element.qualifiedName, at: element.location))
            }
        }
        current.hasChildElements = true
        capture = current
    }

    private enum InlineKind {
        /// Keeps its text, is not markup: 1.2 and 2.0 `mrk`, 2.0 `sm`/`em`.
        case annotation
        /// 2.0 `cp`: stands for one character XML cannot carry.
        case codePoint
        /// Wraps translatable text: 1.2 `g`, 2.0 `pc`. Markup; the text inside is kept.
        case pairedCode
        /// Stands for native code or is unknown: markup; any text inside is not translation.
        case code
    }

    private static func inlineKind(_ name: String, version: TranslationFile.Version?) -> InlineKind {
        switch (version, name) {
        case (_, "mrk"), (.v2_0, "sm"), (.v2_0, "em"): .annotation
        case (.v2_0, "cp"): .codePoint
        case (.v1_2, "g"), (.v2_0, "pc"): .pairedCode
        default: .code
        }
    }

    /// The character a 2.0 `<cp hex="…"/>` stands for; U+FFFD when `hex` is not a scalar value.
    static func decodeCodePoint(_ hex: String?) -> Unicode.Scalar {
        guard let hex, !hex.isEmpty, hex.count <= 6, let value = UInt32(hex, radix: 16),
              let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    private func isVerbatim(_ capture: TextCapture, endOffset: Int?) -> Bool {
        guard !capture.hasChildElements, let start = capture.contentOffset, let endOffset, endOffset >= start,
              endOffset <= utf8.count else { return false }
        let raw = utf8[start..<endOffset]
        return !raw.contains(UInt8(ascii: "\n")) && !raw.contains(UInt8(ascii: "\r")) && raw.isUTF8(of: capture.text)
    }

    private mutating func finish(_ capture: TextCapture) {
        guard unit != nil, !unit!.parts.isEmpty else { return }
        let last = unit!.parts.count - 1
        switch capture.role {
        case .source where unit!.parts[last].source == nil: unit!.parts[last].source = capture
        case .target where unit!.parts[last].target == nil: unit!.parts[last].target = capture
        default: break
        }
    }

    // MARK: - Units

    private mutating func finishUnit(_ builder: UnitBuilder) {
        guard isFileAccepted, !builder.isGettextHeader else { return }
        guard let id = builder.id else {
            diagnostics.append(XLIFFDiagnostics.unitWithoutID(element: builder.elementName, at: builder.location))
            return
        }
        let segments = builder.parts.filter(\.isSegment)
        guard !segments.isEmpty, segments.allSatisfy({ $0.source != nil }) else {
            diagnostics.append(XLIFFDiagnostics.unitWithoutSource(id: id.value, at: builder.location))
            return
        }
        if let first = firstUnitLocations[id.value] {
            diagnostics.append(XLIFFDiagnostics.duplicateUnit(
                id: id.value, firstLine: first.line, at: id.location.spanning(scalars: id.value.unicodeScalars.count),
                first: first))
            return
        }
        firstUnitLocations[id.value] = id.location

        let sources = builder.parts.compactMap(\.source)
        let source = Located(sources.map(\.text).joined(), at: sources[0].location,
                             style: sources.count == 1 && sources[0].isVerbatim ? .plain : .opaque)

        let (state, rawState) = unitState(builder)
        let targets = builder.parts.compactMap(\.target)
        var target: Located<String>?
        if let first = targets.first, segments.allSatisfy({ $0.target != nil }) {
            let text = orderedTargetText(builder.parts)
            if !text.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                target = Located(text, at: first.location,
                                 style: builder.parts.count == 1 && first.isVerbatim ? .plain : .opaque)
            }
        }
        let markup = targets.flatMap(\.markup)
        let translationUnit = TranslationUnit(
            id: id, source: source, target: target, state: target == nil ? .untranslated : state,
            rawState: rawState, inlineMarkup: markup, location: builder.location)
        units.append(translationUnit)

        if let first = markup.first {
            let subject = translationUnit.parsedID.map {
                Subject(product: $0.product, key: $0.key, locale: targetLanguage?.value)
            }
            diagnostics.append(XLIFFDiagnostics.inlineMarkup(
                unitID: id.value, elements: markup, at: first.location, subject: subject))
        }
    }

    /// The unit's state: for 1.2 the target's `state` and the unit's `approved`; for 2.0 the
    /// least state of its segments, a segment without target counting as untranslated.
    private func unitState(_ builder: UnitBuilder) -> (TranslationState, String?) {
        if version == .v1_2 {
            let raw = builder.parts[0].state
            return (XLIFFStates.state(xliff12: raw, isApproved: builder.isApproved), raw)
        }
        var least: (TranslationState, String?)?
        for part in builder.parts where part.isSegment {
            let state = part.target == nil ? .untranslated : XLIFFStates.state(xliff20: part.state)
            if least == nil || state < least!.0 { least = (state, part.state) }
        }
        return least ?? (.untranslated, nil)
    }

    /// The target text of all parts, in the order 2.0 `target/@order` gives, else in document
    /// order; an ignorable without target contributes its source.
    private func orderedTargetText(_ parts: [Part]) -> String {
        let texts = parts.map { $0.target?.text ?? ($0.isSegment ? "" : $0.source?.text ?? "") }
        var slots = [String?](repeating: nil, count: parts.count)
        for (index, part) in parts.enumerated() {
            let position = (part.target?.order ?? index + 1) - 1
            guard slots.indices.contains(position), slots[position] == nil else { return texts.joined() }
            slots[position] = texts[index]
        }
        return slots.map { $0 ?? "" }.joined()
    }

    // MARK: - Helpers

    private func nonEmpty(_ attribute: XLIFFAttribute?) -> Located<String>? {
        guard let attribute, !attribute.value.isEmpty else { return nil }
        return Located(attribute.value, at: attribute.location, style: attribute.isVerbatim ? .plain : .opaque)
    }

    /// `pt_BR` and `pt-br` name the same language for the one-language-per-file check.
    private static func languageKey(_ tag: String) -> String {
        tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }
}

// MARK: - Builders

private struct Part {
    var isSegment: Bool
    var state: String?
    var source: TextCapture?
    var target: TextCapture?
}

private struct UnitBuilder {
    var location: SourceLocation
    var elementName: String
    var id: Located<String>?
    var isApproved = false
    var isGettextHeader = false
    var parts: [Part] = []
}

private struct TextCapture {
    enum Role { case source, target }

    var role: Role
    var text = ""
    var location: SourceLocation
    var contentOffset: Int?
    /// 2.0 `target/@order`.
    var order: Int?
    /// For each open inline element, whether it drops the text inside it.
    var inline: [Bool] = []
    var markup: [Located<String>] = []
    var hasChildElements = false
    var isVerbatim = false

    var droppedDepth: Int { inline.count { $0 } }

    init(role: Role, element: XLIFFElement) {
        self.role = role
        self.location = element.contentLocation
        self.contentOffset = element.contentOffset
        self.order = element.attribute("order").flatMap { Int($0.value) }
    }
}

extension String {
    fileprivate func replacingColons() -> String {
        String(map { $0 == ":" ? "/" : $0 })
    }

    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
