import CPostgreSQL
import Foundation

/// A connection to PostgreSQL through libpq, made on first use and made again after it is lost.
///
/// Statements go with their values as parameters (`PQexecParams`, text format), never written
/// into the SQL. The password is libpq's business: `StoreURL` refused one in the URI, and libpq
/// reads `PGPASSWORD` or the passfile itself. Each session sets `statement_timeout`, so a
/// statement stuck behind a lock ends as `.unavailable` instead of holding the thread.
final class PostgreSQLConnection: SQLConnection {
    private let uri: String
    private let connectTimeoutSeconds: Int
    private let statementTimeoutMilliseconds: Int
    private var connection: OpaquePointer?

    init(uri: String, connectTimeoutSeconds: Int, statementTimeoutMilliseconds: Int) {
        self.uri = uri
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
    }

    deinit { close() }

    let beginWrite = "BEGIN"
    // Any fixed number, the same in every msgc: the lock is held until the transaction ends.
    let migrationLock = ["SELECT pg_advisory_xact_lock(4747001)"]

    func attempt<T>(_ operation: (any SQLConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        let hadConnection = connection != nil
        do {
            return try operation(self)
        } catch .unavailable(let reason) {
            // A connection made before this call and lost during it: the server restarted or
            // dropped idle sessions. Once more on a new one; a store that is down fails again.
            guard hadConnection, connection == nil else { throw .unavailable(reason) }
            return try operation(self)
        }
    }

    func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    private func connected() throws(StoreError) -> OpaquePointer {
        if let connection {
            if PQstatus(connection) == CONNECTION_OK { return connection }
            close()
        }
        // Defaults first: the URI's own values, expanded from `dbname`, override them.
        let keywords = ["connect_timeout", "application_name", "client_encoding", "dbname"]
        let values = ["\(connectTimeoutSeconds)", "msgc-realtime", "UTF8", uri]
        let made = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let made else { throw .unavailable("libpq cannot allocate a connection") }
        guard PQstatus(made) == CONNECTION_OK else {
            let reason = Self.trimmed(PQerrorMessage(made))
            PQfinish(made)
            throw .unavailable("cannot connect to PostgreSQL: \(reason)")
        }
        // The server's notices ("relation … already exists, skipping" from the migration's
        // IF NOT EXISTS) are not for the server's operator: libpq would print each on standard
        // error.
        PQsetNoticeProcessor(made, { _, _ in }, nil)
        connection = made
        do {
            _ = try run("SELECT set_config('statement_timeout', $1, false)", [.text("\(statementTimeoutMilliseconds)")])
        } catch {
            close()
            throw error
        }
        return made
    }

    func execute(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[String?]] {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        return (0..<rowCount).map { row in
            (0..<columnCount).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : PQgetvalue(result, row, column).map { String(cString: $0) }
            }
        }
    }

    private func run(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> OpaquePointer {
        let connection = try connected()
        let texts: [String?] = parameters.map {
            switch $0 {
            case .null: nil
            case .integer(let integer): "\(integer)"
            case .text(let text): text
            }
        }
        let copies = texts.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        let result = pointers.withUnsafeBufferPointer {
            PQexecParams(connection, sql, Int32(pointers.count), nil, $0.baseAddress, nil, nil, 0)
        }
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, let result { return result }
        let message = Self.trimmed(result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(connection))
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        if let result { PQclear(result) }
        if PQstatus(connection) != CONNECTION_OK {
            close()
            throw .unavailable("lost the connection to PostgreSQL: \(message)")
        }
        // Connection exceptions (08), a server shutting down (57P), a statement cancelled by
        // statement_timeout (57014), lock waits (55P03), want of resources (53), a transaction
        // to retry (40): all cured by time, none by changing the data.
        if state.hasPrefix("08") || state.hasPrefix("57") || state.hasPrefix("53") || state.hasPrefix("40") || state == "55P03" {
            throw .unavailable("PostgreSQL: \(message)")
        }
        throw .failed("PostgreSQL: \(message.isEmpty ? "error \(state)" : message)")
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { trimmed(String(cString: $0)) } ?? ""
    }

    /// libpq's message on one line: it writes a hint on a line of its own, indented with a tab
    /// ("…failed: Connection refused\n\tIs the server running…"), which msgc's one-line
    /// messages would show escaped.
    private static func trimmed(_ message: String) -> String {
        message.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// `body` with `strings` as a NULL-terminated array of C strings (as PQconnectdbParams reads
/// its keywords and values), valid for the call only.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
