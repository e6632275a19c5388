@testable import Parser
import Testing

/// YAMLDocument's byte-wise line split must give the lines `split(separator: "\n")` gives.
@Suite struct YAMLDocumentTests {
    @Test(arguments: [
        "", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "a\r\nb\nc", "\r\n\r\n", "a\r\n", "\r", "\n\u{301}x", "é\nß\n👨‍👩‍👧\n",
        "key: \"value\"\r\n  - x\n\r\n",
    ])
    func linesAreTheCharacterSplit(text: String) {
        #expect(YAMLDocument.lines(of: text) == text.split(separator: "\n", omittingEmptySubsequences: false))
    }

    @Test(arguments: [
        ("\"Stay\" # note", "\"Stay\""), ("abc", "abc"), ("abc", "abcd"), ("", ""), ("e\u{301}x", "e"), ("\u{E9}", "e\u{301}"),
        ("a\r\nb", "a\r"), ("\"x\"\u{301}", "\"x\""), ("🎉 ok", "🎉"), ("'it''s'", "'it'"), ("\u{600}a", "\u{600}"), ("ab", ""),
    ])
    func prefixIsDecidedAsCharactersDecideIt(text: String, prefix: String) {
        #expect(YAMLDocument.hasPrefix(Substring(text), prefix) == Substring(text).hasPrefix(prefix))
    }
}
