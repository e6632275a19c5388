import Diagnostics
import Model

/// How a command ends: what it reports, severities final, and what its job came to (`Verdict`),
/// from which its status follows. `Verdict.status` alone chooses the status; `main` only exits
/// with it.
///
/// An outcome with findings comes from `SeverityPolicy.outcome(of:fails:)`, which settles the
/// findings and counts those that fail the command; a command that reports no findings (diff,
/// apply, a write that failed) ends with a verdict of its own: typed failures, refusals by Apple,
/// what waits for review. A thrown `Refusal` is only ever a usage or I/O failure.
public struct Outcome: Sendable {
    /// msgc's exit statuses (`ExitStatus`), the same for every command.
    public typealias Status = ExitStatus

    /// What the command reports, severities final.
    public private(set) var diagnostics: [Diagnostic]
    /// What the command's job came to.
    public private(set) var verdict: Verdict

    init(_ diagnostics: [Diagnostic], verdict: Verdict) {
        self.diagnostics = diagnostics
        self.verdict = verdict
    }

    /// An outcome without findings to report.
    public init(_ verdict: Verdict) {
        self.init([], verdict: verdict)
    }

    /// A job that stopped short for `failure`.
    public init(_ failure: CommandFailure) {
        self.init(Verdict(failure))
    }

    public static let success = Outcome(Verdict.success)

    /// The exit status, as the one policy (`Verdict.status`) decides it.
    public var status: Status { verdict.status }

    /// Adds a failure to what the job came to.
    public mutating func add(_ failure: CommandFailure) {
        verdict.failures.append(failure)
    }

    /// A summary line for the end of human output: "2 errors, 1 warning".
    public var summary: String { DiagnosticSummary.line(for: diagnostics) }
}
