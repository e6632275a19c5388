/// Why a call to the experiment store did not do what it asked, typed so that the server can
/// tell a usage mistake (stop at start-up) from a store that is slow or down (count the loss,
/// answer anyway) and from data the store refused.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store URL, its path or the subject key is wrong: a usage error, said as such.
    case usage(String)
    /// The call's deadline passed first. The work, if it had started, finishes on the
    /// connection's thread and its result is dropped; if it had not, it is dropped unstarted.
    case timedOut
    /// The store cannot be reached, opened or locked now (PostgreSQL down or restarting, a
    /// SQLite file locked past the busy timeout, a full disk): worth trying again later.
    case unavailable(String)
    /// The database was migrated by a newer msgc, whose schema this one does not know.
    case schemaTooNew(found: Int, known: Int)
    /// The database refused a statement for a reason trying again will not change.
    case failed(String)
    /// The store was closed before the call reached it.
    case closed

    public var description: String {
        switch self {
        case .usage(let message): message
        case .timedOut: "the experiment store did not answer before the deadline"
        case .unavailable(let message): "the experiment store is unavailable: \(message)"
        case .schemaTooNew(let found, let known):
            "the experiment store has schema version \(found), newer than the \(known) this msgc knows; use the msgc that migrated it, or a newer one"
        case .failed(let message): "the experiment store refused a statement: \(message)"
        case .closed: "the experiment store is closed"
        }
    }
}
