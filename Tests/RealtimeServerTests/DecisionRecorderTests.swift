import Dispatch
import ExperimentStore
import Foundation
@testable import RealtimeServer
import Testing
import TestSupport

/// The decision log's retries: which failures are tried again, and how long it waits.
/// (RealtimeExperimentPostgreSQLTests shows a PostgreSQL outage losing no decision.)
@Suite struct DecisionRecorderTests {
    @Test func aStoreDownOrSlowIsTriedAgainAndARefusedStatementIsNot() {
        #expect(DecisionRecorder.isRetryable(.unavailable("connection refused")))
        #expect(DecisionRecorder.isRetryable(.timedOut))
        for error in [StoreError.failed("constraint"), .closed, .usage("url"), .schemaTooNew(found: 9, known: 1)] {
            #expect(!DecisionRecorder.isRetryable(error), "\(error)")
        }
    }

    @Test func retriesWaitHalfASecondThenTwiceAsLongEachTime() {
        let delays = DecisionRecorder.Settings.doublingDelays(retries: ExperimentSettings.defaultDecisionRetries)
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)])
        #expect(delays.reduce(.zero, +) == .milliseconds(31_500))
        #expect(DecisionRecorder.Settings.doublingDelays(retries: 0).isEmpty)
        #expect(DecisionRecorder.Settings(keepMilliseconds: 1).retryDelays == delays)
    }
}

/// The decision log against a real store that times out or stays down.
@Suite(.ownThreads) struct DecisionRecorderStoreTests {
    static let key = try! SubjectKey(bytes: Array(repeating: 0x2E, count: 32))

    static func subject(_ number: Int) -> SubjectHash {
        key.hash(originalTransactionId: "\(4_000_000_000_000_000 + number)")
    }

    /// A decision of subscriber `number`, now, with a key of its own, as the server makes one.
    static func decision(_ number: Int, arm: String = "a") -> Decision {
        Decision(
            timeMilliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)), environment: "Sandbox",
            requestId: "req-\(number)", product: "com.example.yearly", deviceLocale: "en-US", answeringLocale: "en-US",
            experimentId: "e", arms: "a=1,b=1", bundleDigest: "sha256:abc", arm: arm, answerKind: "message", answer: arm,
            snapshotGeneration: 1, subject: subject(number), assignment: .first, id: UUID().uuidString)
    }

    /// A write that times out while another connection holds the table, and that the store's
    /// thread commits once the lock is released: its retry stores nothing twice, and nothing
    /// is counted lost.
    @Test(arguments: StoreFixture.backends)
    func aBatchRetriedAfterATimeoutThatCommittedIsStoredOnce(_ backend: StoreFixture.Backend) async throws {
        let fixture = try StoreFixture(backend)
        // The write waits for the lock far longer than its deadline (a second: long enough for
        // the store's thread to come to it on a loaded machine), so it commits once released.
        let store = try await fixture.open(busyTimeoutMilliseconds: 60_000)
        let blocker = try await fixture.open()
        let metrics = ServerMetrics(version: "test")
        let notices = Notices()
        // An arm unused for the whole validity: retention's trim removes it, which says that
        // the retention of the recorder's start is over (it writes to the decisions table too).
        let cache = AssignmentCache(capacity: 100, validityMilliseconds: 1)
        cache.keep("a", experiment: "e", subject: Self.subject(999), at: 0)
        var settings = DecisionRecorder.Settings(keepMilliseconds: 3_600_000)
        settings.flushInterval = .milliseconds(20)
        settings.writeDeadline = .seconds(1)
        // Retries for over a minute: the test releases the lock once it sees the first timeout,
        // and on a loaded machine it may come to that seconds late (a full run once saw the
        // batch lost after ten seconds of retries, before the test had looked).
        settings.retryDelays = [.milliseconds(300), .milliseconds(300), .milliseconds(300), .seconds(1), .seconds(2), .seconds(5),
                                .seconds(10), .seconds(20), .seconds(30)]
        let recorder = DecisionRecorder(
            store: store, settings: settings, assignmentCache: cache, metrics: metrics, notice: notices.say, now: { Date() })
        let running = Task(executorPreference: WaitingThreads.shared) { try await recorder.run() }
        #expect(await wait(seconds: 30) { cache.count == 0 })

        let held = Flag()
        let release = DispatchSemaphore(value: 0)
        let holding = Task(executorPreference: WaitingThreads.shared) { try await StoreFixture.hold("decisions", on: blocker, backend: backend, held: held, release: release) }
        #expect(await wait(seconds: 60) { held.isSet })
        let decisions = (0..<40).map { Self.decision($0) }
        for decision in decisions { recorder.enqueue(decision) }
        #expect(await wait(seconds: 60) { notices.count(containing: "did not answer before the deadline") >= 1 }, "\(notices.all)")
        release.signal()
        try await holding.value
        #expect(await wait(seconds: 90) { metrics.value("msgc_experiment_decisions_recorded_total") == 40 }, "\(notices.all)")
        running.cancel()
        try? await running.value

        let stored = try await store.exposures(product: nil, sinceMilliseconds: 0)
        #expect(stored.count == 40)
        #expect(Set(stored.compactMap(\.id)) == Set(decisions.compactMap(\.id)))
        #expect((metrics.value("msgc_experiment_decision_retries_total") ?? 0) >= 1)
        #expect(metrics.value(#"msgc_experiment_decisions_lost_total{reason="store"}"#) == 0)
        await blocker.close()
        await store.close()
    }

    /// A store down for longer than the retries: the batch is lost, counted and said once, the
    /// arms its decisions kept are forgotten (others are kept), and recording resumes when the
    /// store is back.
    @Test func anOutageLongerThanTheRetriesLosesTheBatchAndForgetsItsArms() async throws {
        let fixture = try StoreFixture(.sqlite)
        // A writer waits 100 ms for SQLite's lock, then the store says it is unavailable.
        let store = try await fixture.open(busyTimeoutMilliseconds: 100)
        let blocker = try await fixture.open()
        let metrics = ServerMetrics(version: "test")
        let notices = Notices()
        let cache = AssignmentCache(capacity: 100, validityMilliseconds: 3_600_000)
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        for number in 0..<4 { cache.keep("a", experiment: "e", subject: Self.subject(number), at: now) }
        var settings = DecisionRecorder.Settings(keepMilliseconds: 3_600_000)
        settings.flushInterval = .milliseconds(20)
        settings.retryDelays = [.milliseconds(200)]
        let recorder = DecisionRecorder(
            store: store, settings: settings, assignmentCache: cache, metrics: metrics, notice: notices.say, now: { Date() })

        let held = Flag()
        let release = DispatchSemaphore(value: 0)
        let holding = Task(executorPreference: WaitingThreads.shared) { try await StoreFixture.hold("decisions", on: blocker, backend: .sqlite, held: held, release: release) }
        #expect(await wait(seconds: 60) { held.isSet })
        let running = Task(executorPreference: WaitingThreads.shared) { try await recorder.run() }
        // Subscribers 0 and 1 are exposed while the store is down.
        recorder.enqueue(Self.decision(0))
        recorder.enqueue(Self.decision(1))
        #expect(await wait(seconds: 30) { metrics.value(#"msgc_experiment_decisions_lost_total{reason="store"}"#) == 2 })
        #expect(metrics.value("msgc_experiment_decision_retries_total") == 1)
        #expect(notices.count(containing: "are tried again") == 1, "\(notices.all)")
        #expect(notices.count(containing: "the decision log lost 2 decisions") == 1, "\(notices.all)")
        #expect(cache.arm(experiment: "e", subject: Self.subject(0), at: now) == nil)
        #expect(cache.arm(experiment: "e", subject: Self.subject(1), at: now) == nil)
        #expect(cache.arm(experiment: "e", subject: Self.subject(2), at: now) == "a")

        // Back: the next decisions are written.
        release.signal()
        try await holding.value
        let later = (2..<5).map { Self.decision($0) }
        for decision in later { recorder.enqueue(decision) }
        #expect(await wait(seconds: 30) { metrics.value("msgc_experiment_decisions_recorded_total") == 3 })
        running.cancel()
        try? await running.value
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 0).map(\.requestId).sorted() == ["req-2", "req-3", "req-4"])
        #expect(metrics.value(#"msgc_experiment_decisions_lost_total{reason="store"}"#) == 2)
        #expect(notices.count(containing: "the decision log lost") == 1, "\(notices.all)")
        await blocker.close()
        await store.close()
    }
}
