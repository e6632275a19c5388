@testable import Compiler
import Diagnostics
import Foundation
import Model
import Parser
import TestSupport
import XLIFF
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
        #expect(compilation.policy.settings.levels == ["TXT011": .error, "LEN002": .off])
    }

    /// The order of the severity policy, for every combination that matters: a rule's default
    /// (warning or error), a setting (none, off, warning, error), a real or a pseudo locale, and
    /// `--strict`. A setting never turns a pseudo locale's forecast back into an error; only
    /// `--strict` fails on it, as on every warning.
    @Test(arguments: [Severity.warning, .error], [RuleSetting.Level?.none, .off, .warning, .error])
    func severityIsSettledInOneOrder(defaultSeverity: Severity, level: RuleSetting.Level?) {
        // TXT011 may be lowered and raised; the test gives it each default severity in turn.
        let settings = RuleSettings(level.map { [Self.setting("TXT011", $0)] } ?? [], codes: Codes.all)
        #expect(settings.diagnostics.isEmpty)
        for locale in ["de-DE", "en-XA"] {
            var finding = Self.finding("TXT011", defaultSeverity)
            finding.subject = Subject(product: "p", key: "k", locale: locale)
            for strict in [false, true] {
                let policy = SeverityPolicy(settings: settings, strict: strict)
                let outcome = policy.outcome(of: [finding])
                if level == .off {
                    #expect(outcome.diagnostics.isEmpty)
                    #expect(outcome.status == .success)
                    continue
                }
                let configured = level.map { $0 == .error ? Severity.error : .warning } ?? defaultSeverity
                let settled: Severity = locale == "en-XA" ? .warning : configured
                let context = "\(defaultSeverity) \(String(describing: level)) \(locale) strict: \(strict)"
                #expect(outcome.diagnostics.map(\.severity) == [strict ? .error : settled], "\(context)")
                #expect(outcome.diagnostics[0].notes.contains { $0.message.contains("pseudo locale") } == (locale == "en-XA"), "\(context)")
                #expect(outcome.status == (strict || settled == .error ? .findings : .success), "\(context)")
                // A build fails only on errors that block it; with --strict, on every error.
                let build = policy.outcome(of: [finding]) { _ in false }
                #expect(build.status == (strict ? .findings : .success), "\(context)")
            }
        }
    }

    /// What msgc could not read in a pseudo locale's file is a fault of the file, not a
    /// forecast: it stays an error, and a file it could not read at all is exit status 2.
    @Test func readingFindingsAreNoForecast() {
        let policy = SeverityPolicy(settings: RuleSettings([], codes: Codes.all))
        var unreadable = Self.finding(XLIFFDiagnostics.missingTargetLanguage.code, .error)
        unreadable.subject = Subject(product: "p", key: "k", locale: "en-XA")
        let outcome = policy.outcome(of: [unreadable])
        #expect(outcome.diagnostics.map(\.severity) == [.error])
        #expect(outcome.diagnostics[0].notes.isEmpty)
        #expect(outcome.status == .findings)
        let io = Self.finding(ParserDiagnostics.ioFailureCodes.sorted()[0], .error)
        #expect(policy.outcome(of: [io, unreadable]).status == .failure)
    }

    /// A compilation keeps its findings at their default severities, and its diagnostics are
    /// those findings under the project's policy: a command settles the findings once.
    @Test func aCompilationKeepsItsFindingsUnsettled() throws {
        let tree = try TemporaryTree([
            "msgc.yaml": TemporaryTree.config + "rules:\n  LEN01: off\n",
        ])
        let compilation = Compilation.compile(root: tree.root)
        #expect(compilation.root.standardizedFileURL == tree.root.standardizedFileURL)
        #expect(compilation.diagnostics == compilation.policy.settle(compilation.findings).sortedForOutput())
        #expect(compilation.diagnostics.contains { $0.code == "CFG009" })
    }
}
