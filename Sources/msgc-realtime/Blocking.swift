import Dispatch
import Synchronization

/// Runs async work (the experiment store's calls) from a command's synchronous `execute`,
/// which runs on the main thread, never on Swift's cooperative pool: the main thread waits on
/// a semaphore while a task does the work.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            finished.signal()
        }
        finished.wait()
        guard let outcome = result.withLock({ $0 }) else { throw CancellationError() }
        return try outcome.get()
    }
}
