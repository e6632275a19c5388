import Foundation
import Model
import Synchronization

/// The one gate every request to Apple passes, whatever lane sends it: it spaces each
/// endpoint's requests by that endpoint's limit, makes a 429 wait at least a floor whatever its
/// `Retry-After` says, and keeps the time spent waiting on 429s within `--max-wait`.
///
/// So no loop in apply or state fetch can ask one endpoint more often than its pace allows,
/// whatever the server answers: a `Retry-After` already past (a client clock ahead of Apple's),
/// zero, negative or not a number still waits the floor, and each further 429 in a row doubles
/// it. Slots are booked on a fixed grid (`next` moves by one interval per request, not from the
/// moment an answer came), so a lane that keeps pace loses nothing to the time its requests take.
///
/// Waits are interruptible: when one lane stops the run (a 429 beyond `--max-wait`, a changed
/// bundle), every lane that sleeps here wakes at once and sends nothing more.
final class Pacer: Sendable {
    struct Settings: Sendable {
        /// Seconds between two requests to each endpoint.
        var intervals: [AppleClient.Endpoint: TimeInterval]
        /// The least one 429 waits; doubled for each further 429 in a row at that endpoint.
        var rateLimitFloor: TimeInterval
        /// The most the run waits on 429s in all (overlapping waits of two lanes count once).
        var maxWait: TimeInterval
        /// The longest one 429 is waited for: Apple's budgets are per hour.
        var longestWait: TimeInterval
        /// The time now and the waits for it: the command line's, or a test's that moves by hand.
        var clock: WallClock
    }

    /// Why a lane must not send: the run stopped.
    enum Stop: Error, Sendable {
        /// A 429 whose wait lies beyond `--max-wait`: Apple said to come back at `until`.
        case waitExceeded(endpoint: AppleClient.Endpoint, until: Date, waited: TimeInterval)
        /// Another lane stopped the run.
        case stopped
    }

    let settings: Settings
    private let state = Mutex(State())
    /// Wakes the lanes that wait here (`sleep(until:)`, `wait(while:)`) when the run stops or
    /// what they wait for changes. A lane checks what it waits for while it holds this lock, and
    /// every change is made before the lock is taken to broadcast it, so no wake-up is lost.
    private let doorbell = NSCondition()

    private struct State {
        var next: [AppleClient.Endpoint: Date] = [:]
        var rateLimitedInARow: [AppleClient.Endpoint: Int] = [:]
        /// Time waited on 429s so far, and up to when it is counted (waits overlap across lanes).
        var waited: TimeInterval = 0
        var countedUntil = Date.distantPast
        var isStopped = false
    }

    init(_ settings: Settings) {
        self.settings = settings
    }

    var clock: WallClock { settings.clock }

    /// Waits for `endpoint`'s next slot, and books it.
    func admit(_ endpoint: AppleClient.Endpoint) throws(Stop) {
        let slot = state.withLock { state in
            let now = clock.now()
            let slot = max(now, state.next[endpoint] ?? now)
            state.next[endpoint] = slot.addingTimeInterval(settings.intervals[endpoint] ?? 1)
            return slot
        }
        try sleep(until: slot)
    }

    /// A 429 from `endpoint`: its next request waits until `retryAfter`, at least the floor
    /// (doubled for each 429 in a row), at most an hour. Throws when that lies beyond what
    /// `--max-wait` leaves, and stops the run then: no lane sleeps toward a time it would not keep.
    func rateLimited(_ endpoint: AppleClient.Endpoint, retryAfter: Date?) throws(Stop) {
        let exceeded: Stop? = state.withLock { state in
            let now = clock.now()
            let inARow = (state.rateLimitedInARow[endpoint] ?? 0) + 1
            state.rateLimitedInARow[endpoint] = inARow
            let floor = settings.rateLimitFloor * Double(1 << min(inARow - 1, 6))
            let until = min(max(retryAfter ?? now, now.addingTimeInterval(floor)), now.addingTimeInterval(settings.longestWait))
            let added = until.timeIntervalSince(max(now, state.countedUntil))
            if added > 0, state.waited + added > settings.maxWait {
                state.isStopped = true
                return .waitExceeded(endpoint: endpoint, until: until, waited: state.waited)
            }
            if added > 0 {
                state.waited += added
                state.countedUntil = until
            }
            state.next[endpoint] = max(state.next[endpoint] ?? until, until)
            return nil
        }
        if let exceeded {
            ring()
            throw exceeded
        }
    }

    /// An answer other than 429 from `endpoint`: the floor starts over.
    func answered(_ endpoint: AppleClient.Endpoint) {
        state.withLock { $0.rateLimitedInARow[endpoint] = nil }
    }

    /// After a 5xx or a dropped connection: `endpoint`'s next request waits `delay` at least.
    func backOff(_ endpoint: AppleClient.Endpoint, by delay: TimeInterval) {
        state.withLock { state in
            let until = clock.now().addingTimeInterval(delay)
            state.next[endpoint] = max(state.next[endpoint] ?? until, until)
        }
    }

    /// Stops the run: every lane's wait ends now, and no request is admitted after.
    func stop() {
        state.withLock { $0.isStopped = true }
        ring()
    }

    var stopped: Bool {
        state.withLock { $0.isStopped }
    }

    /// Time waited on 429s so far.
    var waitedOnRateLimits: TimeInterval {
        state.withLock { $0.waited }
    }

    /// Sleeps until `date` by the clock, or until the run stops (then throws).
    func sleep(until date: Date) throws(Stop) {
        doorbell.lock()
        defer { doorbell.unlock() }
        while !stopped && clock.now() < date {
            clock.wait(until: date, on: doorbell)
        }
        if stopped { throw .stopped }
    }

    /// Wakes every lane waiting in `wait(while:)`: something they wait for changed.
    func signal() {
        ring()
    }

    /// Waits while `blocked()` holds (checked after each `signal`), or until the run stops (then
    /// throws).
    func wait(while blocked: () -> Bool) throws(Stop) {
        doorbell.lock()
        defer { doorbell.unlock() }
        while !stopped && blocked() {
            doorbell.wait()
        }
        if stopped { throw .stopped }
    }

    private func ring() {
        doorbell.lock()
        doorbell.broadcast()
        doorbell.unlock()
    }
}
