import Bundle
import Foundation
import Model

/// How fast `msgc apply` and `msgc state fetch` may ask Apple, and how long they may wait on
/// its 429s, as the command line gives it.
public struct Pace: Sendable {
    /// Uploads (and list reads) per second per endpoint; nil for Apple's documented limit.
    public var uploadRate: Double?
    /// The most time waited on 429s in all before the run stops with the resumable status.
    public var maxWait: TimeInterval
    /// Every duration msgc chooses itself (documented intervals, the 429 floor, backoff) times
    /// this: 1 for Apple, less for a test server that runs Apple's pace faster.
    public var timeScale: Double
    /// The clock the run's waits and dates are measured by: `.system`, as the command line
    /// passes it, or a test's.
    public var clock: WallClock

    /// Ten minutes: a CI job waits on Apple that long at most, then stops and is run again.
    public static let defaultMaxWait: TimeInterval = 600

    public init(uploadRate: Double? = nil, maxWait: TimeInterval = Pace.defaultMaxWait, timeScale: Double = 1, clock: WallClock) {
        self.uploadRate = uploadRate
        self.maxWait = maxWait
        self.timeScale = timeScale
        self.clock = clock
    }

    func settings(_ environment: Environment) -> Pacer.Settings {
        Pacer.Settings(
            intervals: AppleClient.intervals(environment, uploadRate: uploadRate).mapValues { $0 * (uploadRate == nil ? timeScale : 1) },
            rateLimitFloor: 1 * timeScale, maxWait: maxWait, longestWait: 3600, clock: clock)
    }

    /// What `--max-wait` takes (`DurationText`, milliseconds): up to a week, as it always has.
    public static let maxWaitRange: ClosedRange<Int64> = 0...7 * 86_400_000
}
