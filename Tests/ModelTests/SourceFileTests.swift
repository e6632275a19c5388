import Model
import Testing

/// Snippets show the line a location names: the line index breaks lines exactly where the
/// readers that make locations do (YAML and JSON: LF and CR LF; XML: LF, CR LF and a lone CR).
@Suite struct SourceFileTests {
    /// Every line as splitting the text by hand gives it, for both rules.
    static func expectedLines(_ text: String, lineBreaks: SourceFile.LineBreaks) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                lines.append(String(decoding: current, as: UTF8.self))
                current = []
            } else if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(String(decoding: current, as: UTF8.self))
                current = []
                index += 1
            } else if byte == 0x0D, lineBreaks == .xml {
                lines.append(String(decoding: current, as: UTF8.self))
                current = []
            } else {
                current.append(byte)
            }
            index += 1
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines
    }

    @Test(arguments: [
        "", "\n", "one", "one\n", "one\ntwo\r\nthree", "a\r\n\r\nb", "a\rb\rc", "a\rb\r\nc\nd\r", "\r\r\n\n\r",
        "no final newline, ü, 日本語 and 🎉", "é\nß\n👨‍👩‍👧\n", "x\u{2028}y\u{85}z\n",
    ])
    func linesAreThoseTheLocationsCount(text: String) {
        for lineBreaks in [SourceFile.LineBreaks.lineFeeds, .xml] {
            let file = SourceFile(path: "f", text: text, lineBreaks: lineBreaks)
            let expected = Self.expectedLines(text, lineBreaks: lineBreaks)
            #expect(file.lineCount == expected.count, "\(lineBreaks)")
            for (number, line) in expected.enumerated() { #expect(file.line(number + 1) == line, "\(lineBreaks) line \(number + 1)") }
            #expect(file.line(0) == nil)
            #expect(file.line(expected.count + 1) == nil)
        }
    }

    @Test func aLoneCarriageReturnBreaksOnlyXMLLines() {
        let text = "<a>\r  <b>x</b>\r</a>"
        #expect(SourceFile(path: "t.xliff", text: text, lineBreaks: .xml).line(2) == "  <b>x</b>")
        #expect(SourceFile(path: "m.yaml", text: text).line(2) == nil)
    }

    @Test func aByteOrderMarkIsNotPartOfTheFirstLine() {
        let file = SourceFile(path: "t.xliff", utf8: [0xEF, 0xBB, 0xBF] + Array("<a/>\nb".utf8), textStart: 3, lineBreaks: .xml)
        #expect(file.line(1) == "<a/>")
        #expect(file.line(2) == "b")
        #expect(file.text == "<a/>\nb")
    }

    /// The last of 200,000 lines is found by the index, and copies share it.
    @Test func manyLines() {
        let text = (1...200_000).map { "line \($0)" }.joined(separator: "\r")
        let file = SourceFile(path: "big.xliff", text: text, lineBreaks: .xml)
        let copy = file
        #expect(copy.line(200_000) == "line 200000")
        #expect(file.line(123_456) == "line 123456")
        #expect(file == copy)
    }
}

