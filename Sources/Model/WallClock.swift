import Foundation

/// The time of day and the waits measured by it, as one value: the command line makes
/// `.system` once and passes it down to whatever dates or paces something (apply's pacer, its
/// client's tokens and `Retry-After`, the performance test's deadline; the realtime server's
/// handler). A test passes a clock it moves itself, so that waits and dates can be checked
/// without waiting.
///
/// Waits block the calling thread, as the apply side's lanes do; the server side only reads
/// `now`.
public struct WallClock: Sendable {
    /// The time now.
    public let now: @Sendable () -> Date
    private let waitUntil: @Sendable (_ deadline: Date, _ condition: NSCondition) -> Void

    /// A clock that reads `now`, and whose `wait` blocks as `wait` does: until the deadline by
    /// `now`, or until the condition is signalled, whichever comes first.
    public init(now: @escaping @Sendable () -> Date, wait: @escaping @Sendable (_ deadline: Date, _ condition: NSCondition) -> Void) {
        self.now = now
        waitUntil = wait
    }

    /// The machine's clock: waits are real.
    public static let system = WallClock(now: { Date() }, wait: { deadline, condition in _ = condition.wait(until: deadline) })

    /// Blocks the calling thread, which holds `condition`'s lock, until `deadline` by this clock
    /// or until `condition` is signalled. It may return early: the caller checks again.
    public func wait(until deadline: Date, on condition: NSCondition) {
        waitUntil(deadline, condition)
    }
}
