import CLibXML2
import Diagnostics
import Foundation
import Model

/// An attribute of an element read from XLIFF.
struct XLIFFAttribute: Sendable {
    var value: String
    /// Where the value starts (just after its opening quote), or the element's location.
    var location: SourceLocation
    /// Whether the value is written exactly as read, on one line (no references, no line breaks),
    /// so that an offset in the value is an offset from `location`.
    var isVerbatim = false
    /// The value's place among the expected unit ids it was looked up in, if it is one of them.
    var expectedIndex: Int?
}

/// An element start as libxml2's SAX2 parser delivers it to `XLIFFUnitCollector`.
///
/// It points into libxml2's buffers and is valid only during the callback. Names, values and
/// locations are made when the collector asks for them, which it does only for the few
/// elements it keeps: most of an XLIFF file (notes, headers, alternatives) is skipped unread.
struct XLIFFElement {
    let localName: UnsafePointer<xmlChar>
    let prefix: UnsafePointer<xmlChar>?
    let uri: UnsafePointer<xmlChar>?
    let attributeCount: Int
    /// libxml2's attribute array: local name, prefix, URI, value start, value end, per attribute.
    let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    /// Offset of the start tag's `>` (or of the `/` of `/>`) in the text.
    let tagEnd: Int
    /// Offset just after the start tag: where the content begins.
    let contentStart: Int
    /// libxml2's input position (at `tagEnd`) and the start of its buffer, to tell whether an
    /// attribute value points into the text as written.
    let parserCursor: UnsafePointer<xmlChar>
    let parserBase: UnsafePointer<xmlChar>
    /// The session that made the element and outlives it; not retained, as each element of
    /// a file would retain and release it once more.
    unowned(unsafe) let session: XLIFFReadSession

    /// Whether the element's local name is `name` (ASCII).
    func hasLocalName(_ name: StaticString) -> Bool {
        Self.equal(localName, name)
    }

    /// Whether the element is in the namespace whose URI is `namespace` (UTF-8, without NUL).
    func isInNamespace(_ namespace: [UInt8]) -> Bool {
        guard let uri else { return namespace.isEmpty }
        return namespace.withUnsafeBufferPointer { wanted in
            strlen(uri) == wanted.count && (wanted.isEmpty || memcmp(uri, wanted.baseAddress!, wanted.count) == 0)
        }
    }

    var localNameString: String { String(cString: localName) }

    /// The names of the XLIFF 1.2 and 2.0 elements that hold units and their text.
    enum CoreName {
        case file, body, group, transUnit, unit, segment, ignorable, source, target, notes, note, other
    }

    /// The local name as one of `CoreName`, compared as bytes: every element of a file asks.
    var coreName: CoreName {
        switch localName[0] {
        case UInt8(ascii: "f"): hasLocalName("file") ? .file : .other
        case UInt8(ascii: "b"): hasLocalName("body") ? .body : .other
        case UInt8(ascii: "g"): hasLocalName("group") ? .group : .other
        case UInt8(ascii: "u"): hasLocalName("unit") ? .unit : .other
        case UInt8(ascii: "i"): hasLocalName("ignorable") ? .ignorable : .other
        case UInt8(ascii: "n"): hasLocalName("note") ? .note : hasLocalName("notes") ? .notes : .other
        case UInt8(ascii: "s"): hasLocalName("source") ? .source : hasLocalName("segment") ? .segment : .other
        case UInt8(ascii: "t"): hasLocalName("target") ? .target : hasLocalName("trans-unit") ? .transUnit : .other
        default: .other
        }
    }
    var namespace: String { uri.map { String(cString: $0) } ?? "" }
    var qualifiedName: String { prefix.map { String(cString: $0) + ":" + localNameString } ?? localNameString }

    /// The `<` of the start tag; spanning the whole tag when it sits on one line.
    func location(_ locations: inout XLIFFLocations) -> SourceLocation {
        let tagStart = tagStart
        var location = locations.location(at: tagStart)
        let tag = session.bytes(from: tagStart, to: contentStart)
        if let column = location.column, !tag.withUnsafeBufferPointer(XLIFFLineMap.containsLineBreak) {
            location.endLine = location.line
            location.endColumn = column + tag.withUnsafeBufferPointer(UTF8Bytes.scalarCount)
        }
        return location
    }

    /// Just after the start tag's `>`: where the content starts.
    func contentLocation(_ locations: inout XLIFFLocations) -> SourceLocation { locations.location(at: contentStart) }

    /// The `<` of the start tag. Where libxml2 read the first attribute's value in place, the
    /// `<` is the nearest one before that value (names hold no `<`, and a value cannot): a
    /// few bytes back rather than the whole tag.
    var tagStart: Int {
        if attributeCount > 0, let valueStart = attributes?[3], valueStart >= parserBase && valueStart < parserCursor {
            return session.tagStart(before: tagEnd - (parserCursor - valueStart))
        }
        return session.tagStart(before: tagEnd)
    }

    /// The value of the attribute `localName` in no namespace, without its location.
    func attributeValue(_ localName: StaticString) -> String? {
        attributeIndex(localName).map { value(at: $0) }
    }

    /// The attribute `localName` in no namespace, with where its value is written. A value
    /// that is one of `expected`'s ids is looked up by its bytes and is the project's string.
    func attribute(
        _ localName: StaticString, lookingUpIn expected: ExpectedUnits? = nil, _ locations: inout XLIFFLocations
    ) -> XLIFFAttribute? {
        guard let index = attributeIndex(localName), let fields = attributes?.advanced(by: 5 * index) else { return nil }
        let (value, expectedIndex) = value(at: index, lookingUpIn: expected)
        let valueStart = fields[3]!
        if valueStart >= parserBase && valueStart < parserCursor {
            // libxml2 handed over the bytes as written: an offset back from its cursor.
            let start = tagEnd - (parserCursor - valueStart)
            let raw = session.bytes(from: start, to: start + (fields[4]! - valueStart))
            let isVerbatim = !raw.withUnsafeBufferPointer(XLIFFLineMap.containsLineBreak)
            return XLIFFAttribute(
                value: value, location: locations.location(at: start), isVerbatim: isVerbatim, expectedIndex: expectedIndex)
        }
        // libxml2 normalized the value (a reference, a line break, non-ASCII text): find it
        // in the tag as written.
        let tagStart = tagStart
        guard let written = session.writtenAttributeValue(String(describing: localName), tagStart: tagStart, tagEnd: tagEnd) else {
            return XLIFFAttribute(value: value, location: location(&locations), expectedIndex: expectedIndex)
        }
        let raw = session.bytes(from: written.start, to: written.end)
        let isVerbatim = !raw.withUnsafeBufferPointer(XLIFFLineMap.containsLineBreak) && raw.isUTF8(of: value)
        return XLIFFAttribute(
            value: value, location: locations.location(at: written.start), isVerbatim: isVerbatim, expectedIndex: expectedIndex)
    }

    private func attributeIndex(_ localName: StaticString) -> Int? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let fields = attributes.advanced(by: 5 * index)
            if fields[2] == nil, let name = fields[0], Self.equal(name, localName) { return index }
        }
        return nil
    }

    /// An attribute's value. Without entity substitution libxml2 keeps a referenced `&` as
    /// `&#38;` in values it had to copy (all other references it expands), so that is undone.
    private func value(at index: Int) -> String {
        value(at: index, lookingUpIn: nil).value
    }

    /// An attribute's value, and its place among `expected`'s ids where it is one: then the
    /// value is the project's own string, found by the bytes libxml2 handed over.
    private func value(at index: Int, lookingUpIn expected: ExpectedUnits?) -> (value: String, expectedIndex: Int?) {
        let fields = attributes!.advanced(by: 5 * index)
        let start = fields[3]!
        let bytes = UnsafeBufferPointer(start: start, count: fields[4]! - start)
        let isCopied = !(start >= parserBase && start < parserCursor)
        if isCopied && bytes.contains(UInt8(ascii: "&")) {
            let value = String(decoding: bytes, as: UTF8.self).replacing("&#38;", with: "&")
            return (value, expected?.index(of: value))
        }
        if let expected {
            if let place = expected.index(ofUTF8: bytes) { return (expected.id(at: place), place) }
        }
        return (String(decoding: bytes, as: UTF8.self), nil)
    }

    private static func equal(_ pointer: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { wanted in
            var index = 0
            while index < wanted.count {
                if pointer[index] != wanted[index] { return false }
                index += 1
            }
            return pointer[index] == 0
        }
    }
}

/// Builds `TranslationUnit`s from the elements and text of an XLIFF 1.2 or 2.0 document.
///
/// It sees the document as a stream of start, end and text events (an empty element is a start
/// followed by an end) and keeps only what msgc needs: the root's version and languages, and for
/// each unit its id, source, target, state and any inline markup in the target, and, when asked
/// to keep notes, the notes, `approved` and candidates (`<alt-trans>`, `<mtc:match>`) that
/// extract writes back. Everything else (headers, original data, other module elements) is
/// skipped whole.
struct XLIFFUnitCollector {
    static let xliff12Namespaces: Set<String> = [
        "urn:oasis:names:tc:xliff:document:1.2",
        "urn:oasis:names:tc:xliff:document:1.1",
        "urn:oasis:names:tc:xliff:document:1.0",
    ]
    static let xliff20Namespace = "urn:oasis:names:tc:xliff:document:2.0"
    static let xliffNamespacePrefix = "urn:oasis:names:tc:xliff:document:"
    /// XLIFF 2.0's Translation Candidates module (`<mtc:matches>`).
    static let matchesNamespace = "urn:oasis:names:tc:xliff:matches:2.0"

    let path: String
    /// The file's text as UTF-8, to tell whether a value is written verbatim.
    private let utf8: [UInt8]
    /// The unit ids of the messages' fields, when the reader was given them: a unit that is
    /// some message's field is told from one that is none's.
    private let expected: ExpectedUnits?
    /// Whether notes other than msgc's own are read into each unit (`TranslationUnit.notes`).
    private let keepsNotes: Bool

    /// Lines and columns of the file's offsets. Kept here, so that the locations an event asks
    /// for are worked out within the reader's one access to the collector per event.
    var locations: XLIFFLocations
    private(set) var version: TranslationFile.Version?
    private(set) var targetLanguage: Located<String>?
    private(set) var sourceLanguage: Located<String>?
    private(set) var units: [TranslationUnit] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// Set when the document turns out not to be XLIFF msgc reads; reading stops.
    private(set) var fatal: Diagnostic? {
        didSet { hasFailed = fatal != nil }
    }
    /// Whether `fatal` is set: a test that does not copy the diagnostic, for every event.
    private(set) var hasFailed = false

    private enum Context {
        case root, file, container, unit, part, notes
        /// 2.0 `<mtc:matches>`, and a candidate being read (1.2 `<alt-trans>`, 2.0 `<mtc:match>`).
        case matches, candidate
    }

    /// The root's namespace URI, as UTF-8.
    private var documentNamespace: [UInt8] = []
    private var stack: [Context] = []
    /// Greater than zero inside a subtree msgc skips.
    private var skippedDepth = 0
    private var unit: UnitBuilder?
    /// The parts of the unit being read. Kept here rather than in `UnitBuilder` so that one
    /// array serves every unit of the file: most have one part, and an array each was an
    /// allocation per unit.
    private var parts: [Part] = []
    /// Notes of the unit being read that msgc did not write, and the author of the one being read.
    private var notes: [TranslationNote] = []
    private var noteAuthor: String?
    /// Candidates of the unit being read, and the one being read.
    private var candidates: [TranslationCandidate] = []
    private var candidate: TranslationCandidate?
    private var capture: TextCapture?
    /// The UTF-8 of the text being captured: one buffer for every capture of the file.
    private var captureBytes: [UInt8] = []
    private var rootLocation: SourceLocation?
    private var firstFileLocation: SourceLocation?
    /// Whether the current 1.2 `<file>` agrees with the file's target language.
    private var isFileAccepted = true
    /// The id of every unit kept so far, to report a repeated one: by its place among the
    /// expected ids where it is one of them, else in a set.
    private var seenExpectedIDs: [Bool] = []
    private var unitIDs: Set<String> = []
    /// Units whose id an earlier unit has too, by index in `units`: sorted out by
    /// `resolveRepeatedIDs` once the document is read.
    private var repeatedIDUnits: [Int] = []
    /// For 2.0, by index in `units`: whether the unit is keyed by its `name`, and its `id` (`:`
    /// read as `/`) to key it by when the file's names are not unique. Empty for 1.2.
    private var isKeyedByName: [Bool] = []
    private var alternateIDs: [Located<String>?] = []
    /// Fewer bytes than a unit of XLIFF takes even without notes.
    private static let bytesPerUnitEstimate = 256

    /// How many units the file likely holds: the units and the set of their ids are made that
    /// large at once rather than grown (and the set rehashed) a doubling at a time. A locale's
    /// file holds about one unit per message field, so that count, where the collector has it,
    /// bounds the guess from the file's size (which, for files with notes, is several times
    /// too many: a set that large is a megabyte of hash table across the files of a project).
    private var expectedUnitCount: Int {
        let bySize = utf8.count / Self.bytesPerUnitEstimate
        return expected.map { min($0.count, bySize) } ?? bySize
    }

    init(path: String, utf8: [UInt8], start: Int, expected: ExpectedUnits? = nil, keepsNotes: Bool = true) {
        self.path = path
        self.utf8 = utf8
        locations = XLIFFLocations(file: SourcePath(path), lines: XLIFFLineMap(utf8: utf8, start: start))
        self.expected = expected
        self.keepsNotes = keepsNotes
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
        let name = element.isInNamespace(documentNamespace) ? element.coreName : .other
        if name == .other || context == .candidate, keepsNotes, unit != nil, startCandidatePart(element, name, in: context) { return }
        switch (version, context, name) {
        case (.v1_2, .root, .file):
            startFile12(element)
        case (.v2_0, .root, .file):
            stack.append(.file)
            if firstFileLocation == nil { firstFileLocation = element.location(&locations) }
        case (.v1_2, .file, .body), (_, .container, .group), (.v2_0, .file, .group):
            stack.append(.container)
        case (.v1_2, .container, .transUnit), (.v2_0, .container, .unit), (.v2_0, .file, .unit):
            startUnit(element)
        case (.v2_0, .unit, .segment), (.v2_0, .unit, .ignorable):
            stack.append(.part)
            if unit != nil {
                let state = name == .segment ? element.attributeValue("state") : nil
                if let state { checkState(state, of: element) }
                parts.append(Part(isSegment: name == .segment, state: state, stateTagEnd: element.tagEnd))
            }
        case (.v1_2, .unit, .source), (.v2_0, .part, .source):
            capture = TextCapture(role: .source, element: element, &locations)
        case (.v2_0, .unit, .notes):
            stack.append(.notes)
        case (.v1_2, .unit, .note), (.v2_0, .notes, .note):
            // msgc's own notes are written again from the messages; anyone else's are kept,
            // when the reader was asked to keep them.
            let author = keepsNotes && unit != nil ? element.attributeValue(version == .v1_2 ? "from" : "category") : nil
            if keepsNotes, unit != nil, !(author.map(TranslationNote.msgcAuthors.contains) ?? false) {
                capture = TextCapture(role: .note, element: element, &locations)
                noteAuthor = author
            } else {
                skippedDepth = 1
            }
        case (.v1_2, .unit, .target), (.v2_0, .part, .target):
            capture = TextCapture(role: .target, element: element, &locations)
            if version == .v1_2, unit != nil {
                let state = element.attributeValue("state")
                if let state { checkState(state, of: element) }
                parts[0].state = state
                parts[0].stateTagEnd = element.tagEnd
            }
        default:
            skippedDepth = 1
        }
    }

    /// An element ends; `contentEnd` gives the offset of its end tag, nil for an empty element.
    /// Returns whether text read next is wanted (`wantsText`), which the reader asks after
    /// every end.
    mutating func end(contentEnd: () -> Int?) -> Bool {
        close(contentEnd: contentEnd)
        return wantsText
    }

    private mutating func close(contentEnd: () -> Int?) {
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        if capture != nil {
            if capture!.popInline() { return }
            let current = capture.take()!
            // A source written exactly as its message's text is that string, not a copy of it.
            let shared = current.role == .source ? unit?.expectedIndex.flatMap { expected?.source(at: $0, ifSameAs: captureBytes) } : nil
            let text = CapturedText(
                text: shared ?? String(decoding: captureBytes, as: UTF8.self), location: current.location,
                offset: current.contentOffset, style: writtenStyle(current, endOffset: contentEnd()), order: current.order, markup: current.markup)
            captureBytes.removeAll(keepingCapacity: true)
            finish(text, role: current.role)
            return
        }
        guard let context = stack.popLast() else { return }
        if context == .candidate, let read = candidate.take(), !Self.isBlank(read.target) { candidates.append(read) }
        if context == .unit, let builder = unit.take() {
            finishUnit(builder)
        }
    }

    /// Whether text read now goes anywhere: inside a source, a target or a kept note (or a
    /// candidate's). The reader asks libxml2 for text only then.
    var wantsText: Bool { capture != nil }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard skippedDepth == 0, capture?.droppedDepth == 0 else { return }
        captureBytes.append(contentsOf: bytes)
    }

    /// Called once the whole document has been read without error.
    mutating func finishDocument() {
        // A file without a target language cannot be used at all: it gets the one diagnostic
        // below, not one for each of its units.
        if !repeatedIDUnits.isEmpty { resolveRepeatedIDs(reports: targetLanguage != nil) }
        if targetLanguage != nil { reportInlineMarkup() }
        if targetLanguage == nil, let version, let location = version == .v1_2 ? firstFileLocation ?? rootLocation : rootLocation {
            diagnostics.append(XLIFFDiagnostics.missingTargetLanguage(version: version, unitCount: units.count, at: location))
        }
    }

    // MARK: - Structure

    private mutating func startRoot(_ element: XLIFFElement) {
        stack.append(.root)
        rootLocation = element.location(&locations)
        let namespace = element.namespace
        guard element.hasLocalName("xliff") else {
            fatal = XLIFFDiagnostics.notXLIFF(rootName: element.qualifiedName, namespace: namespace, at: element.location(&locations))
            return
        }
        let declaredVersion = element.attributeValue("version") ?? ""
        if Self.xliff12Namespaces.contains(namespace) || (namespace.isEmpty && declaredVersion.hasPrefix("1.")) {
            version = .v1_2
        } else if namespace == Self.xliff20Namespace {
            version = .v2_0
            targetLanguage = Self.nonEmpty(element.attribute("trgLang", &locations))
            sourceLanguage = Self.nonEmpty(element.attribute("srcLang", &locations))
        } else if namespace.hasPrefix(Self.xliffNamespacePrefix) {
            fatal = XLIFFDiagnostics.unsupportedVersion(namespace: namespace, at: element.location(&locations))
            return
        } else {
            fatal = XLIFFDiagnostics.notXLIFF(rootName: element.qualifiedName, namespace: namespace, at: element.location(&locations))
            return
        }
        documentNamespace = Array(namespace.utf8)
    }

    /// Starts a 1.2 `<alt-trans>`, a 2.0 `<mtc:matches>` or `<mtc:match>`, or a candidate's
    /// source or target; false when `element` is none of them (it is then skipped as before).
    private mutating func startCandidatePart(_ element: XLIFFElement, _ name: XLIFFElement.CoreName, in context: Context) -> Bool {
        switch context {
        case .unit where version == .v1_2 && element.isInNamespace(documentNamespace) && element.hasLocalName("alt-trans"):
            stack.append(.candidate)
            candidate = TranslationCandidate(
                origin: element.attributeValue("origin") ?? element.attributeValue("tool-id"),
                quality: element.attributeValue("match-quality"), source: nil, target: "")
        case .unit where version == .v2_0 && element.hasLocalName("matches") && element.namespace == Self.matchesNamespace:
            stack.append(.matches)
        case .matches where element.hasLocalName("match") && element.namespace == Self.matchesNamespace:
            stack.append(.candidate)
            candidate = TranslationCandidate(
                origin: element.attributeValue("origin"), quality: element.attributeValue("matchQuality"), source: nil, target: "")
        case .candidate where name == .source:
            capture = TextCapture(role: .candidateSource, element: element, &locations)
        case .candidate where name == .target:
            capture = TextCapture(role: .candidateTarget, element: element, &locations)
        default:
            return false
        }
        return true
    }

    private mutating func startFile12(_ element: XLIFFElement) {
        stack.append(.file)
        if firstFileLocation == nil { firstFileLocation = element.location(&locations) }
        if sourceLanguage == nil { sourceLanguage = Self.nonEmpty(element.attribute("source-language", &locations)) }
        isFileAccepted = true
        guard let language = Self.nonEmpty(element.attribute("target-language", &locations)) else { return }
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
        var builder = UnitBuilder(location: element.location(&locations))
        parts.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        if version == .v1_2 {
            let id = element.attribute("id", lookingUpIn: expected, &locations)
            builder.id = Self.nonEmpty(id)
            builder.expectedIndex = id?.expectedIndex
            builder.isIDLookedUp = expected != nil
            builder.isApproved = element.attributeValue("approved") == "yes"
            builder.tagEnd = element.tagEnd
            builder.isGettextHeader = element.attributeValue("restype") == "x-gettext-domain-header"
            parts.append(Part(isSegment: true, state: nil, stateTagEnd: element.tagEnd))
        } else if let attribute = element.attribute("name", lookingUpIn: expected, &locations), let name = Self.nonEmpty(attribute) {
            builder.id = name
            builder.expectedIndex = attribute.expectedIndex
            builder.isIDLookedUp = expected != nil
            builder.isKeyedByName = true
            builder.alternateID = Self.nonEmpty(element.attribute("id", &locations)).map { $0.map { $0.replacingColons() } }
        } else if let id = Self.nonEmpty(element.attribute("id", &locations)) {
            builder.id = id.map { $0.replacingColons() }
        }
        unit = builder
    }

    // MARK: - Text and inline markup

    private mutating func startInline(_ element: XLIFFElement) {
        guard var current = capture.take() else { return }
        let isCore = element.isInNamespace(documentNamespace)
        let kind = isCore ? Self.inlineKind(element.localNameString, version: version) : .code
        switch kind {
        case .annotation:
            current.pushInline(dropsText: false)
            current.inlineStarts.append(.keepsText)
        case .codePoint:
            current.pushInline(dropsText: false)
            current.inlineStarts.append(.codePoint)
            if current.droppedDepth == 0 { captureBytes.append(contentsOf: Self.decodeCodePoint(element.attributeValue("hex")).utf8) }
        case .pairedCode, .code:
            current.pushInline(dropsText: kind == .code)
            current.inlineStarts.append(kind == .code ? .dropsText : .keepsText)
            if current.role == .target {
                current.markup.append(Located(isCore ? element.localNameString : element.qualifiedName, at: element.location(&locations)))
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

    /// How the captured text is written: `.plain` when it reads as written on one line (nearly
    /// every text), `.mapped` when it is on one line with references, `<cp/>`, inline elements
    /// or CDATA, and `.opaque` when it runs over several lines.
    private func writtenStyle(_ capture: TextCapture, endOffset: Int?) -> ScalarStyle {
        guard let start = capture.contentOffset, let endOffset, endOffset >= start, endOffset <= utf8.count else { return .opaque }
        let raw = utf8[start..<endOffset]
        if raw.withUnsafeBufferPointer(XLIFFLineMap.containsLineBreak) { return .opaque }
        if !capture.hasChildElements && raw.isSameBytes(as: captureBytes) { return .plain }
        return XLIFFTextColumns.columns(written: raw, decoded: captureBytes, inlineStarts: capture.inlineStarts)
            .map(ScalarStyle.mapped) ?? .opaque
    }

    private mutating func finish(_ text: CapturedText, role: TextCapture.Role) {
        if role == .candidateSource || role == .candidateTarget {
            if role == .candidateSource, candidate?.source == nil { candidate?.source = text.text }
            if role == .candidateTarget, candidate?.target.isEmpty ?? false { candidate?.target = text.text }
            return
        }
        if role == .note {
            if unit != nil { notes.append(TranslationNote(author: noteAuthor, text: text.text)) }
            return
        }
        guard unit != nil, !parts.isEmpty else { return }
        let last = parts.count - 1
        switch role {
        case .source where parts[last].source == nil: parts[last].source = text
        case .target where parts[last].target == nil: parts[last].target = text
        default: break
        }
    }

    // MARK: - Units

    private mutating func finishUnit(_ builder: UnitBuilder) {
        guard isFileAccepted, !builder.isGettextHeader else { return }
        guard let id = builder.id else {
            diagnostics.append(XLIFFDiagnostics.unitWithoutID(element: version == .v1_2 ? "trans-unit" : "unit", at: builder.location))
            return
        }
        // Counted through indices rather than filtered into arrays or copied part by part:
        // nearly every unit has one part, and these few lines run for every unit of a file.
        var hasSegment = false
        var everySegmentHasSource = true
        var everySegmentHasTarget = true
        var sourceCount = 0
        var targetCount = 0
        var firstSourceIndex = -1
        var firstTargetIndex = -1
        for index in parts.indices {
            if parts[index].source != nil {
                sourceCount += 1
                if firstSourceIndex < 0 { firstSourceIndex = index }
            }
            if parts[index].target != nil {
                targetCount += 1
                if firstTargetIndex < 0 { firstTargetIndex = index }
            }
            guard parts[index].isSegment else { continue }
            hasSegment = true
            if parts[index].source == nil { everySegmentHasSource = false }
            if parts[index].target == nil { everySegmentHasTarget = false }
        }
        guard hasSegment, everySegmentHasSource, firstSourceIndex >= 0 else {
            diagnostics.append(XLIFFDiagnostics.unitWithoutSource(id: id.value, at: builder.location))
            return
        }
        let isRepeated = !isFirst(id.value, lookedUp: builder.isIDLookedUp ? .some(builder.expectedIndex) : nil)

        let source = Located(
            sourceCount == 1 ? parts[firstSourceIndex].source!.text : parts.compactMap(\.source?.text).joined(),
            at: parts[firstSourceIndex].source!.location,
            style: sourceCount == 1 ? parts[firstSourceIndex].source!.style : .opaque)

        let (state, rawState) = unitState(isApproved: builder.isApproved)
        var target: Located<String>?
        if firstTargetIndex >= 0, everySegmentHasTarget {
            // One part (every 1.2 unit, most 2.0 ones) has its target's text as it is.
            let text = parts.count == 1 ? parts[firstTargetIndex].target!.text : orderedTargetText()
            if !Self.isBlank(text) {
                target = Located(text, at: parts[firstTargetIndex].target!.location,
                                 style: parts.count == 1 ? parts[firstTargetIndex].target!.style : .opaque)
            }
        }
        if target == nil, builder.isIDLookedUp ? builder.expectedIndex != nil : isMessageField(id.value) {
            reportEmptyTargetMarkedTranslated(id: id.value, builder: builder)
        }
        let markup = targetCount == 0 ? [] : targetCount == 1 ? parts[firstTargetIndex].target!.markup
            : parts.flatMap { $0.target?.markup ?? [] }
        if isRepeated { repeatedIDUnits.append(units.count) }
        if version == .v2_0 {
            isKeyedByName.append(builder.isKeyedByName)
            alternateIDs.append(builder.alternateID)
        }
        if units.isEmpty { units.reserveCapacity(expectedUnitCount) }
        units.append(TranslationUnit(
            id: id, source: source, target: target, state: target == nil ? .untranslated : state,
            rawState: rawState, inlineMarkup: markup, location: builder.location, notes: notes,
            isApproved: builder.isApproved, candidates: candidates))
    }

    /// Sorts out units that repeat an earlier unit's id, once the whole file is read.
    ///
    /// In 2.0 units are keyed by `name` only where names are unique in the file: a tool that
    /// writes a name per source string (Symfony's dumper writes the message key) may repeat one,
    /// and then each unit's `id` keys it. A repeat with the same target as the first is noise
    /// (XLF009, a warning); one with a different target makes the id ambiguous (XLF013): neither
    /// is used, since msgc cannot tell which the translator meant. Repeats are dropped either way.
    private mutating func resolveRepeatedIDs(reports: Bool) {
        var isKeyedByName = self.isKeyedByName
        if repeatedIDUnits.contains(where: { $0 < isKeyedByName.count && isKeyedByName[$0] }),
           isKeyedByName.indices.allSatisfy({ !isKeyedByName[$0] || alternateIDs[$0] != nil }) {
            // Names repeat, and every named unit has an id: key each by its id instead.
            for index in isKeyedByName.indices where isKeyedByName[index] {
                units[index].id = alternateIDs[index]!
                isKeyedByName[index] = false
            }
        }
        var firstIndexOfID: [String: Int] = [:]
        var isKept = [Bool](repeating: true, count: units.count)
        for index in units.indices {
            let id = units[index].id.value
            guard let first = firstIndexOfID[id] else {
                firstIndexOfID[id] = index
                continue
            }
            isKept[index] = false
            if units[index].target?.value != units[first].target?.value { units[first].isAmbiguous = true }
            guard reports else { continue }
            let noun = index < isKeyedByName.count && isKeyedByName[index] ? "unit name" : "unit id"
            let location = units[index].id.location.spanning(scalars: id.unicodeScalars.count)
            if units[index].target?.value == units[first].target?.value {
                diagnostics.append(XLIFFDiagnostics.duplicateUnit(
                    noun: noun, id: id, firstLine: units[first].id.location.line, at: location, first: units[first].id.location))
            } else {
                diagnostics.append(XLIFFDiagnostics.conflictingUnits(
                    noun: noun, id: id, firstLine: units[first].id.location.line, at: location, first: units[first].id.location,
                    isMessageField: isMessageField(units[index].id.value)))
            }
        }
        var kept: [TranslationUnit] = []
        kept.reserveCapacity(units.count)
        for index in units.indices where isKept[index] {
            kept.append(units[index])
        }
        units = kept
    }

    /// One XLF008 per unit whose target holds inline markup: an error where the unit is a
    /// message's field, a warning where it matches none (its translation is never used).
    private mutating func reportInlineMarkup() {
        for index in units.indices {
            guard let first = units[index].inlineMarkup.first else { continue }
            let unit = units[index]
            let subject = unit.parsedID.map { Subject(product: $0.product, key: $0.key, locale: targetLanguage?.value) }
            diagnostics.append(XLIFFDiagnostics.inlineMarkup(
                unitID: unit.id.value, elements: unit.inlineMarkup, at: first.location, subject: subject,
                isMessageField: isMessageField(unit.id.value)))
        }
    }

    /// Whether a unit id is a message's field: looked up only for the few units a finding is
    /// about, not for every unit read. True when the collector was given no ids and cannot tell.
    private func isMessageField(_ id: String) -> Bool {
        expected?.contains(id) ?? true
    }

    /// Whether no unit kept so far has the id `id` (`==`), noting that one now has.
    /// `lookedUp` is the id's place among the expected ids where the reader has looked it up
    /// already (`.some(nil)`: it is none of them).
    private mutating func isFirst(_ id: String, lookedUp: Int?? = nil) -> Bool {
        // An expected id is told by its bytes (`ExpectedUnits`): a flag at its place among them.
        if let index = lookedUp ?? expected?.index(of: id) {
            if seenExpectedIDs.isEmpty { seenExpectedIDs = [Bool](repeating: false, count: expected?.count ?? 0) }
            defer { seenExpectedIDs[index] = true }
            return !seenExpectedIDs[index]
        }
        if unitIDs.isEmpty { unitIDs.reserveCapacity(expected == nil ? expectedUnitCount : 16) }
        return unitIDs.insert(id).inserted
    }

    /// Whether `text` is empty or white space only. Nearly every text starts with a visible
    /// ASCII character or a letter, and the first byte settles the first case.
    private static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, first > 0x20, first < 0x80 { return false }
        return text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// XLF014 for a `state` the file's version does not define, at the attribute.
    private mutating func checkState(_ raw: String, of element: XLIFFElement) {
        guard let version, !version.defines(state: raw), let attribute = element.attribute("state", &locations) else { return }
        let id = unit?.id?.value ?? ""
        var location = attribute.location
        if attribute.isVerbatim { location = location.spanning(scalars: raw.unicodeScalars.count) }
        diagnostics.append(XLIFFDiagnostics.unknownState(
            raw, unitID: id, version: version, suggestion: XLIFFStates.suggestion(for: raw, in: version), at: location,
            canEdit: attribute.isVerbatim))
    }

    /// XLF015 for a unit with no text to use (no target, or an empty or white-space one) whose
    /// state says it is translated or beyond: 1.2 a `state` of `translated` or later, or
    /// `approved="yes"`; 2.0 a segment `state` of `translated`, `reviewed` or `final`. A target
    /// with no state is no claim (translate-toolkit and memoQ write untranslated units so).
    private mutating func reportEmptyTargetMarkedTranslated(id: String, builder: UnitBuilder) {
        if version == .v1_2 {
            let raw = parts[0].state
            let claimsByState = raw.map { version!.defines(state: $0) && XLIFFStates.state(xliff12: $0, isApproved: false) >= .translated } ?? false
            guard claimsByState || builder.isApproved else { return }
            let hasTarget = parts[0].target != nil
            let location: SourceLocation
            let claim: String
            if claimsByState, let target = parts[0].target {
                location = attributeLocation("state", tagEnd: parts[0].stateTagEnd, reference: target) ?? builder.location
                claim = "state '\(raw!)'"
            } else {
                location = parts[0].source.flatMap { attributeLocation("approved", tagEnd: builder.tagEnd, reference: $0) } ?? builder.location
                claim = "approved=\"yes\""
            }
            diagnostics.append(XLIFFDiagnostics.emptyTargetMarkedTranslated(
                unitID: id, claim: claim, version: .v1_2, targetIsMissing: !hasTarget, isWhiteSpace: parts[0].target.map { !$0.text.isEmpty } ?? false,
                at: location, subject: subject(of: id)))
            return
        }
        for index in parts.indices where parts[index].isSegment {
            guard let raw = parts[index].state, XLIFFStates.state(xliff20: raw) >= .translated,
                  parts[index].target.map({ Self.isBlank($0.text) }) ?? true, let source = parts[index].source else { continue }
            let location = attributeLocation("state", tagEnd: parts[index].stateTagEnd, reference: source) ?? builder.location
            let target = parts[index].target
            diagnostics.append(XLIFFDiagnostics.emptyTargetMarkedTranslated(
                unitID: id, claim: "state '\(raw)'", version: .v2_0, targetIsMissing: target == nil, isWhiteSpace: !(target?.text.isEmpty ?? true),
                at: location, subject: subject(of: id)))
            return
        }
    }

    /// The unit's message in the file's locale, for a finding about one of its fields.
    private func subject(of id: String) -> Subject? {
        guard let targetLanguage else { return nil }
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        return Subject(product: parts[0..<(parts.count - 2)].joined(separator: "/"), key: String(parts[parts.count - 2]), locale: targetLanguage.value)
    }

    /// Where the value of the attribute `name` is written in the start tag that ends at
    /// `tagEnd`, found back from a text read later in the unit (`reference`), whose position
    /// is known; nil when the tag has no such attribute.
    private func attributeLocation(_ name: String, tagEnd: Int, reference: CapturedText) -> SourceLocation? {
        guard let referenceOffset = reference.offset, let line = reference.location.line, let column = reference.location.column,
              tagEnd < referenceOffset else { return nil }
        let tagStart = utf8.withUnsafeBufferPointer { XLIFFLineMap.lastIndex(of: UInt8(ascii: "<"), in: $0, from: 0, to: tagEnd) }
        guard let tagStart else { return nil }
        var scanner = XLIFFMarkupScanner(utf8: utf8, start: tagStart)
        guard let tag = scanner.nextTag(), tag.start == tagStart, let value = tag.attributeValue(name) else { return nil }
        let position = XLIFFLineMap.position(of: value.start, before: referenceOffset, at: (line, column), in: utf8, start: 0)
        var location = SourceLocation(file: reference.location.file, line: position.line, column: position.column)
        let written = utf8[value.start..<value.endOffset]
        if !written.withUnsafeBufferPointer(XLIFFLineMap.containsLineBreak) {
            location = location.spanning(scalars: written.withUnsafeBufferPointer(UTF8Bytes.scalarCount))
        }
        return location
    }

    /// The unit's state: for 1.2 the target's `state` and the unit's `approved`; for 2.0 the
    /// least state of its segments, a segment without target counting as untranslated.
    private func unitState(isApproved: Bool) -> (TranslationState, String?) {
        if version == .v1_2 {
            let raw = parts[0].state
            return (XLIFFStates.state(xliff12: raw, isApproved: isApproved), raw)
        }
        var least: (TranslationState, String?)?
        for part in parts where part.isSegment {
            let state = part.target == nil ? .untranslated : XLIFFStates.state(xliff20: part.state)
            if least == nil || state < least!.0 { least = (state, part.state) }
        }
        return least ?? (.untranslated, nil)
    }

    /// The target text of all parts, in the order 2.0 `target/@order` gives, else in document
    /// order; an ignorable without target contributes its source.
    private func orderedTargetText() -> String {
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

    private static func nonEmpty(_ attribute: XLIFFAttribute?) -> Located<String>? {
        guard let attribute, !attribute.value.isEmpty else { return nil }
        return Located(attribute.value, at: attribute.location, style: attribute.isVerbatim ? .plain : .opaque)
    }

    /// `pt_BR` and `pt-br` name the same language: for the one-language-per-file check, and for
    /// the files extract will not write over (`XLIFFExport.unusableFiles`).
    static func languageKey(_ tag: String) -> String {
        tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }
}

/// Where offsets of a file's text are, as locations in it (`XLIFFLineMap`).
struct XLIFFLocations {
    /// The path as every location made in the file holds it, made once.
    let file: SourcePath
    var lines: XLIFFLineMap

    mutating func location(at offset: Int) -> SourceLocation {
        let (line, column) = lines.position(at: offset)
        return SourceLocation(file: file, line: line, column: column)
    }
}

// MARK: - Builders

private struct Part {
    var isSegment: Bool
    var state: String?
    /// Where the start tag holding `state` ends (1.2 `target`, 2.0 `segment`), to find the
    /// attribute again should the target turn out empty.
    var stateTagEnd = 0
    var source: CapturedText?
    var target: CapturedText?
}

private struct UnitBuilder {
    var location: SourceLocation
    var id: Located<String>?
    /// 2.0: whether `id` holds the unit's `name`; then its `id` attribute (`:` read as `/`),
    /// if any, for a file whose names turn out not to be unique.
    var isKeyedByName = false
    var alternateID: Located<String>?
    var isApproved = false
    var isGettextHeader = false
    /// Whether `id` was looked up among the expected ids as it was read, and its place there.
    var isIDLookedUp = false
    var expectedIndex: Int?
    /// Where the unit's start tag ends, to find `approved` again.
    var tagEnd = 0
}

/// A source or target being read: its text goes to the collector's `captureBytes`.
private struct TextCapture {
    enum Role { case source, target, note, candidateSource, candidateTarget }

    var role: Role
    var location: SourceLocation
    var contentOffset: Int?
    /// 2.0 `target/@order`.
    var order: Int?
    /// For each open inline element, whether it drops the text inside it.
    private var inline: [Bool] = []
    /// How many of the open inline elements drop their text.
    private(set) var droppedDepth = 0
    var markup: [Located<String>] = []
    var hasChildElements = false
    /// What each inline element started so far did to the text, in document order, for
    /// `XLIFFTextColumns`.
    var inlineStarts: [XLIFFTextColumns.InlineStart] = []

    mutating func pushInline(dropsText: Bool) {
        inline.append(dropsText)
        if dropsText { droppedDepth += 1 }
    }

    /// Closes the innermost open inline element; false when none is open.
    mutating func popInline() -> Bool {
        guard let dropsText = inline.popLast() else { return false }
        if dropsText { droppedDepth -= 1 }
        return true
    }

    init(role: Role, element: XLIFFElement, _ locations: inout XLIFFLocations) {
        self.role = role
        self.location = element.contentLocation(&locations)
        self.contentOffset = element.contentStart
        self.order = element.attributeValue("order").flatMap { Int($0) }
    }
}

/// A source or target once its element has ended.
private struct CapturedText {
    var text: String
    var location: SourceLocation
    /// The offset of `location` in the file's UTF-8.
    var offset: Int?
    /// How `text` is written in the file (`writtenStyle`).
    var style: ScalarStyle
    var order: Int?
    var markup: [Located<String>]
}

extension String {
    fileprivate func replacingColons() -> String {
        String(map { $0 == ":" ? "/" : $0 })
    }

    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
