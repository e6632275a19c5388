import Synchronization

/// The snapshot being served, swapped whole.
///
/// A request takes the current `ServedSnapshot` once, under the lock, and answers from that
/// value; a reload builds the next one outside the lock and only swaps the reference in. The
/// lock is held for a copy of a few references, so neither side waits on the other's work.
final class ResponderSlot: Sendable {
    private let current: Mutex<ServedSnapshot>

    init(_ initial: ServedSnapshot) {
        current = Mutex(initial)
    }

    var served: ServedSnapshot {
        current.withLock { $0 }
    }

    func swap(_ next: ServedSnapshot) {
        current.withLock { $0 = next }
    }
}
