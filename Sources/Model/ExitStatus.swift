/// msgc's exit statuses, the same for every command.
public enum ExitStatus: Int32, Sendable, Comparable {
    /// Nothing wrong, or only warnings without `--strict`.
    case success = 0
    /// Errors (warnings too with `--strict`), or content Apple refused.
    case findings = 1
    /// A usage mistake, an I/O failure, a bundle that fails its checks, refused credentials.
    case failure = 2
    /// Applied what could be applied; the rest waits for Apple's review.
    case waiting = 3

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    /// Which status wins when several apply: a failure over everything, then findings, then waiting.
    private var rank: Int {
        switch self {
        case .success: 0
        case .waiting: 1
        case .findings: 2
        case .failure: 3
        }
    }
}

/// Why a command stopped short of its job for a reason that is not a finding. A command says
/// which; `Verdict.status` alone says what status it ends with.
public enum CommandFailure: Sendable, Hashable {
    /// A usage mistake: an option or input given that cannot be used, refused credentials.
    case usage
    /// An I/O failure: a file that cannot be read or written, a service that does not answer
    /// or answers what msgc cannot read, a bundle that fails its checks.
    case io
    /// A wait ran out (`--max-wait`): run again to carry on.
    case waitExceeded
    /// The language server was ended by `exit` without `shutdown` first, or its input ended:
    /// LSP asks for exit code 1.
    case exitWithoutShutdown
}

/// What a command's job came to, in the terms its exit status is decided on: findings that fail
/// it (errors after the severity policy, content Apple refused, a difference `--exit-code`
/// asked about), what waits for Apple's review, and why it stopped short, if it did.
///
/// `status` is the one place msgc chooses an exit status; `main` of each executable only exits
/// with it.
public struct Verdict: Sendable, Equatable {
    /// Findings that fail the command.
    public var failingFindings: Int
    /// What was left for Apple's review (apply in production).
    public var awaitingReview: Int
    /// Why the command stopped short of its job.
    public var failures: [CommandFailure]

    public init(failingFindings: Int = 0, awaitingReview: Int = 0, failures: [CommandFailure] = []) {
        self.failingFindings = failingFindings
        self.awaitingReview = awaitingReview
        self.failures = failures
    }

    public static let success = Verdict()

    /// A job stopped short for `failure`.
    public init(_ failure: CommandFailure) { self.init(failures: [failure]) }

    /// Both verdicts at once.
    public func merged(with other: Verdict) -> Verdict {
        Verdict(
            failingFindings: failingFindings + other.failingFindings, awaitingReview: awaitingReview + other.awaitingReview,
            failures: failures + other.failures)
    }

    /// The exit status: the most serious of what applies (`ExitStatus`'s order): 2 a usage or
    /// I/O failure; 1 findings that fail the command (and LSP's exit without shutdown); 3 a wait
    /// that ran out, or uploads waiting for review; else 0.
    public var status: ExitStatus {
        var status = ExitStatus.success
        if awaitingReview > 0 { status = max(status, .waiting) }
        if failingFindings > 0 { status = max(status, .findings) }
        for failure in failures {
            switch failure {
            case .usage, .io: status = max(status, .failure)
            case .waitExceeded: status = max(status, .waiting)
            case .exitWithoutShutdown: status = max(status, .findings)
            }
        }
        return status
    }
}
