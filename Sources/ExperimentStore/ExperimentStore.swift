import Foundation

/// The experiment store: the decision log, each subscriber's arm, and the App Store Server
/// Notifications that say what they did next, in a SQLite file (one server) or PostgreSQL
/// (several servers on one database). docs/experiments-store.md describes the tables.
///
/// Every call is async and runs on the connection's own thread (`ConnectionThread`), never on
/// Swift's cooperative pool; every call takes an optional deadline, past which it throws
/// `.timedOut` at once and the work finishes, or is dropped, on that thread. A store that is
/// down throws `.unavailable`; the next call tries to connect again.
///
/// PostgreSQL gets two connections: one for the answer path (`settleAssignment`, `store`), so
/// a batch of the decision log never delays a settlement, and one for the rest. SQLite gets one,
/// so the store is its file's single writer within the process; calls with a deadline go
/// first in its queue.
public final class ExperimentStore: Sendable {
    /// The newest schema version this msgc creates and reads.
    public static var schemaVersion: Int { Schema.version }

    public struct Options: Sendable {
        /// SQLite: how long a write waits for another process's write lock.
        public var busyTimeoutMilliseconds: Int
        /// PostgreSQL: how long a connection attempt may take (unless the URI sets `connect_timeout`).
        public var connectTimeoutSeconds: Int
        /// PostgreSQL: the session's `statement_timeout`.
        public var statementTimeoutMilliseconds: Int

        public init(busyTimeoutMilliseconds: Int = 2_000, connectTimeoutSeconds: Int = 5, statementTimeoutMilliseconds: Int = 5_000) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
        }
    }

    /// What `migrate` did: the version found (0 for a new database) and the one it left.
    public struct Migration: Equatable, Sendable {
        public var fromVersion: Int
        public var toVersion: Int
    }

    /// A subscriber's arm in an experiment, and whether this call recorded it.
    public struct Settled: Equatable, Sendable {
        public var arm: String
        /// True when this call's proposed arm became theirs; false when another call (or
        /// another server) had settled one first, which `arm` then is.
        public var isFirst: Bool
    }

    /// One row of `assignments`.
    public struct Assignment: Equatable, Sendable {
        public var subject: SubjectHash
        public var arm: String
        public var firstTimeMilliseconds: Int64
    }

    public enum NotificationReceipt: Equatable, Sendable {
        case inserted
        /// A notification of this UUID was stored before: Apple's retry, or another server's copy.
        case duplicate
    }

    /// How many rows `deleteOlder` removed from each table.
    public struct Deleted: Equatable, Sendable {
        public var decisions: Int
        public var assignments: Int
        public var notifications: Int
    }

    public let url: StoreURL
    let answerLane: ConnectionThread
    let bulkLane: ConnectionThread

    /// Starts the store's connection threads. Nothing is connected yet; a SQLite path is
    /// checked now, so a wrong one is a usage error at start-up.
    public init(url: StoreURL, options: Options = Options()) throws(StoreError) {
        self.url = url
        switch url {
        case .sqlite(let path):
            try SQLiteFile.check(path)
            let busy = options.busyTimeoutMilliseconds
            answerLane = ConnectionThread(name: "msgc-store-sqlite") { SQLiteConnection(path: path, busyTimeoutMilliseconds: busy) }
            bulkLane = answerLane
        case .postgreSQL(let uri):
            let make: @Sendable () -> any SQLConnection = {
                PostgreSQLConnection(
                    uri: uri, connectTimeoutSeconds: options.connectTimeoutSeconds,
                    statementTimeoutMilliseconds: options.statementTimeoutMilliseconds)
            }
            answerLane = ConnectionThread(name: "msgc-store-pg-answer", connect: make)
            bulkLane = ConnectionThread(name: "msgc-store-pg-bulk", connect: make)
        }
    }

    deinit {
        answerLane.close {}
        bulkLane.close {}
    }

    /// Lets the calls already made finish, then closes the connections.
    public func close() async {
        await answerLane.close()
        await bulkLane.close()
    }

    /// Creates the tables or brings them to `schemaVersion`, in one transaction; a second call
    /// changes nothing. A database of a newer version is refused (`.schemaTooNew`), untouched.
    public func migrate(deadline: ContinuousClock.Instant? = nil) async throws(StoreError) -> Migration {
        try await bulkLane.run(deadline: deadline) { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                for statement in connection.migrationLock { _ = try connection.query(statement, []) }
                _ = try connection.execute(Schema.createVersionTable, [])
                let found = try Self.integer(connection.query("SELECT MAX(version) FROM schema_version", []).first?.first ?? nil, "schema_version") ?? 0
                guard found <= Schema.version else { throw .schemaTooNew(found: Int(found), known: Schema.version) }
                for version in Int(found) + 1 ..< Schema.version + 1 {
                    for statement in Schema.migrations[version - 1] { _ = try connection.execute(statement, []) }
                    _ = try connection.execute("INSERT INTO schema_version (version) VALUES ($1)", [.integer(Int64(version))])
                }
                return Migration(fromVersion: Int(found), toVersion: Schema.version)
            }
        }
    }

    static let insertDecision = """
        INSERT INTO decisions (time_ms, environment, request_id, product, device_locale, answering_locale, experiment_id,
            arms, bundle_digest, arm, answer_kind, answer, snapshot_generation, subject_hash, assignment, decision_id)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
        ON CONFLICT (decision_id) DO NOTHING
        """

    /// Appends `decisions` to the log in one transaction: all of them or none. A decision whose
    /// `id` is stored already is left as it is, so writing a batch again (the retry of one whose
    /// write timed out after the store committed it) stores no decision twice. Returns how many
    /// rows this call added.
    @discardableResult
    public func record(decisions: [Decision], deadline: ContinuousClock.Instant? = nil) async throws(StoreError) -> Int {
        guard !decisions.isEmpty else { return 0 }
        return try await bulkLane.run(deadline: deadline) { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                var added = 0
                for decision in decisions {
                    added += try connection.execute(Self.insertDecision, Self.parameters(decision))
                }
                return added
            }
        }
    }

    /// A decision's values, in the order of `insertDecision`'s parameters.
    static func parameters(_ decision: Decision) -> [SQLValue] {
        [
            .integer(decision.timeMilliseconds), .text(decision.environment), .text(decision.requestId),
            .text(decision.product), .text(decision.deviceLocale), SQLValue(decision.answeringLocale),
            .text(decision.experimentId), .text(decision.arms), .text(decision.bundleDigest), SQLValue(decision.arm),
            .text(decision.answerKind), SQLValue(decision.answer), .integer(decision.snapshotGeneration),
            SQLValue(decision.subject?.hex), .text(decision.assignment.rawValue), SQLValue(decision.id),
        ]
    }

    /// PostgreSQL's settlement in one statement, so one round trip: the insert (nothing on a
    /// row that exists) and a read of the row that existed, flagged 1 and 0. Every part of a
    /// statement reads the snapshot it started with, so the read never sees the row the insert
    /// adds (an insert gives only its own row), and a row another server committed after that
    /// snapshot and before the insert's conflict check is seen by neither part: no row, and the
    /// caller reads it with a statement of its own (`selectArm`), the second round trip of that
    /// race alone. `INSERT … ON CONFLICT DO UPDATE … RETURNING` would always return the row, but
    /// would write a new version of it at every settlement, the sticky ones included; SQLite
    /// has no data-modifying WITH, and its two statements cost no network.
    static let settleInOneStatement = """
        WITH inserted AS (
            INSERT INTO assignments (experiment_id, subject_hash, arm, first_time_ms) VALUES ($1, $2, $3, $4)
            ON CONFLICT (experiment_id, subject_hash) DO NOTHING
            RETURNING arm
        )
        SELECT arm, 1 FROM inserted
        UNION ALL
        SELECT arm, 0 FROM assignments WHERE experiment_id = $1 AND subject_hash = $2
        """

    static let insertAssignment = """
        INSERT INTO assignments (experiment_id, subject_hash, arm, first_time_ms) VALUES ($1, $2, $3, $4)
        ON CONFLICT (experiment_id, subject_hash) DO NOTHING
        """

    static let selectArm = "SELECT arm FROM assignments WHERE experiment_id = $1 AND subject_hash = $2"

    /// The subscriber's arm in the experiment: `proposedArm` if they have none yet (recorded
    /// now, at `timeMilliseconds`), else the one recorded first. Atomic across connections and
    /// servers: the insert does nothing when a row exists, and the row then read is the winner's.
    /// One round trip on PostgreSQL (`settleInOneStatement`) but in a race with another server;
    /// SQLite inserts, then reads only when the row existed.
    public func settleAssignment(
        experiment: String, subject: SubjectHash, proposedArm: String, timeMilliseconds: Int64,
        deadline: ContinuousClock.Instant? = nil
    ) async throws(StoreError) -> Settled {
        let isPostgreSQL = if case .postgreSQL = url { true } else { false }
        return try await answerLane.run(deadline: deadline) { connection throws(StoreError) in
            let row: [SQLValue] = [.text(experiment), .text(subject.hex), .text(proposedArm), .integer(timeMilliseconds)]
            if isPostgreSQL {
                let rows = try connection.query(Self.settleInOneStatement, row)
                // Both rows only when the one read was deleted (`--keep`) after the snapshot
                // and this insert then made the subscriber's new one: that is theirs now.
                if let inserted = rows.first(where: { $0.count == 2 && $0[1] == "1" }), let arm = inserted[0] {
                    return Settled(arm: arm, isFirst: true)
                }
                if let existing = rows.first, existing.count == 2, let arm = existing[0] { return Settled(arm: arm, isFirst: false) }
            } else if try connection.execute(Self.insertAssignment, row) == 1 {
                return Settled(arm: proposedArm, isFirst: true)
            }
            let rows = try connection.query(Self.selectArm, [.text(experiment), .text(subject.hex)])
            // Deleted by --keep between the two statements: the next call settles it again.
            guard let arm = rows.first?.first ?? nil else { throw .unavailable("the assignment was deleted while it was read") }
            return Settled(arm: arm, isFirst: false)
        }
    }

    /// Every assignment of an experiment, by subscriber.
    public func assignments(experiment: String, deadline: ContinuousClock.Instant? = nil) async throws(StoreError) -> [Assignment] {
        try await bulkLane.run(deadline: deadline) { connection throws(StoreError) in
            try connection.query(
                "SELECT subject_hash, arm, first_time_ms FROM assignments WHERE experiment_id = $1 ORDER BY subject_hash",
                [.text(experiment)]
            ).map { row throws(StoreError) in
                let reader = RowReader(row, table: "assignments")
                return Assignment(
                    subject: SubjectHash(hex: try reader.text(0)), arm: try reader.text(1), firstTimeMilliseconds: try reader.integer(2))
            }
        }
    }

    /// Stores the notification unless one of its UUID is stored already.
    public func store(notification: StoredNotification, deadline: ContinuousClock.Instant? = nil) async throws(StoreError) -> NotificationReceipt {
        try await answerLane.run(deadline: deadline) { connection throws(StoreError) in
            let inserted = try connection.execute(
                """
                INSERT INTO notifications (notification_uuid, subject_hash, signed_date_ms, type, subtype, offer_identifier,
                    auto_renew_product_id, auto_renew_status, environment, received_ms, is_relevant)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                ON CONFLICT (notification_uuid) DO NOTHING
                """,
                [
                    .text(notification.notificationUUID), .text(notification.subject.hex), .integer(notification.signedDateMilliseconds),
                    .text(notification.type), SQLValue(notification.subtype), SQLValue(notification.offerIdentifier),
                    SQLValue(notification.autoRenewProductId), SQLValue(notification.autoRenewStatus.map(Int64.init)),
                    .text(notification.environment), .integer(notification.receivedMilliseconds),
                    .integer(notification.isRelevant ? 1 : 0),
                ])
            return inserted == 1 ? .inserted : .duplicate
        }
    }

    static let decisionColumns = """
        time_ms, environment, request_id, product, device_locale, answering_locale, experiment_id, arms, bundle_digest,
        arm, answer_kind, answer, snapshot_generation, subject_hash, assignment, decision_id
        """

    /// The decisions that name a subscriber, from `sinceMilliseconds` on, of one product or
    /// all, in time order (ties by request id): what the report counts as exposures.
    public func exposures(
        product: String?, sinceMilliseconds: Int64, deadline: ContinuousClock.Instant? = nil
    ) async throws(StoreError) -> [Decision] {
        try await bulkLane.run(deadline: deadline) { connection throws(StoreError) in
            let rows = if let product {
                try connection.query(
                    """
                    SELECT \(Self.decisionColumns) FROM decisions
                    WHERE product = $1 AND time_ms >= $2 AND subject_hash IS NOT NULL ORDER BY time_ms, request_id
                    """, [.text(product), .integer(sinceMilliseconds)])
            } else {
                try connection.query(
                    """
                    SELECT \(Self.decisionColumns) FROM decisions
                    WHERE time_ms >= $1 AND subject_hash IS NOT NULL ORDER BY time_ms, request_id
                    """, [.integer(sinceMilliseconds)])
            }
            return try rows.map { row throws(StoreError) in try Self.decision(RowReader(row, table: "decisions")) }
        }
    }

    static let notificationColumns = """
        notification_uuid, subject_hash, signed_date_ms, type, subtype, offer_identifier, auto_renew_product_id,
        auto_renew_status, environment, received_ms, is_relevant
        """

    /// The relevant notifications signed from `sinceMilliseconds` on, of the subscribers
    /// exposed to the product (or to any) since then, by subscriber and signedDate (ties by UUID).
    public func events(
        product: String?, sinceMilliseconds: Int64, deadline: ContinuousClock.Instant? = nil
    ) async throws(StoreError) -> [StoredNotification] {
        try await bulkLane.run(deadline: deadline) { connection throws(StoreError) in
            let exposed = product == nil
                ? "SELECT subject_hash FROM decisions WHERE time_ms >= $1 AND subject_hash IS NOT NULL"
                : "SELECT subject_hash FROM decisions WHERE time_ms >= $1 AND product = $2 AND subject_hash IS NOT NULL"
            let rows = try connection.query(
                """
                SELECT \(Self.notificationColumns) FROM notifications
                WHERE is_relevant = 1 AND signed_date_ms >= $1 AND subject_hash IN (\(exposed))
                ORDER BY subject_hash, signed_date_ms, notification_uuid
                """, [.integer(sinceMilliseconds)] + (product.map { [SQLValue.text($0)] } ?? []))
            return try rows.map { row throws(StoreError) in try Self.notification(RowReader(row, table: "notifications")) }
        }
    }

    /// Deletes what is older than `thanMilliseconds` (`--keep`), in one transaction: decisions
    /// by their time, notifications by when they came, and assignments first made before then
    /// whose subscriber has no decision left in that experiment (a subscriber still seen keeps
    /// their arm).
    public func deleteOlder(thanMilliseconds cutoff: Int64, deadline: ContinuousClock.Instant? = nil) async throws(StoreError) -> Deleted {
        try await bulkLane.run(deadline: deadline) { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                let decisions = try connection.execute("DELETE FROM decisions WHERE time_ms < $1", [.integer(cutoff)])
                let assignments = try connection.execute(
                    """
                    DELETE FROM assignments WHERE first_time_ms < $1 AND NOT EXISTS (
                        SELECT 1 FROM decisions
                        WHERE decisions.experiment_id = assignments.experiment_id AND decisions.subject_hash = assignments.subject_hash)
                    """, [.integer(cutoff)])
                let notifications = try connection.execute("DELETE FROM notifications WHERE received_ms < $1", [.integer(cutoff)])
                return Deleted(decisions: decisions, assignments: assignments, notifications: notifications)
            }
        }
    }

    private static func decision(_ row: RowReader) throws(StoreError) -> Decision {
        guard let assignment = Decision.Assignment(rawValue: try row.text(14)) else {
            throw .failed("a row of decisions has an unknown assignment '\(try row.text(14))'")
        }
        return Decision(
            timeMilliseconds: try row.integer(0), environment: try row.text(1), requestId: try row.text(2),
            product: try row.text(3), deviceLocale: try row.text(4), answeringLocale: row.optionalText(5),
            experimentId: try row.text(6), arms: try row.text(7), bundleDigest: try row.text(8), arm: row.optionalText(9),
            answerKind: try row.text(10), answer: row.optionalText(11), snapshotGeneration: try row.integer(12),
            subject: row.optionalText(13).map(SubjectHash.init(hex:)), assignment: assignment, id: row.optionalText(15))
    }

    private static func notification(_ row: RowReader) throws(StoreError) -> StoredNotification {
        StoredNotification(
            notificationUUID: try row.text(0), subject: SubjectHash(hex: try row.text(1)), signedDateMilliseconds: try row.integer(2),
            type: try row.text(3), subtype: row.optionalText(4), offerIdentifier: row.optionalText(5),
            autoRenewProductId: row.optionalText(6), autoRenewStatus: try row.optionalInteger(7).map(Int.init),
            environment: try row.text(8), receivedMilliseconds: try row.integer(9), isRelevant: try row.integer(10) == 1)
    }

    static func integer(_ text: String?, _ table: String) throws(StoreError) -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text) else { throw .failed("\(table) holds '\(text)' where a number belongs") }
        return value
    }
}

/// The columns of one row, read as the types the schema gives them.
struct RowReader {
    let row: [String?]
    let table: String

    init(_ row: [String?], table: String) {
        self.row = row
        self.table = table
    }

    func optionalText(_ column: Int) -> String? {
        column < row.count ? row[column] : nil
    }

    func text(_ column: Int) throws(StoreError) -> String {
        guard let text = optionalText(column) else { throw .failed("a row of \(table) has no value in column \(column + 1)") }
        return text
    }

    func optionalInteger(_ column: Int) throws(StoreError) -> Int64? {
        try ExperimentStore.integer(optionalText(column), table)
    }

    func integer(_ column: Int) throws(StoreError) -> Int64 {
        guard let value = try optionalInteger(column) else { throw .failed("a row of \(table) has no value in column \(column + 1)") }
        return value
    }
}
