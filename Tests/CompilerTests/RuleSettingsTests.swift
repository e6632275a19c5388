@testable import Compiler
import Diagnostics
import Model
import TestSupport
import Testing

/// msgc.yaml's `rules:` change severities in one place, after the checks and before `--strict`.
@Suite struct RuleSettingsTests {
    static func setting(_ code: String, _ level: RuleSetting.Level) -> RuleSetting {
        let location = SourceLocation(path: "msgc.yaml", line: 9, column: 3)
        return RuleSetting(code: Located(code, at: location), level: Located(level, at: location.moved(line: 9, column: 11)))
    }

    static func finding(_ code: String, _ severity: Severity) -> Diagnostic {
        Diagnostic(code: code, severity: severity, location: SourceLocation(path: "messages/a.yaml", line: 1, column: 1), message: code)
    }

    @Test func offDropsAndLevelsChangeSeverity() {
        let settings = RuleSettings(
            [Self.setting("LEN002", .off), Self.setting("translation-identical-to-source", .error), Self.setting("TXT012", .warning)],
            codes: Codes.all)
        #expect(settings.diagnostics.isEmpty)
        let settled = settings.apply(to: [
            Self.finding("LEN002", .warning), Self.finding("TXT011", .warning), Self.finding("TXT012", .error),
            Self.finding("LEN001", .error),
        ])
        #expect(settled.map(\.code) == ["TXT011", "TXT012", "LEN001"])
        #expect(settled.map(\.severity) == [.error, .warning, .error])
    }

    @Test func unknownCodesAndLockedErrorsAreReportedAndIgnored() {
        let settings = RuleSettings([Self.setting("LEN02", .off), Self.setting("LEN001", .warning)], codes: Codes.all)
        #expect(settings.diagnostics.map(\.code) == ["CFG009", "CFG010"])
        #expect(settings.diagnostics[0].fixIts.first?.message == "did you mean 'LEN002'?")
        #expect(settings.levels.isEmpty)
        #expect(settings.apply(to: [Self.finding("LEN001", .error)]).map(\.severity) == [.error])
    }

    @Test func aTreeWithSettingsCompilesWithThem() throws {
        let tree = try TemporaryTree([
            "msgc.yaml": TemporaryTree.config + "rules:\n  TXT011: error\n  field-near-limit: off\n",
        ])
        let compilation = Compilation.compile(root: tree.root)
        #expect(!compilation.diagnostics.contains { $0.code == "CFG009" || $0.code == "CFG010" })
        #expect(compilation.settings.levels == ["TXT011": .error, "LEN002": .off])
    }
}
