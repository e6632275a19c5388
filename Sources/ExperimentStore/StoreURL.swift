import CPostgreSQL
import Foundation

/// Where the experiment store lives, as `--store` gives it: `sqlite:PATH`, a file for one
/// server, or a libpq connection URI (`postgres://user@host:port/db?…` or `postgresql://…`)
/// for several servers behind a load balancer.
///
/// A password in the URI is refused: a command line is visible to every user of the machine
/// (`ps`), so the password comes from libpq's own environment (`PGPASSWORD`) or its passfile
/// (`PGPASSFILE`, `~/.pgpass`), which libpq reads itself. The URI is otherwise libpq's to
/// interpret: its parser checks it here, so a mistake is a usage error at start-up rather than
/// a store that is never reached.
public enum StoreURL: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgreSQL(uri: String)

    public init(parsing text: String) throws(StoreError) {
        guard !text.utf8.contains(0) else { throw .usage("the store URL holds a NUL byte") }
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw .usage("the store URL 'sqlite:' names no file; write sqlite:PATH") }
            guard path != ":memory:" else {
                throw .usage("an in-memory SQLite store forgets everything when the server stops; write sqlite:PATH")
            }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            try Self.refusePassword(in: text)
            try Self.checkWithLibpq(text)
            self = .postgreSQL(uri: text)
        } else {
            throw .usage("the store URL must start with sqlite: or postgres:// (or postgresql://)")
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgreSQL(let uri): uri
        }
    }

    static let passwordAdvice =
        "put no password in the store URL (a command line is visible to every user of the machine); give it in PGPASSWORD or a passfile (PGPASSFILE, ~/.pgpass), which libpq reads itself"

    /// A password in the user info (`user:secret@host`) or in the query (`?password=…`). The
    /// message never repeats the URI, which holds it.
    private static func refusePassword(in uri: String) throws(StoreError) {
        let rest = uri.drop(while: { $0 != "/" }).dropFirst(2)
        let authority = rest.prefix(while: { $0 != "/" && $0 != "?" })
        if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") {
            throw .usage("the store URL holds a password; \(passwordAdvice)")
        }
        if let question = rest.firstIndex(of: "?") {
            for parameter in rest[rest.index(after: question)...].split(separator: "&") {
                let name = parameter.prefix(while: { $0 != "=" })
                if name.lowercased() == "password" || name.lowercased() == "%70assword" {
                    throw .usage("the store URL holds a password parameter; \(passwordAdvice)")
                }
            }
        }
    }

    /// libpq's own reading of the URI (PQconninfoParse reads no environment and connects to
    /// nothing), and a second look for a password in what it understood.
    private static func checkWithLibpq(_ uri: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &message) else {
            let reason = message.map { String(cString: $0) } ?? "libpq cannot read it"
            if let message { PQfreemem(message) }
            throw .usage("the store URL is not a PostgreSQL connection URI: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", option.pointee.val != nil {
                throw .usage("the store URL holds a password; \(passwordAdvice)")
            }
            option += 1
        }
    }
}
