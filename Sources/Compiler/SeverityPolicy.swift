import Diagnostics
import Model
import Parser
import XLIFF

/// The one place msgc decides how serious a finding is, and the exit status that follows.
///
/// Every stage reports at its rule's default severity; a command hands everything it produced
/// to `outcome(of:)` once, and only `main` turns the status into an exit code. A finding's
/// severity is settled in this order:
///
/// 1. the rule's default, as the stage reported it;
/// 2. msgc.yaml's `rules:` (`RuleSettings`): a code set `off` is dropped, one set to
///    `warning` or `error` gets that severity;
/// 3. the pseudo-locale forecast: a rule's error about a pseudo locale becomes a warning with a
///    note, after the settings, so that no setting (`TXT011: error`) turns a forecast about a
///    locale that never ships back into an error. What msgc could not read (a Parser or XLIFF
///    finding) is a fault of the file whatever its locale, and is no forecast;
/// 4. `--strict`: every warning left becomes an error, forecasts included.
///
/// What is reported becomes a `Verdict` (`verdict(of:fails:)`): a file msgc could not read is
/// an I/O failure, an error for which the command's `fails` holds (every error with `--strict`)
/// a failing finding; `Verdict.status` turns it into 2, 1 or 0.
public struct SeverityPolicy: Sendable {
    /// The project's settings (step 2).
    public var settings: RuleSettings
    /// Whether warnings fail (step 4).
    public var strict: Bool

    public init(settings: RuleSettings, strict: Bool = false) {
        self.settings = settings
        self.strict = strict
    }

    /// The same policy with `--strict` as given.
    public func strict(_ strict: Bool) -> SeverityPolicy {
        SeverityPolicy(settings: settings, strict: strict)
    }

    /// `findings`, reported at their rules' default severities, with every step applied in order.
    public func settle(_ findings: [Diagnostic]) -> [Diagnostic] {
        let configured = settings.apply(to: findings)
        let forecast = Self.forecastingPseudoLocales(configured)
        return strict ? forecast.escalatingWarnings() : forecast
    }

    /// What a command reports and the status it ends with: `findings` settled and sorted for
    /// output. An error fails the command where `fails` holds (a build fails only on errors that
    /// block it); with `--strict`, every error does.
    public func outcome(of findings: [Diagnostic], fails: (Diagnostic) -> Bool = { _ in true }) -> Outcome {
        let reported = settle(findings).sortedForOutput()
        return Outcome(reported, verdict: verdict(of: reported, fails: fails))
    }

    /// What settled findings come to: a file msgc could not read is an I/O failure; an error
    /// for which `fails` holds (any error with `--strict`) a failing finding.
    public func verdict(of settled: [Diagnostic], fails: (Diagnostic) -> Bool = { _ in true }) -> Verdict {
        var verdict = Verdict(failingFindings: settled.count { $0.severity == .error && (strict || fails($0)) })
        if settled.contains(where: { ParserDiagnostics.ioFailureCodes.contains($0.code) }) { verdict.failures.append(.io) }
        return verdict
    }

    /// Codes of what msgc could not read: step 3 leaves them as they are.
    static let readingCodes = Set((ParserDiagnostics.all + XLIFFDiagnostics.infos).map(\.code))

    /// Step 3: an error in a pseudo locale becomes a warning with a note that says it is a
    /// forecast (`--strict` still fails on it). What msgc could not read is left as it is.
    static func forecastingPseudoLocales(_ findings: [Diagnostic]) -> [Diagnostic] {
        var findings = findings
        for index in findings.indices {
            guard let locale = findings[index].subject?.locale, !readingCodes.contains(findings[index].code),
                PseudoLocale.isPseudo(locale)
            else { continue }
            if findings[index].severity == .error { findings[index].severity = .warning }
            findings[index].notes.append(
                Note("\(locale) is a pseudo locale: this forecasts what a translation may run into; pseudo locales never ship"))
        }
        return findings
    }
}
