@testable import Lint
import Model
import Testing

@Suite struct TerminalTextTests {
    @Test func messagesNeverCarryRawBidiOrControlCharacters() {
        let diagnostic = Diagnostic(
            code: "TRN001", severity: .warning, location: SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 1),
            message: "the source is now 'Stay \u{202E}with\u{1B}[2J us'")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions())
        #expect(output.contains("'Stay <U+202E>with<U+001B>[2J us'"))
        #expect(!output.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B })
    }

    @Test func snippetsKeepColumnsWithVisiblePlaceholders() {
        let source = SourceFile(path: "messages/a.yaml", text: "    header: \"a\u{202E}b\"\n")
        let diagnostic = Diagnostic(
            code: "TXT003", severity: .error, location: SourceLocation(path: "messages/a.yaml", line: 1, column: 15, endLine: 1, endColumn: 16),
            message: "header contains U+202E RIGHT-TO-LEFT OVERRIDE")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions(sources: ["messages/a.yaml": source]))
        #expect(output.contains(" 1 |     header: \"a\u{FFFD}b\"\n   |               ^\n"))
    }
}
