/// The store's tables, one migration per schema version, the same SQL for SQLite and
/// PostgreSQL (docs/experiments-store.md describes them). A migration is a list of single
/// statements run in one transaction with the row that records it in `schema_version`; a
/// migration, once released, is never edited: a change is the next version.
///
/// Times are BIGINT milliseconds since 1970 (UTC), flags INTEGER 0 or 1, subscribers the hex
/// HMAC of `SubjectKey`, never an originalTransactionId.
enum Schema {
    /// The newest version this msgc knows.
    static var version: Int { migrations.count }

    static let createVersionTable = """
        CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)
        """

    static let migrations: [[String]] = [
        // 1: the decision log, the assignments and the notifications.
        [
            """
            CREATE TABLE decisions (
                time_ms BIGINT NOT NULL,
                environment TEXT NOT NULL,
                request_id TEXT NOT NULL,
                product TEXT NOT NULL,
                device_locale TEXT NOT NULL,
                answering_locale TEXT,
                experiment_id TEXT NOT NULL,
                arms TEXT NOT NULL,
                bundle_digest TEXT NOT NULL,
                arm TEXT,
                answer_kind TEXT NOT NULL,
                answer TEXT,
                snapshot_generation BIGINT NOT NULL,
                subject_hash TEXT,
                assignment TEXT NOT NULL CHECK (assignment IN ('first', 'sticky', 'marked', 'hashed', 'none'))
            )
            """,
            // The report reads a product's exposures from a date; --keep deletes by time alone.
            "CREATE INDEX decisions_product_time ON decisions (product, time_ms)",
            "CREATE INDEX decisions_time ON decisions (time_ms)",
            "CREATE INDEX decisions_experiment_subject ON decisions (experiment_id, subject_hash)",
            """
            CREATE TABLE assignments (
                experiment_id TEXT NOT NULL,
                subject_hash TEXT NOT NULL,
                arm TEXT NOT NULL,
                first_time_ms BIGINT NOT NULL,
                PRIMARY KEY (experiment_id, subject_hash)
            )
            """,
            "CREATE INDEX assignments_first_time ON assignments (first_time_ms)",
            """
            CREATE TABLE notifications (
                notification_uuid TEXT PRIMARY KEY,
                subject_hash TEXT NOT NULL,
                signed_date_ms BIGINT NOT NULL,
                type TEXT NOT NULL,
                subtype TEXT,
                offer_identifier TEXT,
                auto_renew_product_id TEXT,
                auto_renew_status INTEGER,
                environment TEXT NOT NULL,
                received_ms BIGINT NOT NULL,
                is_relevant INTEGER NOT NULL CHECK (is_relevant IN (0, 1))
            )
            """,
            // The report reads a subscriber's notifications in signedDate order; --keep deletes by
            // the time they came.
            "CREATE INDEX notifications_subject_signed ON notifications (subject_hash, signed_date_ms)",
            "CREATE INDEX notifications_received ON notifications (received_ms)",
        ],
        // 2: each decision's own key, made by the server that answered (`Decision.id`), so that a
        // batch written twice keeps one row of each decision: the retry of a batch whose write
        // timed out after the store had committed it, or whose COMMIT was lost with the
        // connection. The insert does nothing on a key it finds (`ON CONFLICT (decision_id) DO
        // NOTHING`). Rows written before this version have none: NULL, which the unique index
        // allows any number of, in both databases.
        [
            "ALTER TABLE decisions ADD COLUMN decision_id TEXT",
            "CREATE UNIQUE INDEX decisions_decision_id ON decisions (decision_id)",
        ],
    ]
}
