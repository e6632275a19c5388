import CLibXML2
import Diagnostics
import Foundation
import Model
import Testing
@testable import XLIFF
import TestSupport

/// Untrusted XLIFF: every hostile file gives exactly one clear diagnostic, no units, no crash,
/// no hang, and never the contents of a file it points at.
@Suite("XLIFF reader on hostile input")
struct XLIFFHostileInputTests {
    typealias Support = XLIFFTestSupport

    /// A file outside the content tree whose contents must never show up anywhere.
    struct Secret {
        let url: URL
        let text = "MSGC-SECRET-\(UUID().uuidString)"

        init() throws {
            url = TestFolders.root.appendingPathComponent("msgc-secret-\(UUID().uuidString).txt")
            try Data(text.utf8).write(to: url)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }

        /// Whether the secret appears in anything the reader returned.
        func leaks(_ result: (TranslationFile, [Diagnostic])) -> Bool {
            let (file, diagnostics) = result
            // Spelled out step by step: as one chained expression it took the type checker 16 s.
            var texts: [String] = []
            for unit in file.units {
                texts += [unit.id.value, unit.source.value, unit.target?.value ?? ""]
            }
            for diagnostic in diagnostics {
                texts.append(diagnostic.message)
                texts += diagnostic.notes.map(\.message)
                texts += diagnostic.fixIts.map(\.message)
            }
            return texts.contains { $0.contains(text) } || "\(result)".contains(text)
        }
    }

    func expectOneUnreadable(_ result: (TranslationFile, [Diagnostic]), code: String, line: Int? = nil,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let (file, diagnostics) = result
        #expect(!file.isReadable, sourceLocation: sourceLocation)
        #expect(file.units.isEmpty, sourceLocation: sourceLocation)
        #expect(diagnostics.map(\.code) == [code], sourceLocation: sourceLocation)
        #expect(diagnostics.first?.severity == .error, sourceLocation: sourceLocation)
        if let line {
            #expect(diagnostics.first?.location.line == line, sourceLocation: sourceLocation)
        }
    }

    func xliff(prolog: String, target: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        \(prolog)
        <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
          <file original="msgc" source-language="en-US" target-language="de-DE" datatype="plaintext">
            <body><trans-unit id="p/k/header"><source>a</source><target>\(target)</target></trans-unit></body>
          </file>
        </xliff>
        """
    }

    @Test("an external entity pointing at a local file is refused and never read")
    func externalEntity() throws {
        let secret = try Secret()
        defer { secret.remove() }
        let result = Support.read(xliff(prolog: "<!DOCTYPE xliff [ <!ENTITY x SYSTEM \"\(secret.url.absoluteString)\"> ]>", target: "&x;"))
        expectOneUnreadable(result, code: "XLF002", line: 2)
        #expect(result.1.first?.location.column == 1)
        #expect(result.1.first?.location.endColumn == 10)
        #expect(!secret.leaks(result))
    }

    @Test("a parameter entity is refused and never loaded")
    func parameterEntity() throws {
        let secret = try Secret()
        defer { secret.remove() }
        let result = Support.read(xliff(prolog: "<!DOCTYPE xliff [ <!ENTITY % p SYSTEM \"\(secret.url.absoluteString)\"> %p; ]>", target: "a"))
        expectOneUnreadable(result, code: "XLF002", line: 2)
        #expect(!secret.leaks(result))
    }

    @Test("an external DTD is refused (XLIFF 1.0 style DOCTYPE)")
    func externalDTD() throws {
        expectOneUnreadable(try Support.read(fixture: "external-dtd.xlf"), code: "XLF002", line: 2)
    }

    @Test("a DOCTYPE after comments and processing instructions is still found")
    func doctypeAfterComments() {
        let result = Support.read("<?xml version=\"1.0\"?>\n<!-- <xliff> -->\n<?pi x?>\n  <!DOCTYPE xliff>\n<xliff/>")
        expectOneUnreadable(result, code: "XLF002", line: 4)
        #expect(result.1.first?.location.column == 3)
    }

    @Test("a billion-laughs entity bomb is refused before expansion")
    func billionLaughs() throws {
        let start = ContinuousClock.now
        expectOneUnreadable(try Support.read(fixture: "billion-laughs.xlf"), code: "XLF002", line: 2)
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("100,000 nested elements stop at the depth cap")
    func deepNesting() {
        let depth = 100_000
        let text = xliff(prolog: "", target: String(repeating: "<g id=\"1\">", count: depth) + String(repeating: "</g>", count: depth))
        let start = ContinuousClock.now
        let result = Support.read(text)
        expectOneUnreadable(result, code: "XLF005", line: 5)
        #expect(result.1.first?.message == "elements are nested 65 levels deep here; msgc reads at most 64")
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("deep nesting of unclosed elements (truncated bomb) also stops at the cap")
    func deepUnclosedNesting() {
        let result = Support.read("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">" + String(repeating: "<a>", count: 100_000))
        expectOneUnreadable(result, code: "XLF005", line: 1)
    }

    @Test("a truncated file says so, at libxml2's position")
    func truncated() throws {
        let result = try Support.read(fixture: "truncated.xlf")
        expectOneUnreadable(result, code: "XLF001")
        #expect(result.1.first?.message == "file ends inside <target> opened on line 7: it looks truncated")
        #expect(result.1.first?.location.line != nil)
    }

    @Test("mismatched tags are malformed XML at libxml2's line and column")
    func mismatchedTags() throws {
        let result = try Support.read(fixture: "mismatched-tags.xlf")
        expectOneUnreadable(result, code: "XLF001", line: 7)
        #expect(result.1.first?.location.column != nil)
        #expect(result.1.first?.message == "XML is not well-formed: opening and ending tag mismatch: target line 7 and source")
    }

    @Test("other malformed XML", arguments: [
        ("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"><file>&undeclared;</file></xliff>", 1),
        ("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n<file>&#x1B;</file></xliff>", 2),
        ("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"/>\n<xliff/>", 2),
        ("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n<q:file/></xliff>", 2),
        ("<xliff version=\"1.2\" a=\"1\" a=\"2\"/>", 1),
        ("not xml at all", 1),
    ])
    func malformed(text: String, line: Int) {
        expectOneUnreadable(Support.read(text), code: "XLF001", line: line)
    }

    @Test("libxml2's least helpful messages are reworded")
    func rewordedMessages() {
        #expect(Support.read("not xml at all").1.first?.message
            == "XML is not well-formed: the file does not start with an XML element; an XLIFF file starts with <?xml …?> or <xliff>")
        #expect(Support.read("<xliff>&#x1B;</xliff>").1.first?.message
            == "XML is not well-formed: character reference to U+001B, which XML 1.0 does not allow (XLIFF 2.0 writes it as <cp hex=\"1B\"/>)")
    }

    @Test("a comment or tag longer than libxml2 reads as one piece is refused where it starts", arguments: ["comment", "tag"])
    func hugeMarkup(kind: String) {
        let filler = String(repeating: "x", count: 10_500_000)
        let markup = kind == "comment" ? "<!--\(filler)-->" : "<note a=\"\(filler)\"/>"
        let result = Support.read(xliff(prolog: "", target: "A").replacingOccurrences(of: "<body>", with: "<body>" + markup))
        expectOneUnreadable(result, code: "XLF001", line: 5)
        let diagnostic = result.1.first
        #expect(diagnostic?.location.column == 11)
        #expect(diagnostic?.message == "XML is not well-formed: a tag, comment, processing instruction or CDATA section "
            + "longer than 10,000,000 bytes; libxml2 reads no piece of markup that long", "\(diagnostic?.message.prefix(300) ?? "")")
    }

    @Test("an empty or blank file is malformed", arguments: ["", "  \n\t", "\u{FEFF}"])
    func empty(text: String) {
        let result = Support.read(text)
        expectOneUnreadable(result, code: "XLF001")
        #expect(result.1.first?.message == "file has no XML element; an XLIFF file starts with <xliff>")
    }

    @Test("invalid UTF-8 gives one diagnostic")
    func invalidUTF8() throws {
        expectOneUnreadable(try Support.read(fixture: "invalid-utf8.xlf"), code: "XLF007", line: 7)
    }

    @Test("UTF-32 is refused")
    func utf32() {
        var bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x00]
        for scalar in "<xliff/>".unicodeScalars {
            bytes += [UInt8(scalar.value), 0, 0, 0]
        }
        expectOneUnreadable(XLIFFReader.read(bytes: bytes, path: "t.xlf"), code: "XLF007")
    }

    @Test("XML that is not XLIFF is refused at its root element")
    func notXLIFF() throws {
        let result = try Support.read(fixture: "not-xliff.xml")
        expectOneUnreadable(result, code: "XLF003", line: 2)
        #expect(result.1.first?.message == "not an XLIFF file: the root element is <resources>, not an XLIFF <xliff>")
        let wrongNamespace = Support.read("<xliff version=\"1.2\" xmlns=\"urn:example\"/>")
        expectOneUnreadable(wrongNamespace, code: "XLF003", line: 1)
    }

    @Test("XLIFF 2.2 is refused as unsupported")
    func xliff22() {
        let result = Support.read("""
            <xliff version="2.2" xmlns="urn:oasis:names:tc:xliff:document:2.2" srcLang="en" trgLang="de"><file id="f"/></xliff>
            """)
        expectOneUnreadable(result, code: "XLF004", line: 1)
    }

    @Test("a file above the size cap is refused unread")
    func tooLarge() {
        let bytes = [UInt8](repeating: 0x20, count: ContentLimits.maxXLIFFBytes + 1)
        let result = XLIFFReader.read(bytes: bytes, path: "t.xlf")
        expectOneUnreadable(result, code: "XLF006")
        #expect(result.1.first?.location.line == nil)
    }

    @Test("an unreadable file keeps the languages read before the error")
    func partialHeader() throws {
        let (file, _) = try Support.read(fixture: "truncated.xlf")
        #expect(file.version == .v1_2)
        #expect(file.targetLanguage?.value == "de-DE")
    }

    /// Belt and braces: even a caller that asked libxml2 to substitute entities and load DTDs
    /// (which msgc never does) gets nothing from disk once msgc's entity loader is installed.
    @Test("the process-wide entity loader refuses everything, whatever the parser options")
    func entityLoaderRefuses() throws {
        let secret = try Secret()
        defer { secret.remove() }
        XLIFFLibXMLSetup.ensure()
        let document = "<!DOCTYPE a [ <!ENTITY x SYSTEM \"\(secret.url.absoluteString)\"> ]><a>[&x;]</a>"
        var bytes = Array(document.utf8)
        let options = Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_DTDLOAD.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue)
        var seen = ""
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                guard let reader = xmlReaderForMemory(base, Int32(buffer.count), nil, nil, options) else { return }
                defer { xmlFreeTextReader(reader) }
                while xmlTextReaderRead(reader) == 1 {
                    if let value = xmlTextReaderConstValue(reader) { seen += String(cString: value) }
                }
            }
        }
        #expect(!seen.contains(secret.text))
    }
}
