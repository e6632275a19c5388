@testable import Diagnostics
@testable import Lint
import Model
import Testing

@Suite struct TerminalTextTests {
    /// The byte-level test that lets most text through unchanged picks exactly the scalars
    /// `isHazard` picks, alone and between other text.
    @Test func theFastTestAgreesWithIsHazardForEveryScalar() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "é"
            #expect(TerminalText.containsHazard(text) == TerminalText.isHazard(scalar), "U+\(String(value, radix: 16))")
            if TerminalText.containsHazard(text) != TerminalText.isHazard(scalar) { return }
        }
        #expect(!TerminalText.containsHazard("Stay with Premium — 50 % · 日本語 · العربية"))
        #expect(TerminalText.escaped("plain") == "plain")
    }

    @Test func messagesNeverCarryRawBidiOrControlCharacters() {
        let diagnostic = Diagnostic(
            code: "TRN001", severity: .warning, location: SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 1),
            message: "the source is now 'Stay \u{202E}with\u{1B}[2J us'")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions())
        #expect(output.contains("'Stay <U+202E>with<U+001B>[2J us'"))
        #expect(!output.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B })
    }

    @Test func githubAnnotationsNeverCarryThemEither() {
        let diagnostic = Diagnostic(
            code: "TRN001", severity: .warning, location: SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 1),
            message: "the source is now 'Stay \u{202E}with\u{1B}[2J us'",
            notes: [Note("the translation: 'Bleib\u{200B}'")], fixIts: [FixIt("write 'a\u{7}b'")])
        let output = GitHubRenderer.render([diagnostic], options: RenderOptions())
        #expect(output == "::warning file=translations/de-DE.xliff,line=1,col=1,title=TRN001::"
            + "the source is now 'Stay <U+202E>with<U+001B>[2J us'%0Anote: the translation: 'Bleib<U+200B>'%0Afix: write 'a<U+0007>b'\n")
    }

    @Test func snippetsKeepColumnsWithVisiblePlaceholders() {
        let source = SourceFile(path: "messages/a.yaml", text: "    header: \"a\u{202E}b\"\n")
        let diagnostic = Diagnostic(
            code: "TXT003", severity: .error, location: SourceLocation(path: "messages/a.yaml", line: 1, column: 15, endLine: 1, endColumn: 16),
            message: "header contains U+202E RIGHT-TO-LEFT OVERRIDE")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions(sources: ["messages/a.yaml": source]))
        #expect(output.contains(" 1 |     header: \"a\u{FFFD}b\"\n   |               ^\n"))
    }

    @Test func aVeryLongLineIsCutToAWindowAroundTheColumn() {
        // One line of 300,000 characters, as in a minified or hostile file: the snippet shows
        // 160 of them around column 200,002, and the marker still points at that column.
        let text = String(repeating: "<g>", count: 100_000)
        let source = SourceFile(path: "translations/de-DE.xliff", text: text + "\n")
        let diagnostic = Diagnostic(
            code: "XLF005", severity: .error,
            location: SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 200_002, endLine: 1, endColumn: 200_005),
            message: "elements nest deeper than 64 levels")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions(sources: ["translations/de-DE.xliff": source]))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        let shown = lines[2].dropFirst(" 1 | ".count)
        #expect(shown.unicodeScalars.count == 1 + HumanRenderer.maxSnippetScalars + 1)
        #expect(shown.hasPrefix("…") && shown.hasSuffix("…"))
        let marker = lines[3].dropFirst("   | ".count)
        #expect(marker.drop { $0 == " " } == "^~~")
        // The marked characters are the column's own: "<g>" starting at 200,002.
        let markerOffset = marker.prefix { $0 == " " }.count
        #expect(String(Array(shown)[markerOffset..<(markerOffset + 3)]) == "<g>")
    }

    @Test func aLongLineNearItsStartIsCutAtTheEndOnly() {
        let text = "header: " + String(repeating: "x", count: 400)
        let source = SourceFile(path: "messages/a.yaml", text: text + "\n")
        let diagnostic = Diagnostic(
            code: "LEN001", severity: .error, location: SourceLocation(path: "messages/a.yaml", line: 1, column: 9),
            message: "header is too long")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions(sources: ["messages/a.yaml": source]))
        #expect(output.contains(" 1 | header: " + String(repeating: "x", count: HumanRenderer.maxSnippetScalars - 8) + "…\n"))
        #expect(output.contains("   |         ^\n"))
    }
}
