import Dispatch
import Foundation
import Synchronization
import TestSupport
@testable import ExperimentStore
@testable import RealtimeServer

/// One experiment store of either kind for one test, on a `StoreDatabase`. Suites that use it
/// run with `.ownThreads`: its server's commands block.
final class StoreFixture {
    typealias Backend = StoreDatabase.Backend

    static let backends = StoreDatabase.backends

    let database: StoreDatabase
    let url: StoreURL
    var backend: Backend { database.backend }

    init(_ backend: Backend) throws {
        database = try StoreDatabase(backend)
        url = try StoreURL(parsing: database.url)
    }

    /// A store on the fixture's database, migrated: each call is another connection, as another server's.
    /// `busyTimeoutMilliseconds` bounds a wait for a lock (SQLite's busy timeout, PostgreSQL's
    /// statement timeout).
    func open(busyTimeoutMilliseconds: Int = 5_000) async throws -> ExperimentStore {
        let store = try ExperimentStore(url: url, options: .init(
            busyTimeoutMilliseconds: busyTimeoutMilliseconds, connectTimeoutSeconds: 5,
            statementTimeoutMilliseconds: max(5_000, busyTimeoutMilliseconds)))
        _ = try await store.migrate()
        return store
    }

    /// Holds `table` against writers, in a transaction on `blocker`'s thread, until `release` is
    /// signalled (at most 120 s); `held` is set once the lock is taken. SQLite's transaction
    /// takes the file's write lock as it begins (BEGIN IMMEDIATE); PostgreSQL locks the table.
    static func hold(_ table: String, on blocker: ExperimentStore, backend: Backend, held: Flag, release: DispatchSemaphore) async throws {
        let lock = backend == .postgreSQL ? "LOCK TABLE \(table) IN EXCLUSIVE MODE" : nil
        try await blocker.bulkLane.run(deadline: nil) { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                if let lock { _ = try connection.execute(lock, []) }
                held.set()
                // Released by the test; the bound only ends a test that fails first. It is far
                // off: on a loaded machine a test may not reach its next step for seconds.
                _ = release.wait(timeout: .now() + 120)
            }
        }
    }
}

/// What a service said on standard error, kept for the test to read.
final class Notices: Sendable {
    private let lines = Mutex<[String]>([])

    func say(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    func count(containing text: String) -> Int { all.filter { $0.contains(text) }.count }
}

/// Waits, in steps of 10 ms and at most `seconds`, until `isDone`; whether it was.
func wait(seconds: Double, until isDone: () -> Bool) async -> Bool {
    for _ in 0..<Int(seconds * 100) {
        if isDone() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return isDone()
}

extension ServerMetrics {
    /// The value of one series (`name{label="value"}`) of /metrics; nil when it is not there.
    func value(_ series: String) -> Double? {
        let text = String(decoding: exposition(), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }
}
