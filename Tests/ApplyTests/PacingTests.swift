@testable import Apply
import Bundle
import Foundation
import Model
import Synchronization
import Testing
import TestSupport

/// The pacer and what feeds it, without a server and without sleeping (the pacer's clock is the
/// test's): how requests are spaced, how a 429's wait is chosen and counted, and how
/// `--max-wait` and `Retry-After` are read.
@Suite struct PacingTests {
    static func pacer(maxWait: TimeInterval, floor: TimeInterval = 1, clock: ManualClock = ManualClock(), intervalScale: Double = 0.001) -> Pacer {
        Pacer(Pacer.Settings(
            intervals: AppleClient.intervals(.sandbox).mapValues { $0 * intervalScale }, rateLimitFloor: floor, maxWait: maxWait,
            longestWait: 3600, clock: clock.clock))
    }

    /// Whatever Retry-After says, a 429 waits the floor, doubled for each 429 in a row, and the
    /// waits add up toward --max-wait: 1 + 2 + 4 = 7 s fit in 10 s, the next 8 s do not.
    @Test func aRetryAfterInThePastStillWaitsTheDoublingFloor() throws {
        let clock = ManualClock()
        let pacer = Self.pacer(maxWait: 10, clock: clock)
        for wait in [1.0, 2, 4] {
            try pacer.rateLimited(.listMessages, retryAfter: clock.now.addingTimeInterval(-5))
            clock.advance(by: wait)
        }
        let past = clock.now.addingTimeInterval(-1)
        #expect(abs(pacer.waitedOnRateLimits - 7) < 0.1)
        #expect(throws: Pacer.Stop.self) { try pacer.rateLimited(.listMessages, retryAfter: past) }
        #expect(pacer.stopped)
        #expect(throws: Pacer.Stop.self) { try pacer.admit(.listImages) }
    }

    /// A Retry-After beyond --max-wait stops at once, naming when Apple said to come back.
    @Test func aRetryAfterBeyondMaxWaitStopsAtOnce() {
        let clock = ManualClock()
        let pacer = Self.pacer(maxWait: 600, clock: clock)
        let later = clock.now.addingTimeInterval(7200)
        do {
            try pacer.rateLimited(.uploadMessage, retryAfter: later)
            Issue.record("no stop")
        } catch .waitExceeded(let endpoint, let until, let waited) {
            #expect(endpoint == .uploadMessage)
            #expect(until.timeIntervalSince(clock.now) == 3600, "one 429 waits an hour at most")
            #expect(waited == 0)
        } catch {
            Issue.record("\(error)")
        }
    }

    /// An answer other than 429 starts the floor over; overlapping waits of two lanes count once.
    @Test func anAnswerResetsTheFloorAndOverlapsCountOnce() throws {
        let pacer = Self.pacer(maxWait: 100)
        try pacer.rateLimited(.uploadImage, retryAfter: nil)
        try pacer.rateLimited(.uploadMessage, retryAfter: nil)
        #expect(abs(pacer.waitedOnRateLimits - 1) < 0.1)
        pacer.answered(.uploadImage)
        try pacer.rateLimited(.uploadImage, retryAfter: nil)
        #expect(abs(pacer.waitedOnRateLimits - 1) < 0.2)
    }

    @Test(arguments: [("0", nil), ("-5000", nil), ("soon", nil), ("nan", nil), ("inf", nil), ("", nil)] as [(String, Double?)])
    func retryAfterThatIsNoDateIsNil(text: String, expected: Double?) {
        let now = ManualClock().now
        let date = AppleClient.retryAfter(["Retry-After": text], now: now)
        // 0 and negative numbers are dates (now, the past): the floor then holds; the rest are none.
        if let value = Double(text), value.isFinite {
            #expect(date != nil && date! <= now)
        } else {
            #expect(date == nil)
        }
    }

    @Test func retryAfterInMillisecondsOrSeconds() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let millis = try #require(AppleClient.retryAfter(["retry-after": "1800000000000"], now: now))
        #expect(millis.timeIntervalSince1970 == 1_800_000_000)
        let seconds = try #require(AppleClient.retryAfter(["Retry-After": "30"], now: now))
        #expect(seconds.timeIntervalSince(now) == 30)
    }

    /// `--max-wait` through `DurationText` (ModelTests has the grammar): seconds or units, up to a week.
    @Test(arguments: [("90s", 90_000), ("10m", 600_000), ("1h30m", 5_400_000), ("45", 45_000), ("0", 0), ("7d", 604_800_000),
                      ("8d", nil), ("7d1s", nil), ("1e9", nil), ("-5", nil)] as [(String, Int64?)])
    func maxWaitDurations(text: String, milliseconds: Int64?) {
        #expect(DurationText.milliseconds(text, in: Pace.maxWaitRange, bareNumber: .seconds) == milliseconds)
    }
}

extension PacingTests {
    /// Waits booked at one moment overlap: what is counted is how far the latest one reaches.
    @Test func waitsBookedAtOneMomentCountOnce() throws {
        let clock = ManualClock()
        let pacer = Self.pacer(maxWait: 100, clock: clock)
        var seen: [Double] = []
        for _ in 0..<3 {
            try pacer.rateLimited(.listMessages, retryAfter: nil)
            seen.append(pacer.waitedOnRateLimits)
        }
        #expect(seen == [1, 2, 4])
    }
}

extension PacingTests {
    /// Requests to one endpoint are spaced by its interval on the pacer's clock, from the first
    /// one's slot (a fixed grid), and another endpoint's are not held by them: sandbox's 10.3 s
    /// between uploads pass here without the test waiting.
    @Test func admissionsKeepEachEndpointsIntervalOnTheClock() throws {
        let clock = ManualClock()
        let pacer = Self.pacer(maxWait: 600, clock: clock, intervalScale: 1)
        let interval = try #require(AppleClient.intervals(.sandbox)[.uploadMessage])
        let start = clock.now
        for _ in 0..<3 { try pacer.admit(.uploadMessage) }
        #expect(abs(clock.now.timeIntervalSince(start) - 2 * interval) < 1e-6)
        try pacer.admit(.uploadImage)
        #expect(abs(clock.now.timeIntervalSince(start) - 2 * interval) < 1e-6, "the image lane has its own pace")
    }

    /// A 429's wait and a backoff hold the endpoint's next request until they end.
    @Test func aRateLimitAndABackoffHoldTheNextRequest() throws {
        let clock = ManualClock()
        let pacer = Self.pacer(maxWait: 600, floor: 4, clock: clock)
        let start = clock.now
        try pacer.rateLimited(.listMessages, retryAfter: nil)
        try pacer.admit(.listMessages)
        #expect(clock.now.timeIntervalSince(start) == 4)
        pacer.backOff(.listImages, by: 2.5)
        try pacer.admit(.listImages)
        #expect(clock.now.timeIntervalSince(start) == 6.5)
    }
}

/// The pacer on the machine's clock, where waits are real: on threads of their own.
@Suite(.ownThreads) struct PacerWakingTests {
    /// A lane that sleeps toward its slot wakes as soon as another stops the run, and sends
    /// nothing: here on the machine's clock, with a slot an hour away.
    @Test func aSleepingLaneWakesWhenTheRunStops() throws {
        let pacer = Pacer(Pacer.Settings(
            intervals: [:], rateLimitFloor: 3600, maxWait: 7200, longestWait: 3600, clock: .system))
        try pacer.rateLimited(.uploadImage, retryAfter: nil)
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            do throws(Pacer.Stop) { try pacer.admit(.uploadImage) } catch .stopped { stopped.signal() } catch {}
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        pacer.stop()
        #expect(stopped.wait(timeout: .now() + 10) == .success, "the lane woke and was told the run stopped")
    }
}

/// A clock a test moves by hand. A wait on it ends at once and moves it to the wait's deadline,
/// as if the time had passed: a lane's sleep toward its slot costs the test nothing.
final class ManualClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { time.withLock { $0 } }

    func advance(by seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var clock: WallClock {
        WallClock(now: { self.now }, wait: { deadline, _ in self.time.withLock { $0 = max($0, deadline) } })
    }
}

/// The pacer's margin, without a server or a clock: requests sent at the spacing msgc uses reach
/// a server that counts them in exact one-second windows with at most its limit in any window,
/// whatever their latencies, as long as latencies differ by less than the margin's slack.
@Suite struct PaceMarginTests {
    /// At the server's own rate, every window of one second holds at most `rate` arrivals when
    /// each request's latency varies by up to 25 ms (the margin leaves 30 ms at 1 and 10 a second),
    /// and exactly at the limit (no margin) the same latencies put `rate + 1` in some window.
    @Test(arguments: [1.0, 10.0])
    func arrivalsStayUnderAnExactWindowLimit(rate: Double) throws {
        let interval = try #require(AppleClient.intervals(.sandbox, uploadRate: rate)[.uploadMessage])
        #expect(abs(interval * rate - (1 + AppleClient.paceMargin)) < 1e-9)
        // A fixed, reproducible sequence of latencies between 5 and 30 ms.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let latencies = (0..<200).map { _ -> Double in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 0.005 + Double(seed >> 11) / Double(1 << 53) * 0.025
        }
        func mostInOneWindow(spacing: Double) -> Int {
            let arrivals = latencies.enumerated().map { Double($0.offset) * spacing + $0.element }.sorted()
            var most = 0
            var start = 0
            for end in arrivals.indices {
                while arrivals[end] - arrivals[start] >= 1 { start += 1 }
                most = max(most, end - start + 1)
            }
            return most
        }
        #expect(mostInOneWindow(spacing: interval) <= Int(rate))
        #expect(mostInOneWindow(spacing: 1 / rate) > Int(rate), "without the margin the same latencies overrun a window")
    }
}
