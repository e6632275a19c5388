import CSQLite
import Foundation
import TestSupport
import Testing
@testable import ExperimentStore

/// One store of either kind for one test, on a `StoreDatabase`.
final class StoreFixture {
    typealias Backend = StoreDatabase.Backend

    let database: StoreDatabase
    let url: StoreURL
    var backend: Backend { database.backend }
    var folder: URL { database.folder }
    var server: PostgreSQLServer? { database.server }

    init(_ backend: Backend) throws {
        database = try StoreDatabase(backend)
        url = try StoreURL(parsing: database.url)
    }

    /// A store on the fixture's database: each call is another connection, as another server's.
    func open(_ options: ExperimentStore.Options = .init(busyTimeoutMilliseconds: 5_000, connectTimeoutSeconds: 5)) throws -> ExperimentStore {
        try ExperimentStore(url: url, options: options)
    }

}

/// What every store must do, run against SQLite and PostgreSQL alike.
enum StoreCheck: String, CaseIterable, Sendable {
    case migratingTwiceChangesNothing
    case aNewerSchemaIsRefused
    case decisionsRoundTripInOneBatch
    case twoServersSettleOneArm
    case aNotificationIsStoredOnce
    case deleteOlderKeepsWhatIsStillSeen
    case aStoreThatIsDownFailsAndComesBack
    case aBatchWrittenTwiceIsStoredOnce
    case aWriteThatTimedOutAfterItsCommitIsStoredOnce
    case aVersion1StoreMigratesAndKeepsItsRows
    case aSettlementRacingAnotherServersInsertGetsTheirArm

    func run(_ fixture: StoreFixture) async throws {
        switch self {
        case .migratingTwiceChangesNothing: try await Self.migrateTwice(fixture)
        case .aNewerSchemaIsRefused: try await Self.newerSchema(fixture)
        case .decisionsRoundTripInOneBatch: try await Self.decisionsRoundTrip(fixture)
        case .twoServersSettleOneArm: try await Self.concurrentSettle(fixture)
        case .aNotificationIsStoredOnce: try await Self.notificationsOnce(fixture)
        case .deleteOlderKeepsWhatIsStillSeen: try await Self.deleteOlder(fixture)
        case .aStoreThatIsDownFailsAndComesBack: try await Self.outage(fixture)
        case .aBatchWrittenTwiceIsStoredOnce: try await Self.writtenTwice(fixture)
        case .aWriteThatTimedOutAfterItsCommitIsStoredOnce: try await Self.timedOutAfterCommit(fixture)
        case .aVersion1StoreMigratesAndKeepsItsRows: try await Self.fromVersion1(fixture)
        case .aSettlementRacingAnotherServersInsertGetsTheirArm: try await Self.settleRacingAnInsert(fixture)
        }
    }

    static let key = try! SubjectKey(bytes: Array(repeating: 0x5A, count: 32))

    static func subject(_ number: Int) -> SubjectHash {
        key.hash(originalTransactionId: "\(2_000_000_000_000_000 + number)")
    }

    static func decision(_ number: Int, time: Int64, product: String = "com.example.yearly", subject: SubjectHash?) -> Decision {
        Decision(
            timeMilliseconds: time, environment: "Sandbox", requestId: String(format: "req-%05d", number), product: product,
            deviceLocale: "de_CH", answeringLocale: number % 7 == 0 ? nil : "de-DE", experimentId: "exp-\(product)",
            arms: "stay-a=50,stay-b=50", bundleDigest: "sha256:abc", arm: subject == nil ? nil : (number % 2 == 0 ? "stay-a" : "stay-b"),
            answerKind: number % 7 == 0 ? "declined" : "message", answer: number % 7 == 0 ? nil : "Grüße „\(number)“",
            snapshotGeneration: Int64(number / 100), subject: subject,
            assignment: Decision.Assignment.allCases[number % Decision.Assignment.allCases.count],
            id: String(format: "5f0d6a52-0000-4000-8000-%012d", number))
    }

    static func notification(_ uuid: String, subject: SubjectHash, signed: Int64, received: Int64, isRelevant: Bool = true) -> StoredNotification {
        StoredNotification(
            notificationUUID: uuid, subject: subject, signedDateMilliseconds: signed, type: "DID_CHANGE_RENEWAL_STATUS",
            subtype: "AUTO_RENEW_DISABLED", offerIdentifier: nil, autoRenewProductId: "com.example.yearly", autoRenewStatus: 0,
            environment: "Sandbox", receivedMilliseconds: received, isRelevant: isRelevant)
    }

    static func migrateTwice(_ fixture: StoreFixture) async throws {
        // Two servers starting together on a new database: one migrates, the other finds it done.
        let store = try fixture.open()
        let beside = try fixture.open()
        async let mine = store.migrate()
        async let theirs = beside.migrate()
        let both = try await [mine, theirs].map(\.fromVersion).sorted()
        #expect(both == [0, ExperimentStore.schemaVersion])
        let current = ExperimentStore.schemaVersion
        #expect(try await store.migrate() == .init(fromVersion: current, toVersion: current))
        await beside.close()
        await store.close()
        // Another server starting later finds it done.
        let other = try fixture.open()
        #expect(try await other.migrate() == .init(fromVersion: current, toVersion: current))
        await other.close()
    }

    static func newerSchema(_ fixture: StoreFixture) async throws {
        let store = try fixture.open()
        _ = try await store.migrate()
        #expect(try await store.settleAssignment(experiment: "e", subject: subject(1), proposedArm: "a", timeMilliseconds: 1).isFirst)
        let known = ExperimentStore.schemaVersion
        _ = try await store.bulkLane.run(deadline: nil) { connection throws(StoreError) in
            try connection.execute("INSERT INTO schema_version (version) VALUES ($1)", [.integer(Int64(known + 1))])
        }
        await store.close()
        let newer = try fixture.open()
        await #expect(throws: StoreError.schemaTooNew(found: known + 1, known: known)) { try await newer.migrate() }
        #expect(StoreError.schemaTooNew(found: 3, known: 2).description.contains("schema version 3, newer than the 2 this msgc knows"))
        // Refused untouched.
        #expect(try await newer.assignments(experiment: "e").map(\.arm) == ["a"])
        await newer.close()
    }

    static func decisionsRoundTrip(_ fixture: StoreFixture) async throws {
        let store = try fixture.open()
        _ = try await store.migrate()
        let decisions = (0..<250).map { number in
            decision(number, time: 1_000 + Int64(number), product: number % 5 == 0 ? "com.example.monthly" : "com.example.yearly",
                     subject: number % 11 == 0 ? nil : subject(number))
        }
        try await store.record(decisions: decisions)
        try await store.record(decisions: [])
        let all = try await store.exposures(product: nil, sinceMilliseconds: 0)
        #expect(all == decisions.filter { $0.subject != nil })
        let yearly = try await store.exposures(product: "com.example.yearly", sinceMilliseconds: 1_100)
        #expect(yearly == decisions.filter { $0.subject != nil && $0.product == "com.example.yearly" && $0.timeMilliseconds >= 1_100 })
        #expect(!yearly.isEmpty)

        // One transaction: a batch with one row the schema refuses leaves nothing behind.
        // The second row breaks a CHECK (the assignment column takes only the five kinds).
        let refused = [decision(900, time: 9_000, subject: subject(900)), decision(901, time: 9_001, subject: subject(901))]
        await #expect(throws: StoreError.self) {
            try await store.bulkLane.run(deadline: nil) { connection throws(StoreError) in
                try connection.transaction { () throws(StoreError) in
                    _ = try connection.execute(ExperimentStore.insertDecision, ExperimentStore.parameters(refused[0]))
                    var broken = ExperimentStore.parameters(refused[1])
                    broken[14] = .text("sometimes")
                    _ = try connection.execute(ExperimentStore.insertDecision, broken)
                }
            }
        }
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 9_000).isEmpty)
        await store.close()
    }

    static func concurrentSettle(_ fixture: StoreFixture) async throws {
        let first = try fixture.open()
        let second = try fixture.open()
        _ = try await first.migrate()
        let subjects = (0..<40).map(subject)
        async let fromFirst = settleAll(first, subjects, arm: "stay-a")
        async let fromSecond = settleAll(second, subjects, arm: "stay-b")
        let (a, b) = try await (fromFirst, fromSecond)
        for index in subjects.indices {
            #expect(a[index].arm == b[index].arm, "subject \(index) got two arms")
            #expect(a[index].isFirst != b[index].isFirst, "subject \(index): exactly one call is first")
        }
        let recorded = try await first.assignments(experiment: "exp")
        #expect(recorded.count == subjects.count)
        let armOf = Dictionary(uniqueKeysWithValues: recorded.map { ($0.subject, $0.arm) })
        for index in subjects.indices { #expect(armOf[subjects[index]] == a[index].arm) }
        // Sticky: a later proposal changes nothing.
        let later = try await second.settleAssignment(experiment: "exp", subject: subjects[0], proposedArm: "stay-c", timeMilliseconds: 99)
        #expect(later == .init(arm: a[0].arm, isFirst: false))
        await first.close()
        await second.close()
    }

    static func settleAll(_ store: ExperimentStore, _ subjects: [SubjectHash], arm: String) async throws -> [ExperimentStore.Settled] {
        try await withThrowingTaskGroup(of: (Int, ExperimentStore.Settled).self) { group in
            for (index, subject) in subjects.enumerated() {
                group.addTask {
                    (index, try await store.settleAssignment(experiment: "exp", subject: subject, proposedArm: arm, timeMilliseconds: Int64(index)))
                }
            }
            var results: [ExperimentStore.Settled?] = Array(repeating: nil, count: subjects.count)
            for try await (index, settled) in group { results[index] = settled }
            return results.compactMap { $0 }
        }
    }

    static func notificationsOnce(_ fixture: StoreFixture) async throws {
        let first = try fixture.open()
        let second = try fixture.open()
        _ = try await first.migrate()
        let retried = notification("7c0c5a52-0000-4000-8000-000000000001", subject: subject(1), signed: 2_000, received: 2_100)
        #expect(try await first.store(notification: retried) == .inserted)
        var retry = retried
        retry.receivedMilliseconds = 9_000
        #expect(try await first.store(notification: retry) == .duplicate)
        #expect(try await second.store(notification: retry) == .duplicate)

        // Two servers given the same twenty: each stored once.
        let uuids = (0..<20).map { String(format: "7c0c5a52-0000-4000-8000-1000000000%02d", $0) }
        async let fromFirst = storeAll(first, uuids)
        async let fromSecond = storeAll(second, uuids)
        let receipts = try await fromFirst + fromSecond
        #expect(receipts.filter { $0 == .inserted }.count == 20)

        // The report's events: relevant ones, of subscribers exposed to the product since then.
        try await first.record(decisions: [decision(1, time: 1_500, subject: subject(1)), decision(2, time: 1_500, product: "other", subject: subject(2))])
        #expect(try await first.store(notification: notification("n-other", subject: subject(2), signed: 2_500, received: 2_500)) == .inserted)
        #expect(try await first.store(notification: notification("n-test", subject: subject(1), signed: 2_600, received: 2_600, isRelevant: false)) == .inserted)
        #expect(try await first.store(notification: notification("n-early", subject: subject(1), signed: 1_000, received: 2_600)) == .inserted)
        #expect(try await first.events(product: "com.example.yearly", sinceMilliseconds: 1_500) == [retried])
        // By subscriber, then signedDate.
        let expected = subject(1) < subject(2) ? [retried.notificationUUID, "n-other"] : ["n-other", retried.notificationUUID]
        #expect(try await first.events(product: nil, sinceMilliseconds: 1_500).map(\.notificationUUID) == expected)
        await first.close()
        await second.close()
    }

    static func storeAll(_ store: ExperimentStore, _ uuids: [String]) async throws -> [ExperimentStore.NotificationReceipt] {
        var receipts: [ExperimentStore.NotificationReceipt] = []
        for (index, uuid) in uuids.enumerated() {
            receipts.append(try await store.store(notification: notification(uuid, subject: subject(100 + index), signed: 3_000, received: 3_000)))
        }
        return receipts
    }

    static func deleteOlder(_ fixture: StoreFixture) async throws {
        let store = try fixture.open()
        _ = try await store.migrate()
        let gone = subject(1)
        let stillSeen = subject(2)
        try await store.record(decisions: [
            decision(1, time: 1_000, subject: gone), decision(2, time: 1_000, subject: stillSeen), decision(3, time: 5_000, subject: stillSeen),
        ])
        _ = try await store.settleAssignment(experiment: "exp-com.example.yearly", subject: gone, proposedArm: "stay-a", timeMilliseconds: 1_000)
        _ = try await store.settleAssignment(experiment: "exp-com.example.yearly", subject: stillSeen, proposedArm: "stay-b", timeMilliseconds: 1_000)
        _ = try await store.store(notification: notification("old", subject: gone, signed: 900, received: 1_000))
        _ = try await store.store(notification: notification("new", subject: stillSeen, signed: 4_900, received: 5_000))
        #expect(try await store.deleteOlder(thanMilliseconds: 3_000) == .init(decisions: 2, assignments: 1, notifications: 1))
        #expect(try await store.deleteOlder(thanMilliseconds: 3_000) == .init(decisions: 0, assignments: 0, notifications: 0))
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 0).map(\.requestId) == ["req-00003"])
        #expect(try await store.assignments(experiment: "exp-com.example.yearly").map(\.subject) == [stillSeen])
        #expect(try await store.events(product: nil, sinceMilliseconds: 0).map(\.notificationUUID) == ["new"])
        await store.close()
    }

    static func outage(_ fixture: StoreFixture) async throws {
        // SQLite's "down" is a lock held by another process: wait for it briefly.
        let store = try fixture.open(.init(busyTimeoutMilliseconds: 300, connectTimeoutSeconds: 5))
        _ = try await store.migrate()
        #expect(try await store.settleAssignment(experiment: "e", subject: subject(1), proposedArm: "a", timeMilliseconds: 1).isFirst)
        let recover: () throws -> Void
        switch fixture.backend {
        case .postgreSQL:
            guard let server = fixture.server else { return }
            try server.stop()
            recover = { try server.start() }
        case .sqlite:
            // Another process holds the write lock: the SQLite store's "down".
            guard case .sqlite(let path) = fixture.url else { return }
            var other: OpaquePointer?
            #expect(sqlite3_open(path, &other) == SQLITE_OK)
            #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
            recover = {
                sqlite3_exec(other, "ROLLBACK", nil, nil, nil)
                sqlite3_close(other)
            }
        }
        // With a deadline: .timedOut, or .unavailable when the store said so first: a stopped
        // PostgreSQL refuses connections at once, and on a loaded machine the 30 ms timer can
        // fire after SQLite's 300 ms wait for the lock has ended (it did, at a load of 10).
        // Without one: a typed error, not a hang.
        await #expect {
            try await store.settleAssignment(experiment: "e", subject: subject(2), proposedArm: "a", timeMilliseconds: 2,
                                             deadline: .now + .milliseconds(30))
        } throws: { error in
            switch error as? StoreError {
            case .timedOut, .unavailable: true
            default: false
            }
        }
        await #expect(throws: StoreError.timedOut) {
            try await store.settleAssignment(experiment: "e", subject: subject(2), proposedArm: "a", timeMilliseconds: 2, deadline: .now - .seconds(1))
        }
        await #expect {
            try await store.record(decisions: [decision(1, time: 3, subject: subject(3))])
        } throws: { error in
            if case .unavailable = error as? StoreError { return true }
            return false
        }
        try recover()
        // Back: the next call connects again (PostgreSQL) or gets the lock (SQLite).
        try await store.record(decisions: [decision(4, time: 4, subject: subject(4))])
        #expect(try await store.settleAssignment(experiment: "e", subject: subject(1), proposedArm: "b", timeMilliseconds: 5) == .init(arm: "a", isFirst: false))
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 0).map(\.requestId) == ["req-00004"])
        await store.close()
        await #expect(throws: StoreError.closed) { try await store.migrate() }
    }

    static func writtenTwice(_ fixture: StoreFixture) async throws {
        let store = try fixture.open()
        _ = try await store.migrate()
        let batch = (0..<30).map { decision($0, time: 1_000 + Int64($0), subject: subject($0)) }
        #expect(try await store.record(decisions: batch) == 30)
        // The same batch again (a retry), and one that overlaps it: only the new decisions are added.
        #expect(try await store.record(decisions: batch) == 0)
        let overlapping = Array(batch.suffix(10)) + (30..<40).map { decision($0, time: 1_000 + Int64($0), subject: subject($0)) }
        #expect(try await store.record(decisions: overlapping) == 10)
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 0).map(\.requestId) == (0..<40).map { String(format: "req-%05d", $0) })
        // Two servers writing the same batch at once: one row each.
        let other = try fixture.open()
        let shared = (40..<60).map { decision($0, time: 2_000 + Int64($0), subject: subject($0)) }
        async let mine = store.record(decisions: shared)
        async let theirs = other.record(decisions: shared)
        #expect(try await mine + theirs == 20)
        // A decision without a key (one not made by a server) is appended each time, as before version 2.
        var keyless = decision(90, time: 3_000, subject: subject(90))
        keyless.id = nil
        #expect(try await store.record(decisions: [keyless]) == 1)
        #expect(try await store.record(decisions: [keyless]) == 1)
        let all = try await store.exposures(product: nil, sinceMilliseconds: 0)
        #expect(all.count == 62)
        #expect(Set(all.compactMap(\.id)).count == 60)
        await other.close()
        await store.close()
    }

    /// Holds the decisions table against writers, in a transaction on a store of its own, until
    /// `release` is signalled (at most `seconds`); `held` is set once the lock is taken.
    static func holdDecisions(
        _ backend: StoreFixture.Backend, _ blocker: ExperimentStore, held: Flag, release: DispatchSemaphore, seconds: Double
    ) async throws {
        let lock = backend == .postgreSQL ? "LOCK TABLE decisions IN EXCLUSIVE MODE" : nil
        try await blocker.bulkLane.run(deadline: nil) { connection throws(StoreError) in
            // SQLite's transaction takes the write lock as it begins (BEGIN IMMEDIATE).
            try connection.transaction { () throws(StoreError) in
                if let lock { _ = try connection.execute(lock, []) }
                held.set()
                _ = release.wait(timeout: .now() + seconds)
            }
        }
    }

    /// Waits, in steps of 10 ms and at most `seconds`, until `isDone`.
    static func wait(seconds: Double, until isDone: () -> Bool) async -> Bool {
        for _ in 0..<Int(seconds * 100) {
            if isDone() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return isDone()
    }

    static func timedOutAfterCommit(_ fixture: StoreFixture) async throws {
        // The write waits for the lock far longer than its deadline (a second: long enough for
        // the store's thread to come to it on a loaded machine), so it commits once released.
        let store = try fixture.open(.init(busyTimeoutMilliseconds: 60_000, connectTimeoutSeconds: 5, statementTimeoutMilliseconds: 60_000))
        _ = try await store.migrate()
        let blocker = try fixture.open()
        let held = Flag()
        let release = DispatchSemaphore(value: 0)
        let backend = fixture.backend
        // The hold's bound is far off: released by the test, it only ends a test that failed
        // first, and on a loaded machine the write may not start for seconds.
        let holding = Task(executorPreference: WaitingThreads.shared) { try await holdDecisions(backend, blocker, held: held, release: release, seconds: 120) }
        #expect(await wait(seconds: 60) { held.isSet })
        // The write waits for the lock past its deadline: the caller gets .timedOut, while the
        // store's thread still holds the write, which commits once the lock is released.
        let batch = (0..<25).map { decision($0, time: 1_000 + Int64($0), subject: subject($0)) }
        await #expect(throws: StoreError.timedOut) {
            try await store.record(decisions: batch, deadline: .now + .seconds(1))
        }
        release.signal()
        try await holding.value
        // A call without a deadline runs after the timed-out write on the same thread: by then it has committed.
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 0).count == 25)
        // The retry stores nothing twice.
        #expect(try await store.record(decisions: batch) == 0)
        let rows = try await store.exposures(product: nil, sinceMilliseconds: 0)
        #expect(rows.count == 25 && Set(rows.compactMap(\.id)).count == 25)
        await blocker.close()
        await store.close()
    }

    /// Version 1's tables, written by hand as an msgc of that version made them, with two decisions.
    static let version1Decision = """
        INSERT INTO decisions (time_ms, environment, request_id, product, device_locale, answering_locale, experiment_id,
            arms, bundle_digest, arm, answer_kind, answer, snapshot_generation, subject_hash, assignment)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
        """

    static func fromVersion1(_ fixture: StoreFixture) async throws {
        let old = try fixture.open()
        let written = [decision(1, time: 1_000, subject: subject(1)), decision(2, time: 1_001, subject: subject(2))]
        _ = try await old.bulkLane.run(deadline: nil) { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                _ = try connection.execute(Schema.createVersionTable, [])
                for statement in Schema.migrations[0] { _ = try connection.execute(statement, []) }
                _ = try connection.execute("INSERT INTO schema_version (version) VALUES (1)", [])
                for decision in written {
                    _ = try connection.execute(version1Decision, Array(ExperimentStore.parameters(decision).prefix(15)))
                }
            }
        }
        _ = try await old.settleAssignment(experiment: "e", subject: subject(1), proposedArm: "a", timeMilliseconds: 1_000)
        await old.close()

        let store = try fixture.open()
        #expect(try await store.migrate() == .init(fromVersion: 1, toVersion: ExperimentStore.schemaVersion))
        // Version 1's rows are kept, without a key.
        var keyless = written
        for index in keyless.indices { keyless[index].id = nil }
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 0) == keyless)
        #expect(try await store.assignments(experiment: "e").map(\.arm) == ["a"])
        // New decisions are keyed, and stored once.
        let batch = (3..<8).map { decision($0, time: 1_100 + Int64($0), subject: subject($0)) }
        #expect(try await store.record(decisions: batch) == 5)
        #expect(try await store.record(decisions: batch) == 0)
        #expect(try await store.exposures(product: nil, sinceMilliseconds: 0) == keyless + batch)
        await store.close()
    }

    static func settleRacingAnInsert(_ fixture: StoreFixture) async throws {
        let store = try fixture.open()
        _ = try await store.migrate()
        // Another server inserts the subscriber's row in a transaction and commits it only after
        // this server's settlement has started and waits for it: the settlement's insert then
        // finds the row, which the statement's own snapshot did not have (PostgreSQL's second
        // round trip), and answers with their arm.
        let other = try fixture.open()
        let held = Flag()
        let release = DispatchSemaphore(value: 0)
        let theirs = Task(executorPreference: WaitingThreads.shared) {
            try await other.bulkLane.run(deadline: nil) { connection throws(StoreError) in
                try connection.transaction { () throws(StoreError) in
                    _ = try connection.execute(ExperimentStore.insertAssignment, [.text("e"), .text(subject(7).hex), .text("theirs"), .integer(5)])
                    held.set()
                    // Released by the test; the bound only ends a test that failed first.
                    _ = release.wait(timeout: .now() + 120)
                }
            }
        }
        // Bounds far off: in a full run at a load of 6 the holder took more than 10 s to come
        // to its insert.
        #expect(await wait(seconds: 60) { held.isSet })
        async let mine = store.settleAssignment(experiment: "e", subject: subject(7), proposedArm: "mine", timeMilliseconds: 6)
        try await Task.sleep(for: .milliseconds(200))
        release.signal()
        try await theirs.value
        #expect(try await mine == .init(arm: "theirs", isFirst: false))
        #expect(try await store.assignments(experiment: "e").map(\.arm) == ["theirs"])
        // And the plain cases: a new subscriber is first, a known one gets their arm.
        #expect(try await store.settleAssignment(experiment: "e", subject: subject(8), proposedArm: "mine", timeMilliseconds: 7) == .init(arm: "mine", isFirst: true))
        #expect(try await other.settleAssignment(experiment: "e", subject: subject(8), proposedArm: "theirs", timeMilliseconds: 8) == .init(arm: "mine", isFirst: false))
        await other.close()
        await store.close()
    }
}

@Suite(.ownThreads) struct ExperimentStoreTests {
    @Test(arguments: StoreCheck.allCases)
    func sqlite(_ check: StoreCheck) async throws {
        try await check.run(StoreFixture(.sqlite))
    }

    @Test(.enabled(if: PostgreSQLServer.binaries != nil, Comment(rawValue: PostgreSQLServer.absence)), arguments: StoreCheck.allCases)
    func postgreSQL(_ check: StoreCheck) async throws {
        try await check.run(StoreFixture(.postgreSQL))
    }

    /// The SQLite file, its log included, never holds a subscriber's originalTransactionId, and
    /// other users cannot read it.
    @Test func noTransactionIdInClear() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try fixture.open()
        _ = try await store.migrate()
        let id = "2000000987654321"
        let subject = StoreCheck.key.hash(originalTransactionId: id)
        try await store.record(decisions: [StoreCheck.decision(1, time: 1, subject: subject)])
        _ = try await store.settleAssignment(experiment: "e", subject: subject, proposedArm: "a", timeMilliseconds: 1)
        _ = try await store.store(notification: StoreCheck.notification("u", subject: subject, signed: 1, received: 1))
        var bytes = Data()
        for suffix in ["", "-wal"] {
            bytes += (try? Data(contentsOf: fixture.folder.appendingPathComponent("store.db" + suffix))) ?? Data()
        }
        #expect(bytes.range(of: Data(subject.hex.utf8)) != nil)
        #expect(bytes.range(of: Data(id.utf8)) == nil)
        // A store msgc made is for its server alone.
        var status = stat()
        #expect(stat(fixture.folder.appendingPathComponent("store.db").path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        await store.close()
    }
}
