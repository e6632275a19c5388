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
