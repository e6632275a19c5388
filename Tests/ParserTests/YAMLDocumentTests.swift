@testable import Parser
import Testing

/// YAMLDocument's byte-wise line split must give the lines editors show: split at every line
/// feed, a carriage return just before one being part of the line break.
@Suite struct YAMLDocumentTests {
    @Test(arguments: [
        "", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "a\r\nb\nc", "\r\n\r\n", "a\r\n", "\r", "\n\u{301}x", "é\nß\n👨‍👩‍👧\n",
        "key: \"value\"\r\n  - x\n\r\n", "a\rb\r\n", "a\u{2028}b\u{85}c\n",
    ])
    func linesAreTheLineFeedSplit(text: String) {
        let split = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = split.enumerated().map { number, line in
            String(number < split.count - 1 && line.last == "\r" ? line.dropLast() : line[...])
        }
        #expect(YAMLDocument.lines(of: text).map(String.init) == expected)
    }

    @Test(arguments: [
        ("\"Stay\" # note", "\"Stay\""), ("abc", "abc"), ("abc", "abcd"), ("", ""), ("e\u{301}x", "e"), ("\u{E9}", "e\u{301}"),
        ("a\r\nb", "a\r"), ("\"x\"\u{301}", "\"x\""), ("🎉 ok", "🎉"), ("'it''s'", "'it'"), ("\u{600}a", "\u{600}"), ("ab", ""),
    ])
    func prefixIsDecidedAsCharactersDecideIt(text: String, prefix: String) {
        #expect(YAMLDocument.hasPrefix(Substring(text), prefix) == Substring(text).hasPrefix(prefix))
        // The rest of a line, as `located` asks: a slice that starts inside the string.
        let line = "key: " + text
        let rest = line.dropFirst(5)
        #expect(YAMLDocument.hasPrefix(rest, prefix) == rest.hasPrefix(prefix))
    }
}
