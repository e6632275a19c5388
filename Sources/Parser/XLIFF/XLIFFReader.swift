import CLibXML2
import Model

/// Reads an XLIFF 1.2 or 2.0 file of the content tree into a `TranslationFile`.
///
/// XLIFF comes from outside the team and is parsed as untrusted input (SPEC.md, "Translatable
/// strings and XLIFF"; reference/localization-formats.md §3):
///
/// 1. Size: more than `ContentLimits.maxXLIFFBytes` is refused unread.
/// 2. Encoding: UTF-8 (BOM optional) or UTF-16 (BOM, or XML declaration); any other declared
///    encoding, UTF-32, and invalid bytes are refused with the first bad byte's location.
/// 3. A DOCTYPE is refused before libxml2 sees it, so no DTD, entity declaration, entity bomb
///    or external reference is ever parsed.
/// 4. libxml2's streaming reader parses from memory with `XML_PARSE_NONET | XML_PARSE_NOCDATA`
///    only, a process-wide entity loader that refuses everything, and a depth cap
///    (`maxElementDepth`). Any libxml2 error makes the file unreadable.
///
/// An unreadable file has no units, `isReadable == false` and exactly one diagnostic. It keeps
/// the version and languages if they were read before the problem, so reports can name the
/// locale whose file was left out.
///
/// Locations are exact: line and column (in Unicode scalars) of a unit's start tag, of its id
/// attribute's value, of the first character of its source and target, and of each inline
/// element. libxml2's `xmlTextReaderGetParserLineNumber`/`ColumnNumber` report where the
/// *parser* is, up to a 512-byte chunk ahead of the node being read, so msgc walks the text
/// alongside the reader instead (`XLIFFMarkupScanner`). libxml2's own error positions are used
/// for XML errors, as SPEC.md asks.
public enum XLIFFReader {
    /// The deepest nesting of elements read; XLIFF needs fewer than 20 levels.
    public static let maxElementDepth = 64

    public static func read(bytes: [UInt8], path: String) -> (TranslationFile, [Diagnostic]) {
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
            let location = SourceLocation(path: path, line: first.start.line, column: first.start.column)
            return unreadable(path, XLIFFDiagnostics.doctype(at: location.spanning(scalars: "<!DOCTYPE".count)))
        }
        var session = XLIFFReadSession(path: path, text: text)
        return session.run(bytes)
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

/// One pass of libxml2's reader over a file, with the scanner that gives exact positions.
private struct XLIFFReadSession {
    let path: String
    let text: XLIFFInputText
    var collector: XLIFFUnitCollector
    /// Walks the text in step with the reader; nil once the two disagree (then only libxml2's
    /// line numbers are used, which never happens on text libxml2 accepted).
    var scanner: XLIFFMarkupScanner?
    let errors = XLIFFLibXMLErrorCollector()

    init(path: String, text: XLIFFInputText) {
        self.path = path
        self.text = text
        self.collector = XLIFFUnitCollector(path: path, utf8: text.utf8)
        self.scanner = XLIFFMarkupScanner(utf8: text.utf8, start: text.start)
    }

    mutating func run(_ bytes: [UInt8]) -> (TranslationFile, [Diagnostic]) {
        let problem: Diagnostic? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                guard let reader = xmlReaderForMemory(base, Int32(buffer.count), nil, nil, XLIFFLibXMLSetup.parserOptions)
                else {
                    return XLIFFDiagnostics.malformedXML(detail: "libxml2 could not start reading", at: SourceLocation(path: path))
                }
                defer { xmlFreeTextReader(reader) }
                return withExtendedLifetime(errors) {
                    xmlTextReaderSetStructuredErrorHandler(
                        reader, XLIFFLibXMLErrorCollector.handler, Unmanaged.passUnretained(errors).toOpaque())
                    return readNodes(reader)
                }
            }
        }
        if let problem {
            return XLIFFReader.unreadable(path, problem, partial: collector)
        }
        collector.finishDocument()
        let file = TranslationFile(
            path: path, version: collector.version, targetLanguage: collector.targetLanguage,
            sourceLanguage: collector.sourceLanguage, units: collector.units, isReadable: true)
        return (file, collector.diagnostics)
    }

    /// Reads every node; returns the diagnostic that makes the file unreadable, if any.
    private mutating func readNodes(_ reader: xmlTextReaderPtr) -> Diagnostic? {
        while true {
            let status = xmlTextReaderRead(reader)
            if let report = errors.first { return diagnostic(for: report) }
            if status == 0 { return nil }
            if status != 1 {
                return XLIFFDiagnostics.malformedXML(detail: "libxml2 stopped reading", at: SourceLocation(path: path))
            }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                if let problem = readElement(reader) { return problem }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                collector.end(contentEndOffset: nextEndTagOffset(Self.string(xmlTextReaderConstName(reader))))
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                 Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
                collector.text(Self.string(xmlTextReaderConstValue(reader)))
            case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                return XLIFFDiagnostics.doctype(at: nodeLocation(reader))
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int32(XML_READER_TYPE_ENTITY.rawValue):
                return XLIFFDiagnostics.entityReference(Self.string(xmlTextReaderConstName(reader)), at: nodeLocation(reader))
            default:
                break  // comments, processing instructions
            }
        }
    }

    private mutating func readElement(_ reader: xmlTextReaderPtr) -> Diagnostic? {
        let qualifiedName = Self.string(xmlTextReaderConstName(reader))
        let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
        let tag = nextStartTag(qualifiedName, isEmpty: isEmpty)
        var location = nodeLocation(reader)
        var contentLocation = location
        if let tag {
            location = SourceLocation(path: path, line: tag.start.line, column: tag.start.column)
            contentLocation = SourceLocation(path: path, line: tag.contentStart.line, column: tag.contentStart.column)
            if tag.contentStart.line == tag.start.line {
                location.endLine = tag.start.line
                location.endColumn = tag.contentStart.column
            }
        }
        let depth = Int(xmlTextReaderDepth(reader)) + 1
        if depth > XLIFFReader.maxElementDepth {
            return XLIFFDiagnostics.nestedTooDeeply(depth: depth, at: location)
        }
        var attributes: [XLIFFAttribute] = []
        if xmlTextReaderHasAttributes(reader) == 1, xmlTextReaderMoveToFirstAttribute(reader) == 1 {
            repeat {
                let namespace = Self.string(xmlTextReaderConstNamespaceUri(reader))
                if namespace == "http://www.w3.org/2000/xmlns/" { continue }
                let name = Self.string(xmlTextReaderConstName(reader))
                let value = Self.string(xmlTextReaderConstValue(reader))
                var valueLocation = location
                var isVerbatim = false
                if let written = tag?.attributeValue(name) {
                    valueLocation = SourceLocation(path: path, line: written.start.line, column: written.start.column)
                    let raw = text.utf8[written.start.offset..<max(written.start.offset, written.endOffset)]
                    isVerbatim = !raw.contains(UInt8(ascii: "\n")) && !raw.contains(UInt8(ascii: "\r"))
                        && raw.isUTF8(of: value)
                }
                attributes.append(XLIFFAttribute(
                    namespace: namespace, localName: Self.string(xmlTextReaderConstLocalName(reader)),
                    value: value, location: valueLocation, isVerbatim: isVerbatim))
            } while xmlTextReaderMoveToNextAttribute(reader) == 1
            xmlTextReaderMoveToElement(reader)
        }
        collector.start(XLIFFElement(
            namespace: Self.string(xmlTextReaderConstNamespaceUri(reader)),
            localName: Self.string(xmlTextReaderConstLocalName(reader)),
            qualifiedName: qualifiedName, attributes: attributes, location: location,
            contentLocation: contentLocation, contentOffset: tag?.contentStart.offset))
        if let fatal = collector.fatal { return fatal }
        if isEmpty { collector.end(contentEndOffset: nil) }
        return nil
    }

    // MARK: - Positions

    private mutating func nextStartTag(_ qualifiedName: String, isEmpty: Bool) -> XLIFFScannedTag? {
        guard var current = scanner else { return nil }
        guard let tag = current.nextTag(), tag.qualifiedName == qualifiedName,
              tag.kind == (isEmpty ? .emptyElement : .start) else {
            scanner = nil
            return nil
        }
        scanner = current
        return tag
    }

    private mutating func nextEndTagOffset(_ qualifiedName: String) -> Int? {
        guard var current = scanner else { return nil }
        guard let tag = current.nextTag(), tag.kind == .end, tag.qualifiedName == qualifiedName else {
            scanner = nil
            return nil
        }
        scanner = current
        return tag.start.offset
    }

    /// The node's line as libxml2 recorded it (no column; capped at 65,535 by libxml2 2.9).
    private func nodeLocation(_ reader: xmlTextReaderPtr) -> SourceLocation {
        let line = xmlGetLineNo(xmlTextReaderCurrentNode(reader))
        return SourceLocation(path: path, line: line > 0 && line < 65_535 ? Int(line) : nil)
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
        if let (name, line) = unclosedElementAtEnd(errorLine: report.line) {
            return XLIFFDiagnostics.truncated(insideElement: name, openedOnLine: line, at: location)
        }
        return XLIFFDiagnostics.malformedXML(detail: detail, at: location)
    }

    /// When libxml2 stops at the last line and elements are still open there, the file was cut
    /// off; libxml2 2.9's reader then says "Extra content at the end of the document", which
    /// misleads. Returns the innermost open element and its line.
    private func unclosedElementAtEnd(errorLine: Int) -> (String, Int)? {
        var walker = XLIFFMarkupScanner(utf8: text.utf8, start: text.start)
        var open: [XLIFFScannedTag] = []
        while let tag = walker.nextTag() {
            switch tag.kind {
            case .start: open.append(tag)
            case .end: _ = open.popLast()
            case .emptyElement, .doctype: break
            }
        }
        guard let innermost = open.last, errorLine >= walker.position.line else { return nil }
        return (innermost.qualifiedName, innermost.start.line)
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

    fileprivate static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
