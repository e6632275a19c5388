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
}
