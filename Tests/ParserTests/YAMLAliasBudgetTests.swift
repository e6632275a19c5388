import Diagnostics
import Model
@testable import Parser
import Testing

/// YAML anchors and aliases: shared values work, alias bombs are refused before Yams composes
/// (and hashes) them.
@Suite struct YAMLAliasBudgetTests {
    func parse(_ text: String) -> ([Message], [Diagnostic]) {
        let (messages, _, diagnostics) = MessageSourceParser.parse(bytes: Array(text.utf8), path: "messages/a.yaml")
        return (messages, diagnostics)
    }

    /// Nine levels of ten aliases: a billion nodes in under 400 bytes.
    static func bomb(levels: Int = 9) -> String {
        var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...levels {
            let previous = "*a\(level - 1)"
            lines.append("a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n")
    }

    @Test func aBillionLaughsBombIsRefusedAtTheAliasThatCrossesTheLimit() {
        let (messages, diagnostics) = parse("bombs:\n" + Self.bomb().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            + "\nmessages: []\n")
        #expect(messages.isEmpty)
        #expect(diagnostics.map(\.code) == ["PRS009"])
        let diagnostic = diagnostics.first
        // Levels 1 to 3 alias 12,330 nodes; a4's eighth alias of *a3 (11,111 nodes each) crosses 100,000.
        #expect(diagnostic?.location.line == 6)
        #expect(diagnostic?.location.column == 12 + 5 * 7)
        #expect(diagnostic?.message.contains("'*a3' goes over the limit") == true)
        #expect(diagnostic?.location.endColumn.map { $0 - (diagnostic?.location.column ?? 0) } == 3)
    }

    @Test func aBombUsedAsAMappingKeyIsRefusedBeforeYamsHashesIt() {
        // Yams hashes every key to find duplicates; hashing this key would visit 10^9 nodes.
        let text = Self.bomb() + "\n? *a9\n: boom\n"
        let (_, diagnostics) = parse(text)
        #expect(diagnostics.map(\.code) == ["PRS009"])
    }

    @Test func sharedValuesThroughAliasesStillWork() {
        let text = """
            messages:
              - key: winback
                product: com.example.app.yearly
                type: text
                default: true
                header: &header Stay with Premium
                body: Keep reading.
                bullets: &bullets
                  - { text: Unlimited articles, image: images/check.png, alt: Check mark }
              - key: winback-2
                product: com.example.app.monthly
                type: text
                default: true
                header: *header
                body: Keep reading.
                bullets: *bullets
            """
        let (messages, diagnostics) = parse(text)
        #expect(diagnostics.isEmpty)
        #expect(messages.map(\.header?.value) == ["Stay with Premium", "Stay with Premium"])
        #expect(messages.map(\.bullets.count) == [1, 1])
    }

    @Test func theBudgetCountsAliasedNodesOnly() {
        // 2,000 scalars written out and 2,000 aliases to one scalar: 2,000 aliased nodes.
        let written = (0..<2_000).map { "v\($0)" }.joined(separator: ", ")
        let aliases = Array(repeating: "*one", count: 2_000).joined(separator: ", ")
        #expect(YAMLAliasBudget.firstOverrun(in: "one: &one x\nwritten: [\(written)]\naliased: [\(aliases)]\n") == nil)
        #expect(YAMLAliasBudget.firstOverrun(in: "one: &one x\naliased: [\(aliases)]\n", limit: 1_999)
            == .init(line: 2, column: 11 + 6 * 1_999, aliasName: "one"))
    }

    @Test func textLibyamlCannotParseIsLeftToYamsToReport() {
        #expect(YAMLAliasBudget.firstOverrun(in: "a: *undefined\nb: [unclosed\n") == nil)
        let (_, diagnostics) = parse("messages: *undefined\n")
        #expect(diagnostics.map(\.code) == ["PRS001"])
    }
}
