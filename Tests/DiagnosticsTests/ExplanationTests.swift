import Compiler
@testable import Diagnostics
import Testing

@Suite struct ExplanationTests {
    /// Every name in the list is whole, so it can be copied back into `msgc explain NAME`.
    @Test func catalogShowsEveryNameInFull() {
        let lines = Explanation.catalog(Codes.all).split(separator: "\n").map(String.init)
        #expect(lines.count == Codes.all.count)
        for (line, info) in zip(lines, Codes.all) {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(columns.count > 3, "\(line)")
            guard columns.count > 3 else { continue }
            #expect(columns[0] == info.code)
            #expect(String(columns[2]) == info.name, "\(line)")
            #expect(Codes.info(for: String(columns[2]))?.code == info.code)
        }
        #expect(lines.contains { $0.contains(" translation-below-minimum-state ") })
    }

    @Test func catalogAlignsTheSummaries() {
        let infos = [
            RuleInfo(code: "AAA001", name: "short", severity: .error, summary: "First.", rationale: "Why."),
            RuleInfo(code: "AAA002", name: "a-much-longer-rule-name-than-thirty", severity: .warning, summary: "Second.", rationale: "Why."),
        ]
        #expect(Explanation.catalog(infos) == """
            AAA001  error    short                                First.
            AAA002  warning  a-much-longer-rule-name-than-thirty  Second.

            """)
    }
}
