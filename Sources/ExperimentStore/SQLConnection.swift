/// A value bound to a statement's parameter (`$1`, `$2`, … in both dialects).
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)

    init(_ text: String?) {
        self = text.map { .text($0) } ?? .null
    }

    init(_ integer: Int64?) {
        self = integer.map { .integer($0) } ?? .null
    }
}

/// One database connection, used by one thread only (`ConnectionThread`): SQLite or PostgreSQL
/// behind the few calls the store's statements need. Every statement is a fixed text with
/// `$n` parameters; no value is ever written into SQL.
protocol SQLConnection: AnyObject {
    /// Runs a statement and returns how many rows it changed.
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int
    /// Runs a query and returns its rows, every column as text (nil for NULL).
    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[String?]]
    /// What starts a transaction that will write: SQLite takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so a transaction never fails half-way for want of it.
    var beginWrite: String { get }
    /// Statements run first in a migration's transaction: PostgreSQL takes an advisory lock, so
    /// two servers starting together migrate one after the other.
    var migrationLock: [String] { get }
    /// Runs one operation, once more on a new connection if the one it found was lost (the
    /// server restarted since the last call).
    func attempt<T>(_ operation: (any SQLConnection) throws(StoreError) -> T) throws(StoreError) -> T
    func close()
}

extension SQLConnection {
    /// `body` in one transaction: committed if it returns, rolled back if it throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        _ = try execute(beginWrite, [])
        do {
            let result = try body()
            _ = try execute("COMMIT", [])
            return result
        } catch {
            _ = try? execute("ROLLBACK", [])
            throw error
        }
    }
}
