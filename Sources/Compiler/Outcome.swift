import Diagnostics
import Model

/// How a command ends: what it reports, severities final, and its status, which `main` alone
/// turns into the exit code.
///
/// An outcome with findings comes from `SeverityPolicy.outcome(of:fails:)`, which decides both;
/// a command that reports no findings (diff, apply, a write that failed) ends with a status of
/// its own.
public struct Outcome: Sendable {
    /// msgc's exit statuses (`ExitStatus`), the same for every command.
    public typealias Status = ExitStatus

    /// What the command reports, severities final.
    public private(set) var diagnostics: [Diagnostic]
    public private(set) var status: Status

    init(_ diagnostics: [Diagnostic], status: Status) {
        self.diagnostics = diagnostics
        self.status = status
    }

    /// An outcome without findings.
    public init(status: Status) {
        self.init([], status: status)
    }

    public static let success = Outcome(status: .success)

    /// Raises the status to `status` unless a more serious one is already set.
    public mutating func raise(to status: Status) {
        self.status = max(self.status, status)
    }

    /// A summary line for the end of human output: "2 errors, 1 warning".
    public var summary: String { DiagnosticSummary.line(for: diagnostics) }
}
