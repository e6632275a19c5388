import Diagnostics
import Model
import Parser

/// How a command ends: the diagnostics it reports, with their final severities, and the exit
/// status they give.
///
/// A finding's severity is decided in this order and nowhere else: the rule's default, then
/// msgc.yaml's `rules:`, then the pseudo-locale forecast (both in `Compilation.settle`), then
/// `--strict`, applied here. The exit status follows from what is reported: a file msgc could
/// not read is status 2, an error status 1, and a command may raise the status for what it
/// found itself (a bundle it could not write, a review that is still pending).
public struct Outcome: Sendable {
    /// msgc's exit statuses (`ExitStatus`), the same for every command.
    public typealias Status = ExitStatus

    /// What the command reports, severities final.
    public private(set) var diagnostics: [Diagnostic]
    public private(set) var status: Status

    /// The outcome of reporting `diagnostics`: warnings become errors with `strict`, and any
    /// error for which `fails` holds gives status 1 (a build fails only on errors that block it;
    /// with `strict`, every error counts).
    public init(_ diagnostics: [Diagnostic], strict: Bool, fails: (Diagnostic) -> Bool = { _ in true }) {
        self.diagnostics = strict ? diagnostics.escalatingWarnings() : diagnostics
        if diagnostics.contains(where: { ParserDiagnostics.ioFailureCodes.contains($0.code) }) {
            status = .failure
        } else if self.diagnostics.contains(where: { $0.severity == .error && (strict || fails($0)) }) {
            status = .findings
        } else {
            status = .success
        }
    }

    /// A build's outcome: errors in message sources and the configuration fail it, errors in
    /// translations only leave their messages out (`ReleasePlan`), unless `strict`.
    public static func build(_ diagnostics: [Diagnostic], strict: Bool, sourceLocale: String?) -> Outcome {
        Outcome(diagnostics, strict: strict) { ReleasePlan.blocksBuild($0, sourceLocale: sourceLocale) }
    }

    /// Raises the status to `status` unless a more serious one is already set.
    public mutating func raise(to status: Status) {
        self.status = max(self.status, status)
    }

    /// A summary line for the end of human output: "2 errors, 1 warning".
    public var summary: String { DiagnosticSummary.line(for: diagnostics) }
}
