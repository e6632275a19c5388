import Dispatch
import Foundation
import Synchronization

/// One database connection on a thread of its own, behind an async call with a deadline.
///
/// libsqlite3 and libpq block the thread that calls them, for as long as a lock, a disk or a
/// network takes. Swift's cooperative pool has one thread per core, and a blocked one there
/// stalls every task of the server, so the connection lives on a dedicated `Thread` that takes
/// jobs from a queue, one at a time, in order; calls with a deadline go before those without
/// (the answer path's settlement does not wait behind a batch of the decision log).
///
/// A caller waits at most until its deadline: then it gets `.timedOut` at once, from a timer on
/// Dispatch's own threads, while the job still runs to its end on the connection's thread (its
/// result dropped), or is dropped unstarted when the thread comes to it. The queue is bounded,
/// so a store that is down costs a bounded amount of memory; past the bound a call fails at
/// once as `.unavailable`.
final class ConnectionThread: Sendable {
    typealias Job = @Sendable (any SQLConnection) -> Void

    private struct Queue {
        var urgent: [Job] = []
        var normal: [Job] = []
        var isClosing = false
        var isFinished = false
        var whenFinished: [@Sendable () -> Void] = []
        var count: Int { urgent.count + normal.count }
    }

    static let queueBound = 10_000

    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the thread; `connect` makes the connection on it (connections open on first use).
    init(name: String, connect: @escaping @Sendable () -> any SQLConnection) {
        let thread = Thread { [self] in serve(connect()) }
        thread.name = name
        thread.start()
    }

    private func serve(_ connection: any SQLConnection) {
        while true {
            wake.wait()
            let next: Job? = queue.withLock { queue in
                if !queue.urgent.isEmpty { return queue.urgent.removeFirst() }
                if !queue.normal.isEmpty { return queue.normal.removeFirst() }
                return nil
            }
            // A wake-up with nothing queued is the one `close` sends after the last job.
            guard let next else { break }
            next(connection)
        }
        connection.close()
        let waiting = queue.withLock { queue in
            queue.isFinished = true
            defer { queue.whenFinished = [] }
            return queue.whenFinished
        }
        for done in waiting { done() }
    }

    /// Runs `work` on the connection's thread and returns what it returned, or `.timedOut` when
    /// `deadline` comes first.
    func run<T: Sendable>(
        deadline: ContinuousClock.Instant?, _ work: @escaping @Sendable (any SQLConnection) throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let result: Result<T, StoreError> = await withCheckedContinuation { continuation in
            let reply = Reply(continuation)
            var delay: Duration?
            if let deadline {
                delay = ContinuousClock.now.duration(to: deadline)
                if let delay, delay <= .zero { return reply.resume(.failure(.timedOut)) }
            }
            let job: Job = { connection in
                // The caller stopped waiting before the thread came to this job.
                guard reply.isWaiting else { return }
                do throws(StoreError) {
                    reply.resume(.success(try connection.attempt(work)))
                } catch {
                    reply.resume(.failure(error))
                }
            }
            let refusal: StoreError? = queue.withLock { queue in
                if queue.isClosing { return .closed }
                if queue.count >= Self.queueBound {
                    return .unavailable("\(Self.queueBound) calls are waiting for the store; this one is dropped")
                }
                if deadline == nil { queue.normal.append(job) } else { queue.urgent.append(job) }
                return nil
            }
            if let refusal { return reply.resume(.failure(refusal)) }
            wake.signal()
            if let delay {
                let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
                    reply.resume(.failure(.timedOut))
                }
            }
        }
        return try result.get()
    }

    /// Lets the queued jobs run, then closes the connection, ends the thread and calls `done`
    /// (at once if that already happened). Calls made after it fail as `.closed`.
    func close(whenDone done: @escaping @Sendable () -> Void) {
        let (wasClosing, isFinished) = queue.withLock { queue in
            defer { queue.isClosing = true }
            if !queue.isFinished { queue.whenFinished.append(done) }
            return (queue.isClosing, queue.isFinished)
        }
        if isFinished { done() }
        if !wasClosing { wake.signal() }
    }

    /// `close(whenDone:)`, waited for without holding a thread.
    func close() async {
        await withCheckedContinuation { continuation in close { continuation.resume() } }
    }
}

/// The one answer to a caller: from the job or from the deadline's timer, whichever is first.
private final class Reply<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Result<T, StoreError>, Never>?>

    init(_ continuation: CheckedContinuation<Result<T, StoreError>, Never>) {
        self.continuation = Mutex(continuation)
    }

    var isWaiting: Bool { continuation.withLock { $0 != nil } }

    func resume(_ result: Result<T, StoreError>) {
        let waiting = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: result)
    }
}
