import Foundation
import Synchronization

/// The database behind one experiment store test: a SQLite file in a fresh folder, or a
/// PostgreSQL server of the test's own (`PostgreSQLServer`). Removed (and stopped) when the
/// test lets go of it. The store suites of both sides (ExperimentStoreTests, RealtimeServerTests)
/// open their stores on it; their suites run with `.ownThreads`, since its server's commands block.
public final class StoreDatabase {
    public enum Backend: String, CaseIterable, Sendable {
        case sqlite, postgreSQL
    }

    /// The backends this machine can run: SQLite always, PostgreSQL where its binaries are.
    public static let backends: [Backend] = PostgreSQLServer.binaries == nil ? [.sqlite] : [.sqlite, .postgreSQL]

    public let backend: Backend
    public let folder: URL
    public let server: PostgreSQLServer?
    /// The store's URL as `--store` takes it: `sqlite:PATH` (`store.db` in `folder`) or the server's.
    public let url: String

    public init(_ backend: Backend) throws {
        self.backend = backend
        folder = TestFolders.root.appendingPathComponent("msgc-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            server = nil
            url = "sqlite:" + folder.appendingPathComponent("store.db").path
        case .postgreSQL:
            let server = try PostgreSQLServer()
            self.server = server
            url = server.uri
        }
    }

    deinit {
        try? server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A flag one thread sets (a store's, holding a lock) and a test reads.
public final class Flag: Sendable {
    private let value = Atomic(false)

    public init() {}

    public func set() { value.store(true, ordering: .sequentiallyConsistent) }
    public var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}
