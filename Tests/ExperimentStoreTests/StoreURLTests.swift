import Foundation
import Testing
@testable import ExperimentStore
import TestSupport

@Suite struct StoreURLTests {
    @Test(arguments: [
        ("sqlite:/var/lib/msgc/store.db", StoreURL.sqlite(path: "/var/lib/msgc/store.db")),
        ("sqlite:store.db", .sqlite(path: "store.db")),
        ("postgres://msgc@db.internal:5432/experiments?sslmode=require", .postgreSQL(uri: "postgres://msgc@db.internal:5432/experiments?sslmode=require")),
        ("postgresql://db.internal/experiments", .postgreSQL(uri: "postgresql://db.internal/experiments")),
        ("postgres://msgc@[::1]:5432/experiments?passfile=/etc/msgc/pgpass", .postgreSQL(uri: "postgres://msgc@[::1]:5432/experiments?passfile=/etc/msgc/pgpass")),
    ])
    func readsAStoreURL(text: String, url: StoreURL) throws {
        #expect(try StoreURL(parsing: text) == url)
    }

    @Test(arguments: [
        "postgres://msgc:hunter2@db.internal/experiments",
        "postgresql://msgc:@db.internal/experiments",
        "postgres://db.internal/experiments?sslmode=require&password=hunter2",
        "postgres://db.internal/experiments?PASSWORD=hunter2",
    ])
    func refusesAPassword(text: String) {
        #expect {
            try StoreURL(parsing: text)
        } throws: { error in
            guard case .usage(let message) = error as? StoreError else { return false }
            return message.contains("PGPASSWORD") && message.contains("passfile") && !message.contains("hunter2")
        }
    }

    @Test(arguments: [
        ("sqlite:", "names no file"),
        ("sqlite::memory:", "in-memory"),
        ("mysql://db/experiments", "must start with sqlite: or postgres://"),
        ("postgres://db.internal/experiments?colour=blue", "not a PostgreSQL connection URI"),
        ("sqlite:a\u{0}b", "NUL"),
    ])
    func saysWhatIsWrong(text: String, expected: String) {
        #expect {
            try StoreURL(parsing: text)
        } throws: { error in
            guard case .usage(let message) = error as? StoreError else { return false }
            return message.contains(expected)
        }
    }

    @Test func refusesSpecialFilesAndMissingFolders() throws {
        let folder = TestFolders.root.appendingPathComponent("msgc-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo.db").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.db"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("wal.db"))
        #expect(mkfifo(folder.appendingPathComponent("wal.db-wal").path, 0o600) == 0)
        let cases: [(String, String)] = [
            (fifo, "is a FIFO; a SQLite store is a regular file"),
            (folder.appendingPathComponent("dir.db").path, "is a folder; a SQLite store is a regular file"),
            (folder.appendingPathComponent("wal.db").path, "the store's log '\(folder.path)/wal.db-wal' is a FIFO"),
            (folder.appendingPathComponent("missing/store.db").path, "the folder '\(folder.path)/missing' of the store does not exist"),
        ]
        for (path, expected) in cases {
            #expect {
                try ExperimentStore(url: StoreURL(parsing: "sqlite:" + path))
            } throws: { error in
                guard case .usage(let message) = error as? StoreError else { return false }
                return message.contains(expected)
            }
        }
    }
}

/// libpq's messages reach msgc's one-line errors on one line.
@Suite(.ownThreads) struct PostgreSQLMessageTests {
    @Test func aServerThatIsNotThereIsSaidOnOneLine() async throws {
        let port = try PostgreSQLServer.freePort()
        let store = try ExperimentStore(url: StoreURL(parsing: "postgres://msgc@127.0.0.1:\(port)/postgres?connect_timeout=2"))
        do {
            _ = try await store.migrate()
            Issue.record("nothing listens on port \(port), yet the store was migrated")
        } catch {
            let text = "\(error)"
            #expect(text.contains("Connection refused"), "\(text)")
            #expect(!text.contains("\n") && !text.contains("\t"), "\(text)")
        }
        await store.close()
    }
}
