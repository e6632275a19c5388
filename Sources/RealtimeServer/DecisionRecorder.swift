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
/// A batch the store refuses or does not take within `writeDeadline` (down, locked, a full disk)
/// is lost too, counted with `reason="store"`, and said once; answers never wait for either.
/// Every `flushInterval`, or sooner when `batchSize` decisions wait, a batch is written. The
/// service is the first of the server's group, so it is shut down last: after the HTTP server
/// has answered every request in flight, it writes everything still queued, then returns.
///
/// It also applies `--keep`: at start and every `retentionInterval`, decisions, assignments and
/// notifications older than `keep` are deleted (`ExperimentStore.deleteOlder`).
final class DecisionRecorder: Service, Sendable {
    struct Settings: Sendable {
        var capacity = 50_000
        var batchSize = 500
        var flushInterval: Duration = .milliseconds(200)
        var writeDeadline: Duration = .seconds(10)
        var keepMilliseconds: Int64
        var retentionInterval: Duration = .seconds(3600)
    }

    private let store: ExperimentStore
    private let settings: Settings
    private let notice: @Sendable (String) -> Void
    private let queue = Mutex<[Decision]>([])
    private let saidQueueFull = Atomic<Bool>(false)
    private let saidStoreFailure = Atomic<Bool>(false)
    private let recorded: CoreMetrics.Counter
    private let lostQueueFull: CoreMetrics.Counter
    private let lostStore: CoreMetrics.Counter
    private let retentionFailures: CoreMetrics.Counter
    private let now: @Sendable () -> Date

    init(store: ExperimentStore, settings: Settings, metrics: ServerMetrics, notice: @escaping @Sendable (String) -> Void,
         now: @escaping @Sendable () -> Date) {
        self.store = store
        self.settings = settings
        self.notice = notice
        self.now = now
        recorded = metrics.counter("msgc_experiment_decisions_recorded_total", [])
        lostQueueFull = metrics.counter("msgc_experiment_decisions_lost_total", [("reason", "queue-full")])
        lostStore = metrics.counter("msgc_experiment_decisions_lost_total", [("reason", "store")])
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
        lostQueueFull.increment()
        if !saidQueueFull.exchange(true, ordering: .relaxed) {
            notice("the decision log's queue is full (\(settings.capacity) decisions): the experiment store does not keep up; newer decisions are dropped and counted in msgc_experiment_decisions_lost_total")
        }
    }

    func run() async throws {
        var lastRetention: ContinuousClock.Instant?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if lastRetention.map({ ContinuousClock.now - $0 >= settings.retentionInterval }) ?? true {
                lastRetention = .now
                await applyRetention()
            }
            let waiting = queue.withLock { $0.count }
            if waiting < settings.batchSize {
                // A short sleep, so that a full batch waits at most a few milliseconds
                // longer than it must, and a shutdown is seen at once.
                var slept: Duration = .zero
                while slept < settings.flushInterval, !Task.isShuttingDownGracefully, !Task.isCancelled,
                    queue.withLock({ $0.count }) < settings.batchSize
                {
                    try? await Task.sleep(for: .milliseconds(20))
                    slept += .milliseconds(20)
                }
            }
            await writeBatch()
        }
        // Everything the HTTP server queued before it stopped, batch by batch. Once the store
        // fails a batch, the rest is counted as lost rather than tried batch after batch, each
        // for as long as the deadline, while the process is asked to end.
        while queue.withLock({ !$0.isEmpty }) {
            guard await writeBatch() else {
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

    /// Writes up to `batchSize` queued decisions, in the order they were queued.
    @discardableResult
    private func writeBatch() async -> Bool {
        let batch = queue.withLock { queue in
            let batch = Array(queue.prefix(settings.batchSize))
            queue.removeFirst(batch.count)
            return batch
        }
        guard !batch.isEmpty else { return true }
        do {
            try await store.record(decisions: batch, deadline: .now + settings.writeDeadline)
            recorded.increment(by: Int64(batch.count))
            return true
        } catch {
            lostStore.increment(by: Int64(batch.count))
            if !saidStoreFailure.exchange(true, ordering: .relaxed) {
                notice("the decision log lost \(batch.count) decisions (\(error)); later losses are counted in msgc_experiment_decisions_lost_total, answers are not affected")
            }
            return false
        }
    }

    private func applyRetention() async {
        let cutoff = Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) - settings.keepMilliseconds
        do {
            _ = try await store.deleteOlder(thanMilliseconds: cutoff, deadline: .now + .seconds(60))
        } catch {
            retentionFailures.increment()
        }
    }
}
