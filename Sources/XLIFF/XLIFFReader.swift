import CLibXML2
import Diagnostics
import Model

/// Reads an XLIFF 1.2 or 2.0 file of the content tree into a `TranslationFile`.
///
/// XLIFF comes from outside the team and is parsed as untrusted input (docs/formats.md,
/// "Reading untrusted XLIFF"):
///
/// 1. Size: more than `ContentLimits.maxXLIFFBytes` is refused unread.
/// 2. Encoding: UTF-8 (BOM optional) or UTF-16 (BOM, or XML declaration); any other declared
///    encoding, UTF-32, and invalid bytes are refused with the first bad byte's location.
/// 3. A DOCTYPE is refused before libxml2 sees it, so no DTD, entity declaration, entity bomb
///    or external reference is ever parsed.
/// 4. libxml2's SAX2 push parser reads the UTF-8 text, fed in pieces of 1 MiB, with
///    `XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_IGNORE_ENC` only, a process-wide entity
///    loader that refuses everything, and a depth cap (`maxElementDepth`). Any libxml2 error
///    makes the file unreadable, and wins over finding that a well-formed file is not XLIFF.
///    One piece of markup (a tag, comment, processing instruction or CDATA section) longer
///    than 10,000,000 bytes is refused where it starts.
///
/// An unreadable file has no units, `isReadable == false` and exactly one diagnostic. It keeps
/// the version and languages if they were read before the problem, so reports can name the
/// locale whose file was left out.
///
/// Locations are exact: line and column (in Unicode scalars) of a unit's start tag, of its id
/// attribute's value, of the first character of its source and target, and of each inline
/// element. A source or target on one line is located scalar by scalar, references and
/// `<cp/>` included (`XLIFFTextColumns`); one over several lines, only at its start. SAX2 calls back with libxml2's input at the end of the tag just read; from that
/// byte offset the `<` is the nearest one back, an attribute value's offset is its distance
/// from the input position, and `XLIFFLineMap` turns offsets into lines and columns.
/// libxml2's own error positions are used for XML errors, as docs/formats.md says.
public enum XLIFFReader {
    /// The deepest nesting of elements read; XLIFF needs fewer than 20 levels.
    public static let maxElementDepth = 64

    public static func read(bytes: [UInt8], path: String) -> (TranslationFile, [Diagnostic]) {
        read(bytes: bytes, path: path, chunkSize: XLIFFReadSession.defaultChunkSize)
    }

    /// `read(bytes:path:)`, told the units the project's messages expect: inline markup in a
    /// unit that is none of them (XLF008), and a repeat of such a unit with another target
    /// (XLF013), are warnings, since its translation is never used.
    ///
    /// Without `keepingNotes`, units carry no notes: only a command that writes the file again
    /// (extract keeps translators' notes) needs them, and most files hold a note or two per unit.
    public static func read(
        bytes: [UInt8], path: String, expecting expected: ExpectedUnits, keepingNotes: Bool = true
    ) -> (TranslationFile, [Diagnostic]) {
        read(bytes: bytes, path: path, chunkSize: XLIFFReadSession.defaultChunkSize, expected: expected, keepingNotes: keepingNotes)
    }

    /// `read(bytes:path:)`, handing libxml2 `chunkSize` bytes at a time (tests make it small).
    static func read(
        bytes: [UInt8], path: String, chunkSize: Int = XLIFFReadSession.defaultChunkSize, expected: ExpectedUnits? = nil,
        keepingNotes: Bool = true
    ) -> (TranslationFile, [Diagnostic]) {
        XLIFFLibXMLSetup.ensure()
        guard bytes.count <= ContentLimits.maxXLIFFBytes else {
            return unreadable(path, XLIFFDiagnostics.fileTooLarge(byteCount: bytes.count, path: path))
        }
        let text: XLIFFInputText
        switch XLIFFInputText.decode(bytes) {
        case .success(let decoded):
            text = decoded
        case .failure(let failure):
            var location = SourceLocation(path: path, line: failure.line, column: failure.column)
            if let length = failure.length { location = location.spanning(scalars: length) }
            return unreadable(path, XLIFFDiagnostics.unsupportedEncoding(failure.message, at: location))
        }
        if text.utf8[text.start...].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return unreadable(path, XLIFFDiagnostics.emptyFile(path: path))
        }
        var prologScanner = XLIFFMarkupScanner(utf8: text.utf8, start: text.start)
        if let first = prologScanner.nextTag(), first.kind == .doctype {
            var lines = XLIFFLineMap(utf8: text.utf8, start: text.start)
            let (line, column) = lines.position(at: first.start)
            let location = SourceLocation(path: path, line: line, column: column)
            return unreadable(path, XLIFFDiagnostics.doctype(at: location.spanning(scalars: "<!DOCTYPE".count)))
        }
        return XLIFFReadSession(path: path, text: text, chunkSize: chunkSize, expected: expected, keepsNotes: keepingNotes).run()
    }

    /// The text of an XLIFF file's `bytes` for source snippets, with XML's line breaks (LF,
    /// CR LF, a lone CR), as the reader counts them. UTF-8 bytes are kept as they are (after a
    /// byte order mark), not copied; UTF-16 is decoded as the reader decodes it, so that lines
    /// and columns agree. Nil for UTF-16 the reader cannot decode.
    public static func snippetSource(bytes: [UInt8], path: String) -> SourceFile? {
        // UTF-16 starts with a byte order mark, or has a NUL in the first two bytes of `<?xml`;
        // UTF-8 text does neither.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.prefix(2).contains(0) {
            guard case .success(let text) = XLIFFInputText.decode(bytes) else { return nil }
            return SourceFile(path: path, utf8: text.utf8, textStart: text.start, lineBreaks: .xml)
        }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return SourceFile(path: path, utf8: bytes, textStart: start, lineBreaks: .xml)
    }

    fileprivate static func unreadable(
        _ path: String, _ diagnostic: Diagnostic, partial collector: XLIFFUnitCollector? = nil
    ) -> (TranslationFile, [Diagnostic]) {
        let file = TranslationFile(
            path: path, version: collector?.version, targetLanguage: collector?.targetLanguage,
            sourceLanguage: collector?.sourceLanguage, units: [], isReadable: false)
        return (file, [diagnostic])
    }
}

/// One pass of libxml2's SAX2 parser over a file.
///
/// SAX2 hands over names, namespaces and attribute values as pointers and text as byte runs,
/// and builds no tree: it does about 60% of the work of the streaming reader `xmllint
/// --stream` uses. The session keeps byte offsets (`xmlByteConsumed`) and turns into lines
/// and columns only those the collector asks for (`XLIFFLineMap`).
///
/// The text is pushed to libxml2 a piece at a time rather than handed over whole: libxml2
/// copies what it parses, and a whole-file copy of a 25 MB file is memory the kernel has to
/// map afresh for every file. libxml2 parses a start tag only once all of it has arrived, so the
/// attribute values it hands over still lie in its buffer next to its cursor.
final class XLIFFReadSession {
    let path: String
    let text: XLIFFInputText
    let errors = XLIFFLibXMLErrorCollector()

    // What the events change as libxml2 reads. The collector keeps the line map too, so that
    // an event reaches the collector's state through one access.
    private var collector: XLIFFUnitCollector
    /// Why reading stopped early, when the depth cap stopped it.
    private var problem: Diagnostic?
    /// Set when the collector finds the document is not XLIFF msgc reads. libxml2 still reads
    /// to the end, so that a file that is not even well-formed XML is reported as such.
    private var notReadable: Diagnostic?
    /// Whether either is set: events test this flag, as testing an optional `Diagnostic`
    /// copies it.
    private var isDone = false
    /// libxml2's parser while `run` reads.
    private var parser: xmlParserCtxtPtr?
    private var depth = 0
    /// Whether the last event was the start of an empty element, whose end comes next.
    private var startedEmptyElement = false
    /// Whether libxml2 calls back with text (`characters`): only while the collector captures
    /// a source, a target or a kept note. The rest of a file's text (the white space that
    /// indents every element, notes msgc does not keep) is of no use, and libxml2 calls no
    /// handler it is not given: on the app preset that is 100,000 calls fewer, each of which
    /// reached the collector only to be dropped.
    private var deliversText = true

    init(path: String, text: XLIFFInputText, chunkSize: Int, expected: ExpectedUnits? = nil, keepsNotes: Bool = true) {
        self.path = path
        self.chunkSize = max(1, chunkSize)
        self.text = text
        collector = XLIFFUnitCollector(path: path, utf8: text.utf8, start: text.start, expected: expected, keepsNotes: keepsNotes)
    }

    /// How many bytes libxml2 is handed at a time. libxml2 keeps its own copy of what it has
    /// not parsed yet; fed the whole file, that copy is as large as the file and is faulted in
    /// afresh for every large file. Each piece costs libxml2 some work of its own (about 1.5%
    /// of lint on the app preset at 64 KiB), so pieces are not made smaller than they need be.
    static let defaultChunkSize = 1 << 20
    let chunkSize: Int
    /// The longest piece of markup libxml2 reads without `XML_PARSE_HUGE` (`XML_MAX_LOOKUP_LIMIT`).
    static let markupLimit = 10_000_000

    func run() -> (TranslationFile, [Diagnostic]) {
        let body = text.utf8.count - text.start
        let started: Bool = text.utf8.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).advanced(by: text.start).assumingMemoryBound(to: CChar.self)
            // libxml2's push parser copies the bytes it parses, so offsets count from
            // `text.start`. The first four bytes go in first, as libxml2 expects of a push
            // parser; none of them is parsed before the options are set.
            let head = min(4, body)
            var sax = Self.handler
            guard let context = xmlCreatePushParserCtxt(
                &sax, Unmanaged.passUnretained(self).toOpaque(), base, Int32(head), nil) else { return false }
            parser = context
            defer {
                xmlFreeParserCtxt(context)
                parser = nil
            }
            deliverText(false)
            // The document's own encoding declaration is ignored: these bytes are UTF-8 already
            // (`XLIFFInputText` converted UTF-16 and refused everything else).
            xmlCtxtUseOptions(context, XLIFFLibXMLSetup.parserOptions | Int32(XML_PARSE_IGNORE_ENC.rawValue))
            withExtendedLifetime(self) {
                var position = head
                while true {
                    let length = min(chunkSize, body - position)
                    let isLast = position + length == body
                    _ = xmlParseChunk(context, base + position, Int32(length), isLast ? 1 : 0)
                    position += length
                    // `xmlStopParser` (an error, or the depth cap) ends the document.
                    if isLast || context.pointee.instate == XML_PARSER_EOF { break }
                }
            }
            return true
        }
        if !started {
            return XLIFFReader.unreadable(
                path, XLIFFDiagnostics.malformedXML(detail: "libxml2 could not start reading", at: SourceLocation(path: path)))
        }
        if let problem = problem ?? errors.first.map(diagnostic(for:)) ?? notReadable {
            return XLIFFReader.unreadable(path, problem, partial: collector)
        }
        collector.finishDocument()
        let file = TranslationFile(
            path: path, version: collector.version, targetLanguage: collector.targetLanguage,
            sourceLanguage: collector.sourceLanguage, units: collector.units, isReadable: true, hasUniqueUnitIDs: true)
        return (file, collector.diagnostics)
    }

    /// Ends parsing early with `diagnostic` as the file's one finding.
    private func stop(_ diagnostic: Diagnostic) {
        if problem == nil { problem = diagnostic }
        isDone = true
        if let parser { xmlStopParser(parser) }
    }

    /// Gives libxml2 the text handler (the parser's own copy of the handlers) when `wanted`,
    /// else none: libxml2 looks a handler up at every piece of text it reads.
    private func deliverText(_ wanted: Bool) {
        guard wanted != deliversText, let handlers = parser?.pointee.sax else { return }
        deliversText = wanted
        // Both or neither: libxml2 tells white space apart only when the two differ.
        handlers.pointee.characters = wanted ? Self.textHandler : nil
        handlers.pointee.ignorableWhitespace = wanted ? Self.textHandler : nil
    }

    /// Where libxml2 is in the text, as an offset into `text.utf8`.
    private var offset: Int {
        guard let parser else { return text.start }
        return text.start + Int(xmlByteConsumed(parser))
    }

    // MARK: - Events

    fileprivate func startElement(
        localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !isDone, let parser, let input = parser.pointee.input else { return }
        // libxml2 calls back with its input at the start tag's `>` or `/>`.
        let tagEnd = offset
        let isEmpty = tagEnd < text.utf8.count && text.utf8[tagEnd] == UInt8(ascii: "/")
        depth += 1
        let element = XLIFFElement(
            localName: localName, prefix: prefix, uri: uri, attributeCount: attributeCount, attributes: attributes,
            tagEnd: tagEnd, contentStart: tagEnd + (isEmpty ? 2 : 1), parserCursor: UnsafePointer(input.pointee.cur),
            parserBase: UnsafePointer(input.pointee.base), session: self)
        if depth > XLIFFReader.maxElementDepth {
            stop(XLIFFDiagnostics.nestedTooDeeply(depth: depth, at: element.location(&collector.locations)))
            return
        }
        collector.start(element)
        if collector.hasFailed {
            notReadable = collector.fatal
            isDone = true
        }
        startedEmptyElement = isEmpty
        deliverText(collector.wantsText)
    }

    fileprivate func endElement() {
        guard !isDone else { return }
        depth -= 1
        let wantsText: Bool
        if startedEmptyElement {
            startedEmptyElement = false
            wantsText = collector.end { nil }
        } else {
            // libxml2 calls back with its input just after the end tag's `>`; the collector asks
            // where the end tag starts only when it closes a source or a target.
            let end = offset
            wantsText = collector.end { self.tagStart(before: end) }
        }
        deliverText(wantsText)
    }

    fileprivate func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !isDone else { return }
        startedEmptyElement = false
        collector.text(bytes)
    }

    fileprivate func documentType() {
        let line = parser?.pointee.input?.pointee.line
        stop(XLIFFDiagnostics.doctype(at: SourceLocation(path: path, line: line.map(Int.init))))
    }

    // MARK: - Positions

    /// The `<` of the tag that ends just before `end`: the nearest one back, since a `<` can
    /// occur in XML only as markup (attribute values and text escape it).
    func tagStart(before end: Int) -> Int {
        text.utf8.withUnsafeBufferPointer { buffer in
            XLIFFLineMap.lastIndex(of: UInt8(ascii: "<"), in: buffer, from: text.start, to: min(end, buffer.count)) ?? text.start
        }
    }

    /// Where the value of the attribute named `qualifiedName` is written in the tag that ends
    /// at `tagEnd`: the offset after its opening quote and before its closing quote.
    func writtenAttributeValue(_ qualifiedName: String, tagStart: Int, tagEnd: Int) -> (start: Int, end: Int)? {
        var scanner = XLIFFMarkupScanner(utf8: text.utf8, start: tagStart)
        guard let tag = scanner.nextTag(), tag.start == tagStart,
              let value = tag.attributeValue(qualifiedName), value.endOffset <= tagEnd else { return nil }
        return (value.start, value.endOffset)
    }

    func bytes(from start: Int, to end: Int) -> ArraySlice<UInt8> {
        text.utf8[max(0, start)..<min(max(start, end), text.utf8.count)]
    }

    // MARK: - libxml2 callbacks

    /// The session of a callback, not retained: `run` keeps it alive while libxml2 parses.
    fileprivate static func session<Result>(_ context: UnsafeMutableRawPointer?, _ body: (XLIFFReadSession) -> Result) -> Result {
        body(Unmanaged<XLIFFReadSession>.fromOpaque(context!).takeUnretainedValue())
    }

    /// The SAX2 handler: elements, text (CDATA arrives as text under `XML_PARSE_NOCDATA`),
    /// a DOCTYPE refused, and errors collected. No entity callbacks: without a DTD only the
    /// predefined entities and character references exist, which libxml2 expands itself.
    private static var handler: xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, prefix, uri, _, _, attributeCount, _, attributes in
            XLIFFReadSession.session(context) {
                $0.startElement(
                    localName: localName!, prefix: prefix, uri: uri, attributeCount: Int(attributeCount), attributes: attributes)
            }
        }
        handler.endElementNs = { context, _, _, _ in XLIFFReadSession.session(context) { $0.endElement() } }
        handler.characters = textHandler
        handler.ignorableWhitespace = textHandler
        handler.internalSubset = { context, _, _, _ in XLIFFReadSession.session(context) { $0.documentType() } }
        handler.serror = { context, error in
            guard let context, let error else { return }
            XLIFFReadSession.session(context) { current in
                current.errors.record(error.pointee)
                if current.errors.first != nil, let parser = current.parser { xmlStopParser(parser) }
            }
        }
        return handler
    }

    /// The text handler, given to libxml2 only while the collector wants text (`deliverText`).
    private static var textHandler: charactersSAXFunc {
        { context, text, length in
            guard let text, length > 0 else { return }
            XLIFFReadSession.session(context) { $0.characters(UnsafeBufferPointer(start: text, count: Int(length))) }
        }
    }

    // MARK: - libxml2 errors

    private func diagnostic(for report: XLIFFLibXMLErrorCollector.Report) -> Diagnostic {
        let location = SourceLocation(path: path, line: report.line > 0 ? report.line : nil,
                                      column: report.column > 0 ? report.column : nil)
        let detail = Self.cleaned(report.message)
        if report.message.contains("Excessive depth") {
            return XLIFFDiagnostics.nestedTooDeeply(depth: 256, at: location)
        }
        let encodingCodes: Set<Int32> = [
            Int32(XML_ERR_INVALID_ENCODING.rawValue), Int32(XML_ERR_UNSUPPORTED_ENCODING.rawValue),
            Int32(XML_ERR_UNKNOWN_ENCODING.rawValue),
        ]
        if encodingCodes.contains(report.code) || report.domain == Int32(XML_FROM_I18N.rawValue) {
            return XLIFFDiagnostics.unsupportedEncoding("file is not in the encoding it declares: \(detail)", at: location)
        }
        if report.code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue) {
            return XLIFFDiagnostics.malformedXML(
                detail: "the file does not start with an XML element; an XLIFF file starts with <?xml …?> or <xliff>",
                at: location)
        }
        if let value = Self.invalidCharacterReference(report.message) {
            let hex = String(value, radix: 16, uppercase: true)
            return XLIFFDiagnostics.malformedXML(
                detail: "character reference to U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex), "
                    + "which XML 1.0 does not allow (XLIFF 2.0 writes it as <cp hex=\"\(hex)\"/>)",
                at: location)
        }
        if report.code == Int32(XML_ERR_INTERNAL_ERROR.rawValue) && report.message.contains("Huge input lookup") {
            // libxml2's push parser holds one piece of markup whole while it reads it, up to
            // `XML_MAX_LOOKUP_LIMIT`; its position is then wherever it stopped, so the piece
            // is found here.
            var scanner = XLIFFMarkupScanner(utf8: text.utf8, start: text.start)
            let start = scanner.firstMarkup(longerThan: Self.markupLimit)
            return XLIFFDiagnostics.malformedXML(
                detail: "a tag, comment, processing instruction or CDATA section longer than 10,000,000 bytes; "
                    + "libxml2 reads no piece of markup that long",
                at: start.map { collector.locations.location(at: $0) } ?? location)
        }
        if let (name, line) = unclosedElementAtEnd(errorLine: report.line) {
            return XLIFFDiagnostics.truncated(insideElement: name, openedOnLine: line, at: location)
        }
        return XLIFFDiagnostics.malformedXML(detail: detail, at: location)
    }

    /// When libxml2 stops at the last line and elements are still open there, the file was cut
    /// off; libxml2 2.9's reader then says "Extra content at the end of the document", which
    /// misleads. Returns the innermost open element and its line.
    private func unclosedElementAtEnd(errorLine: Int) -> (String, Int)? {
        var lines = XLIFFLineMap(utf8: text.utf8, start: text.start)
        var walker = XLIFFMarkupScanner(utf8: text.utf8, start: text.start)
        var open: [XLIFFScannedTag] = []
        while let tag = walker.nextTag() {
            switch tag.kind {
            case .start: open.append(tag)
            case .end: _ = open.popLast()
            case .emptyElement, .doctype: break
            }
        }
        guard let innermost = open.last else { return nil }
        let openedOnLine = lines.position(at: innermost.start).line
        guard errorLine >= lines.position(at: walker.position).line else { return nil }
        return (innermost.qualifiedName, openedOnLine)
    }

    /// The value in libxml2's "xmlParseCharRef: invalid xmlChar value 27".
    private static func invalidCharacterReference(_ message: String) -> UInt32? {
        let prefix = "xmlParseCharRef: invalid xmlChar value "
        guard message.hasPrefix(prefix) else { return nil }
        return UInt32(message.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// libxml2's message as one lower-case clause without a final period.
    private static func cleaned(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }
        var text = lines.joined(separator: "; ")
        while text.hasSuffix(".") { text.removeLast() }
        if let first = text.first, text.dropFirst().first?.isLowercase ?? true {
            text = first.lowercased() + text.dropFirst()
        }
        return text.isEmpty ? "unknown error" : text
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
