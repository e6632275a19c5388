import CSQLite

/// A connection to a SQLite file, opened on first use: WAL journal (readers never wait for the
/// writer), a busy timeout (a writer waits that long for another process's write lock, then
/// the call fails as `.unavailable`), and each statement prepared once and kept.
///
/// One store holds one connection and so is the only writer of its process; another process
/// on the same file waits its turn through the busy timeout.
final class SQLiteConnection: SQLConnection {
    private let path: String
    private let busyTimeoutMilliseconds: Int32
    private var database: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, busyTimeoutMilliseconds: Int) {
        self.path = path
        self.busyTimeoutMilliseconds = Int32(clamping: busyTimeoutMilliseconds)
    }

    deinit { close() }

    let beginWrite = "BEGIN IMMEDIATE"
    let migrationLock: [String] = []

    func attempt<T>(_ operation: (any SQLConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try operation(self)
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let database { sqlite3_close_v2(database) }
        database = nil
    }

    private func opened() throws(StoreError) -> OpaquePointer {
        if let database { return database }
        try SQLiteFile.check(path)
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw .unavailable("cannot open '\(path)': \(reason)")
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        database = handle
        do throws(StoreError) {
            let mode = try query("PRAGMA journal_mode=WAL", [])
            guard mode.first?.first??.lowercased() == "wal" else {
                throw .unavailable("'\(path)' cannot use SQLite's WAL journal")
            }
            _ = try execute("PRAGMA synchronous=NORMAL", [])
        } catch {
            close()
            throw error
        }
        return handle
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        let database = try opened()
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, database) }
        statements[sql] = statement
        return statement
    }

    private func bound(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> OpaquePointer {
        let statement = try prepared(sql)
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in parameters.enumerated() {
            let index = sqlite3_bind_parameter_index(statement, "$\(offset + 1)")
            guard index > 0 else { throw .failed("the statement has no parameter $\(offset + 1): \(sql)") }
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
            case .text(let text): sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), msgc_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
            guard code == SQLITE_OK else { throw failure(code, sqlite3_db_handle(statement)) }
        }
        return statement
    }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int {
        let statement = try bound(sql, parameters)
        defer { sqlite3_reset(statement) }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            if code != SQLITE_ROW { throw failure(code, sqlite3_db_handle(statement)) }
        }
        return Int(sqlite3_changes64(sqlite3_db_handle(statement)))
    }

    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[String?]] {
        let statement = try bound(sql, parameters)
        defer { sqlite3_reset(statement) }
        var rows: [[String?]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(code, sqlite3_db_handle(statement)) }
            let columns = sqlite3_column_count(statement)
            rows.append((0..<columns).map { column in
                guard sqlite3_column_type(statement, column) != SQLITE_NULL, let text = sqlite3_column_text(statement, column) else {
                    return nil
                }
                return String(cString: text)
            })
        }
        return rows
    }

    /// A failed call as the store reports it: what waiting or freeing space may cure is
    /// `.unavailable`, the rest `.failed`.
    private func failure(_ code: Int32, _ database: OpaquePointer?) -> StoreError {
        let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .unavailable("'\(path)' is locked by another writer (waited \(busyTimeoutMilliseconds) ms): \(message)")
        case SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PROTOCOL, SQLITE_NOMEM:
            return .unavailable("'\(path)': \(message)")
        default:
            return .failed("'\(path)': \(message)")
        }
    }
}
