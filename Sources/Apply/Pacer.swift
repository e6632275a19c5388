import Foundation

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
final class Pacer: @unchecked Sendable {
    struct Settings: Sendable {
        /// Seconds between two requests to each endpoint.
        var intervals: [AppleClient.Endpoint: TimeInterval]
        /// The least one 429 waits; doubled for each further 429 in a row at that endpoint.
        var rateLimitFloor: TimeInterval
        /// The most the run waits on 429s in all (overlapping waits of two lanes count once).
        var maxWait: TimeInterval
        /// The longest one 429 is waited for: Apple's budgets are per hour.
        var longestWait: TimeInterval
    }

    /// Why a lane must not send: the run stopped.
    enum Stop: Error, Sendable {
        /// A 429 whose wait lies beyond `--max-wait`: Apple said to come back at `until`.
        case waitExceeded(endpoint: AppleClient.Endpoint, until: Date, waited: TimeInterval)
        /// Another lane stopped the run.
        case stopped
    }

    let settings: Settings
    private let condition = NSCondition()
    private var next: [AppleClient.Endpoint: Date] = [:]
    private var rateLimitedInARow: [AppleClient.Endpoint: Int] = [:]
    /// Time waited on 429s so far, and up to when it is counted (waits overlap across lanes).
    private var waited: TimeInterval = 0
    private var countedUntil = Date.distantPast
    private var isStopped = false

    /// The time now; a test gives its own clock to count waits without sleeping.
    private let clock: @Sendable () -> Date

    init(_ settings: Settings, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.clock = clock
    }

    /// Waits for `endpoint`'s next slot, and books it.
    func admit(_ endpoint: AppleClient.Endpoint) throws(Stop) {
        condition.lock()
        let now = Date()
        let slot = max(now, next[endpoint] ?? now)
        next[endpoint] = slot.addingTimeInterval(settings.intervals[endpoint] ?? 1)
        condition.unlock()
        try sleep(until: slot)
    }

    /// A 429 from `endpoint`: its next request waits until `retryAfter`, at least the floor
    /// (doubled for each 429 in a row), at most an hour. Throws when that lies beyond what
    /// `--max-wait` leaves, and stops the run then: no lane sleeps toward a time it would not keep.
    func rateLimited(_ endpoint: AppleClient.Endpoint, retryAfter: Date?) throws(Stop) {
        condition.lock()
        defer { condition.unlock() }
        let now = clock()
        let inARow = (rateLimitedInARow[endpoint] ?? 0) + 1
        rateLimitedInARow[endpoint] = inARow
        let floor = settings.rateLimitFloor * Double(1 << min(inARow - 1, 6))
        let until = min(max(retryAfter ?? now, now.addingTimeInterval(floor)), now.addingTimeInterval(settings.longestWait))
        let added = until.timeIntervalSince(max(now, countedUntil))
        if added > 0, waited + added > settings.maxWait {
            isStopped = true
            condition.broadcast()
            throw .waitExceeded(endpoint: endpoint, until: until, waited: waited)
        }
        if added > 0 {
            waited += added
            countedUntil = until
        }
        next[endpoint] = max(next[endpoint] ?? until, until)
    }

    /// An answer other than 429 from `endpoint`: the floor starts over.
    func answered(_ endpoint: AppleClient.Endpoint) {
        condition.lock()
        rateLimitedInARow[endpoint] = nil
        condition.unlock()
    }

    /// After a 5xx or a dropped connection: `endpoint`'s next request waits `delay` at least.
    func backOff(_ endpoint: AppleClient.Endpoint, by delay: TimeInterval) {
        condition.lock()
        let until = Date().addingTimeInterval(delay)
        next[endpoint] = max(next[endpoint] ?? until, until)
        condition.unlock()
    }

    /// Stops the run: every lane's wait ends now, and no request is admitted after.
    func stop() {
        condition.lock()
        isStopped = true
        condition.broadcast()
        condition.unlock()
    }

    var stopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isStopped
    }

    /// Time waited on 429s so far.
    var waitedOnRateLimits: TimeInterval {
        condition.lock()
        defer { condition.unlock() }
        return waited
    }

    /// Sleeps until `date`, or until the run stops (then throws).
    func sleep(until date: Date) throws(Stop) {
        condition.lock()
        defer { condition.unlock() }
        while !isStopped && Date() < date {
            _ = condition.wait(until: date)
        }
        if isStopped { throw .stopped }
    }

    /// Wakes every lane waiting in `wait(while:)`: something they wait for changed.
    func signal() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits while `blocked()` holds (checked under the pacer's lock, after each `signal`), or
    /// until the run stops (then throws).
    func wait(while blocked: () -> Bool) throws(Stop) {
        condition.lock()
        defer { condition.unlock() }
        while !isStopped && blocked() {
            condition.wait()
        }
        if isStopped { throw .stopped }
    }
}
