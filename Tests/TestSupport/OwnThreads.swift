import Foundation
import Synchronization
import Testing

/// Runs a suite's tests on threads of their own instead of Swift's cooperative pool.
///
/// A test that waits (a subprocess, a server, a socket, a sleep) blocks the thread it runs on.
/// Swift Testing starts every test on the cooperative pool, which has one thread per core: on
/// a 2-core machine two such tests stall every other test of the run (durations of 45 s were
/// seen), and a server running inside the test process gets no thread to answer on. With
/// `@Suite(.ownThreads)` each test of the suite runs on `WaitingThreads`, a few threads kept
/// for waiting, so the pool stays free for the tests that compute.
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope runs its tests; only a test's body moves.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(WaitingThreads.shared) {
            try await function()
        }
    }
}

extension Trait where Self == OwnThreads {
    /// The suite's tests wait (subprocesses, servers, sockets, sleeps): run them on threads of
    /// their own, never on the cooperative pool.
    public static var ownThreads: Self { OwnThreads() }
}

/// A task a test starts (`Task {}`) does not inherit the test's executor: it runs on the
/// cooperative pool, behind every computing test queued there, and in a full run on 2 cores
/// may not start for many seconds. A task that holds a lock, runs a service or waits for the
/// test is started with `Task(executorPreference: WaitingThreads.shared)`.
///
/// A task executor of a fixed number of threads, for jobs that may block. Each job runs to
/// its end on one thread; jobs wait their turn in order. Twice as many threads as cores (at
/// least 4): enough that tests sleeping or waiting on a server do not hold up the others,
/// few enough that the subprocesses they start do not swamp the cores.
public final class WaitingThreads: TaskExecutor, @unchecked Sendable {
    public static let shared = WaitingThreads(width: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    // Guarded by `condition`: UnownedJob is not Sendable, so a Mutex cannot hold it.
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []

    init(width: Int) {
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.serve() }
            thread.name = "waiting-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
