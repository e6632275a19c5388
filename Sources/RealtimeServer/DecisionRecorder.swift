import CoreMetrics
import ExperimentStore
import Foundation
import ServiceLifecycle
import Synchronization

/// The decision log's writer: the answer path hands it each `Decision` (`enqueue`, a few
/// instructions under a lock, never a wait) and this service writes them to the store in
/// batches, off the answer path, on the store's own thread.
///
/// The queue is bounded (`capacity`): when it is full the newest decision is dropped, counted in
/// `msgc_experiment_decisions_lost_total{reason="queue-full"}` and said once on standard error.
/// A batch the store cannot take now (`.unavailable`: down, restarting, locked; or `.timedOut`,
/// not taken within `writeDeadline`) stays at the head of the queue and is tried again after
/// each of `retryDelays` (doubling waits), so a short outage loses nothing; each retry is
/// counted in `msgc_experiment_decision_retries_total`. The batch never leaves the queue while
/// it waits, so the queue's bound covers it: an outage longer than the retries, or one that
/// fills the queue, loses decisions, never memory. A batch still refused after the last retry,
/// or refused for good (`.failed`: a statement the store rejects), is lost, counted with
/// `reason="store"`, and said once; answers never wait for any of this. Every
/// `flushInterval`, or sooner when `batchSize` decisions wait, a batch is written. The
/// service is the first of the server's group, so it is shut down last: after the HTTP server
/// has answered every request in flight, it writes everything still queued, then returns.
///
/// It also applies `--keep`: at start and every `retentionInterval`, decisions, assignments and
/// notifications older than `keep` are deleted (`ExperimentStore.deleteOlder`), and the arms kept
/// in the process that were not used lately are trimmed (`AssignmentCache.trim`). A decision
/// lost (either reason) was what kept its subscriber's assignment from `--keep`: that
/// subscriber's kept arm is forgotten (`AssignmentCache`).
///
/// Each decision carries its own key (`Decision.id`) and the store keeps one row per key, so a
/// batch written again, after a write that timed out but was committed, stores nothing twice.
final class DecisionRecorder: Service, Sendable {
    struct Settings: Sendable {
        var capacity = 50_000
        var batchSize = 500
        var flushInterval: Duration = .milliseconds(200)
        var writeDeadline: Duration = .seconds(10)
        /// The waits before each new attempt at a batch the store could not take now; its
        /// count is the number of retries. The default, 0.5 s doubling to 16 s, rides out an
        /// outage of about half a minute (a PostgreSQL restart, a failover).
        var retryDelays: [Duration] = Settings.doublingDelays(retries: ExperimentSettings.defaultDecisionRetries)
        var keepMilliseconds: Int64
        var retentionInterval: Duration = .seconds(3600)

        /// `retries` waits from 0.5 s, each twice the one before.
        static func doublingDelays(retries: Int) -> [Duration] {
            (0..<max(0, retries)).map { .milliseconds(500 << min($0, 16)) }
        }
    }

    private let store: ExperimentStore
    private let settings: Settings
    private let assignmentCache: AssignmentCache
    private let notice: @Sendable (String) -> Void
    private let queue = Mutex<[Decision]>([])
    private let saidQueueFull = Atomic<Bool>(false)
    private let saidStoreFailure = Atomic<Bool>(false)
    private let saidRetrying = Atomic<Bool>(false)
    private let recorded: CoreMetrics.Counter
    private let lostQueueFull: CoreMetrics.Counter
    private let lostStore: CoreMetrics.Counter
    private let retries: CoreMetrics.Counter
    private let retentionFailures: CoreMetrics.Counter
    private let now: @Sendable () -> Date

    init(store: ExperimentStore, settings: Settings, assignmentCache: AssignmentCache, metrics: ServerMetrics,
         notice: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.settings = settings
        self.assignmentCache = assignmentCache
        self.notice = notice
        self.now = now
        recorded = metrics.counter("msgc_experiment_decisions_recorded_total", [])
        lostQueueFull = metrics.counter("msgc_experiment_decisions_lost_total", [("reason", "queue-full")])
        lostStore = metrics.counter("msgc_experiment_decisions_lost_total", [("reason", "store")])
        retries = metrics.counter("msgc_experiment_decision_retries_total", [])
        retentionFailures = metrics.counter("msgc_experiment_retention_failures_total", [])
    }

    /// Queues `decision`, or drops it when the queue is full. Never waits.
    func enqueue(_ decision: Decision) {
        let accepted = queue.withLock { queue in
            guard queue.count < settings.capacity else { return false }
            queue.append(decision)
            return true
        }
        guard !accepted else { return }
        forgetArms(of: [decision])
        lostQueueFull.increment()
        if !saidQueueFull.exchange(true, ordering: .relaxed) {
            notice("the decision log's queue is full (\(settings.capacity) decisions): the experiment store does not keep up; newer decisions are dropped and counted in msgc_experiment_decisions_lost_total")
        }
    }

    func run() async throws {
        var lastRetention: ContinuousClock.Instant?
        // Retries already spent on the batch now at the head of the queue.
        var retriesSpent = 0
        while !isStopping {
            if lastRetention.map({ ContinuousClock.now - $0 >= settings.retentionInterval }) ?? true {
                lastRetention = .now
                await applyRetention()
            }
            if retriesSpent > 0 {
                await pause(for: settings.retryDelays[retriesSpent - 1]) { false }
                guard !isStopping else { break }
                retries.increment()
            } else {
                // Short sleeps, so that a full batch waits at most a few milliseconds longer
                // than it must, and a shutdown is seen at once.
                await pause(for: settings.flushInterval) { queue.withLock { $0.count } >= settings.batchSize }
            }
            guard let error = await writeHeadBatch() else {
                retriesSpent = 0
                continue
            }
            if Self.isRetryable(error) && retriesSpent < settings.retryDelays.count {
                retriesSpent += 1
                if !saidRetrying.exchange(true, ordering: .relaxed) {
                    notice("the experiment store cannot take the decision log now (\(error)); its batches stay queued (at most \(settings.capacity) decisions) and are tried again")
                }
            } else {
                dropHeadBatch(error, afterRetries: retriesSpent)
                retriesSpent = 0
            }
        }
        // Everything the HTTP server queued before it stopped, batch by batch, each tried once:
        // the process is asked to end, so once the store fails a batch the rest is counted as
        // lost rather than waited for.
        while queue.withLock({ !$0.isEmpty }) {
            guard await writeHeadBatch() == nil else {
                let left = queue.withLock { queue in
                    defer { queue.removeAll() }
                    return queue.count
                }
                lostStore.increment(by: Int64(left))
                notice("the decision log lost the \(left) decisions still queued at the end")
                return
            }
        }
    }

    /// Whether trying the same batch later may succeed: the store is down, restarting, locked
    /// or slow. A statement it refuses (`.failed`) would be refused again.
    static func isRetryable(_ error: StoreError) -> Bool {
        switch error {
        case .unavailable, .timedOut: true
        case .usage, .schemaTooNew, .failed, .closed: false
        }
    }

    private var isStopping: Bool { Task.isShuttingDownGracefully || Task.isCancelled }

    /// Sleeps up to `duration` in steps of 20 ms, ending early at a shutdown or once `isDue`.
    private func pause(for duration: Duration, until isDue: () -> Bool) async {
        var slept: Duration = .zero
        while slept < duration, !isStopping, !isDue() {
            try? await Task.sleep(for: .milliseconds(20))
            slept += .milliseconds(20)
        }
    }

    /// Tries once to write the batch at the head of the queue (up to `batchSize` decisions, in
    /// the order they were queued); written, it leaves the queue. Nil when written or when
    /// nothing waits; else why the store did not take it, the batch still queued.
    ///
    /// A batch that timed out may still be written by the store's thread after the deadline;
    /// its retry then stores nothing twice, each decision's key being in the store already.
    private func writeHeadBatch() async -> StoreError? {
        let batch = queue.withLock { Array($0.prefix(settings.batchSize)) }
        guard !batch.isEmpty else { return nil }
        do {
            try await store.record(decisions: batch, deadline: .now + settings.writeDeadline)
        } catch {
            return error
        }
        // Only this service removes from the queue; `enqueue` only appends behind the batch.
        queue.withLock { $0.removeFirst(batch.count) }
        recorded.increment(by: Int64(batch.count))
        return nil
    }

    /// Counts the batch at the head of the queue as lost and removes it; says so the first time.
    private func dropHeadBatch(_ error: StoreError, afterRetries spent: Int) {
        let dropped = queue.withLock { queue in
            let dropped = Array(queue.prefix(settings.batchSize))
            queue.removeFirst(dropped.count)
            return dropped
        }
        guard !dropped.isEmpty else { return }
        forgetArms(of: dropped)
        lostStore.increment(by: Int64(dropped.count))
        if !saidStoreFailure.exchange(true, ordering: .relaxed) {
            let tried = spent > 0 ? ", after \(spent) retries" : ""
            notice("the decision log lost \(dropped.count) decisions (\(error)\(tried)); later losses are counted in msgc_experiment_decisions_lost_total, answers are not affected")
        }
    }

    /// Forgets the kept arms of the subscribers of lost decisions: a decision kept its
    /// subscriber's assignment from `--keep`, and a lost one no longer does.
    private func forgetArms(of decisions: [Decision]) {
        for decision in decisions where decision.arm != nil {
            guard let subject = decision.subject else { continue }
            assignmentCache.forget(experiment: decision.experimentId, subject: subject)
        }
    }

    private func applyRetention() async {
        let milliseconds = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
        do {
            _ = try await store.deleteOlder(thanMilliseconds: milliseconds - settings.keepMilliseconds, deadline: .now + .seconds(60))
        } catch {
            retentionFailures.increment()
        }
        assignmentCache.trim(at: milliseconds)
    }
}
