import Foundation
import Model

/// One request's line in the server's log: a JSON object on one line, for stdout.
///
/// It says what was asked and what was answered (Apple's request id, product, the device's
/// locale and the snapshot's locale that answered it, the message's key and identifier, the
/// outcome, status and time taken); never the signed payload, an offer's signature or a key.
/// Every text that came from a request is untrusted: it is written through `JSONValue`, which
/// escapes quotes, backslashes and every C0 control character, and besides is cut to
/// `maxFieldScalars` and has DEL and the C1 controls replaced by U+FFFD, so a line is always
/// one line of valid JSON that moves no terminal's cursor.
struct RequestLogLine: Sendable {
    static let maxFieldScalars = 200

    var time: Date
    var method: String
    var path: String
    var status: Int
    var latencyMicroseconds: Int64
    var outcome: String
    var kind: String? = nil
    var reason: String? = nil
    var requestIdentifier: String? = nil
    var productId: String? = nil
    var userLocale: String? = nil
    var locale: String? = nil
    var messageKey: String? = nil
    var messageIdentifier: String? = nil
    var generation: Int? = nil
    /// With an experiment store: how the subscriber's arm was settled (`first`, `sticky`,
    /// `marked`, `hashed`), never who the subscriber is.
    var assignment: String? = nil

    /// The line's bytes, ending with a newline.
    var bytes: [UInt8] {
        var members: [String: JSONValue] = [
            "time": .string(Self.timestamp(time)),
            "method": .string(Self.clean(method)),
            "path": .string(Self.clean(path)),
            "status": .integer(status),
            "latencyMicroseconds": .integer(Int(latencyMicroseconds)),
            "outcome": .string(outcome),
        ]
        let optional: [(String, String?)] = [
            ("kind", kind), ("reason", reason), ("requestIdentifier", requestIdentifier), ("productId", productId),
            ("userLocale", userLocale), ("locale", locale), ("message", messageKey), ("messageIdentifier", messageIdentifier),
            ("assignment", assignment),
        ]
        for case let (name, value?) in optional { members[name] = .string(Self.clean(value)) }
        if let generation { members["generation"] = .integer(generation) }
        return JSONValue.object(members).compactBytes + [0x0A]
    }

    /// `text` cut to `maxFieldScalars`, with DEL and C1 controls (which JSON leaves as they
    /// are, and some terminals obey) as U+FFFD.
    static func clean(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(maxFieldScalars) {
            scalars.append((0x7F...0x9F).contains(scalar.value) ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// RFC 3339 in UTC with milliseconds, written without a formatter so no locale or time
    /// zone of the process shows.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
        var time = time_t(seconds.quotient)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(seconds.remainder), 3))Z"
    }
}
