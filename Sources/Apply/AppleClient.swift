import Bundle
import CHTTP
import Foundation
import Model
import Synchronization

/// Requests to Apple's Retention Messaging API, each through the `Pacer`, retried as Apple asks.
///
/// Apple limits each endpoint per app (docs/apply.md): uploads and lists 1 request a second in
/// production, configurations 10; sandbox a tenth of that. A 429 waits as the pacer says (its
/// `Retry-After`, a UNIX time in milliseconds, but never less than a floor); a 500 or a dropped
/// connection is retried with backoff, a bounded number of times; a 401 is not retried at all.
/// Lanes on other threads share one client: its counters and token are kept in a mutex. Every
/// time it reads (a token's dates, a `Retry-After` in seconds) is the pacer's clock's.
///
/// Requests go through libcurl, which msgc loads only when it talks to Apple (`CHTTP`): every
/// other command starts without it and the libraries it needs.
/// How many requests a run sent to Apple, how many Apple answered 429, and how many were
/// sent again after a failure: the last line of apply's and prune's summaries.
public struct RequestCounts: Sendable, Equatable {
    public var requests = 0
    public var rateLimited = 0
    public var retries = 0

    /// "12 requests to Apple (1 answered 429, 0 retried)".
    public var summary: String {
        "\(requests) request\(requests == 1 ? "" : "s") to Apple (\(rateLimited) answered 429, \(retries) retried)"
    }
}

final class AppleClient: Sendable {
    enum Endpoint: String, CaseIterable, Sendable {
        case listMessages = "Get Message List"
        case listImages = "Get Image List"
        case uploadImage = "Upload Image"
        case uploadMessage = "Upload Message"
        case configureDefault = "Configure Default Message"
        case deleteMessage = "Delete Message"
        case deleteImage = "Delete Image"
        case getDefault = "Get Default Message"
        case deleteDefault = "Delete Default Message"
        case configureRealtimeURL = "Configure Realtime URL"
        case getRealtimeURL = "Get Realtime URL"
        case deleteRealtimeURL = "Delete Realtime URL"
        case startPerformanceTest = "Initiate Performance Test"
        case getPerformanceTestResult = "Get Performance Test Results"
    }

    struct Response {
        var status: Int
        var body: Data
        var headers: [String: String] = [:]

        /// Apple's `errorCode` and `errorMessage`, when the body holds them.
        var appleError: (code: Int?, message: String?) {
            guard let root = try? JSONCursor.parse(Array(body), file: "Apple's answer", reading: .lenient, naming: .path) else { return (nil, nil) }
            // Either may be missing or of another kind, and is then not said.
            return (try? root.optionalInteger("errorCode"), try? root.optionalString("errorMessage"))
        }
    }

    enum Failure: Error {
        /// 401: Apple does not accept the token; what it was made of and when Apple refused it
        /// by this machine's clock, for the message.
        case unauthorized(Credentials.Identity, at: Date)
        /// No answer after every retry: the last reason.
        case unavailable(String)
        case credentials(String)
        /// An answer that is not one the run can act on (a Get Default Message other than a
        /// default or Apple's 404 DefaultMessageNotFoundError): the whole sentence.
        case unusableAnswer(String)
        /// The run stopped: a 429 beyond `--max-wait`, or another lane stopped it.
        case stopped(Pacer.Stop)
        /// A bundle file no longer holds the bytes that were verified.
        case bundleChanged(String)
    }

    let base: APIBase
    let credentials: Credentials
    let pacer: Pacer
    let maxAttempts: Int
    let backoff: TimeInterval
    /// The token while it is valid, and how many requests were sent and how many 429s came
    /// back, for the summary.
    private let state = Mutex<(token: (value: String, expires: Date)?, counts: RequestCounts)>((nil, RequestCounts()))

    init(base: APIBase, credentials: Credentials, pacer: Pacer, maxAttempts: Int = 6, backoff: TimeInterval = 0.5) {
        self.base = base
        self.credentials = credentials
        self.pacer = pacer
        self.maxAttempts = maxAttempts
        self.backoff = backoff
    }

    /// What the client has sent so far.
    var requestCounts: RequestCounts { state.withLock { $0.counts } }

    /// How much longer than the limit's own spacing msgc waits between two requests to one
    /// endpoint: 3 %. Spaced at exactly the limit, a request whose latency is a little shorter
    /// than the one before it lands inside the previous window of a server that counts requests
    /// in exact one-second windows, and is answered 429; the margin leaves every such window
    /// 30 ms of slack for that, and costs 3 % of an apply's time.
    static let paceMargin = 0.03

    /// Seconds between requests to each endpoint: Apple's documented limits for an environment,
    /// or `uploadRate` uploads (and lists) a second with ten times as many configurations, each
    /// lengthened by `paceMargin`.
    static func intervals(_ environment: Environment, uploadRate: Double? = nil) -> [Endpoint: TimeInterval] {
        let rate = uploadRate ?? (environment == .production ? 1.0 : 0.1)
        var intervals: [Endpoint: TimeInterval] = [:]
        for endpoint in Endpoint.allCases {
            intervals[endpoint] = (1 + paceMargin) / (endpoint == .configureDefault ? rate * 10 : rate)
        }
        return intervals
    }

    /// Sends one request and returns Apple's answer: a 2xx, or a 4xx other than 401 and 429.
    func send(_ endpoint: Endpoint, method: String, path: String, query: [(name: String, value: String)] = [], body: Data? = nil,
              contentType: String? = nil) throws(Failure) -> Response {
        var attempt = 0
        while true {
            do {
                try pacer.admit(endpoint)
            } catch {
                throw .stopped(error)
            }
            var headers = ["Authorization: Bearer " + (try bearer()), "User-Agent: msgc", "Connection: close"]
            if let contentType { headers.append("Content-Type: " + contentType) }
            state.withLock { $0.counts.requests += 1 }
            let (response, problem, permanent) = perform(method: method, url: base.url(path, query: query), headers: headers, body: body)
            attempt += 1
            if let response {
                if response.status != 429 { pacer.answered(endpoint) }
                switch response.status {
                case 200..<300, 400, 402..<429, 430..<500:
                    return response
                case 401:
                    throw .unauthorized(credentials.identity, at: pacer.clock.now())
                case 429:
                    state.withLock { $0.counts.rateLimited += 1 }
                    // A 429 does not use up an attempt: the pacer bounds how often it can come.
                    attempt -= 1
                    do {
                        try pacer.rateLimited(endpoint, retryAfter: Self.retryAfter(response.headers, now: pacer.clock.now()))
                    } catch {
                        throw .stopped(error)
                    }
                    continue
                default:
                    if attempt >= maxAttempts { throw .unavailable("\(endpoint.rawValue) answered \(response.status) \(maxAttempts) times") }
                }
            } else if permanent {
                throw .unavailable("\(endpoint.rawValue): \(problem ?? "no answer")")
            } else if attempt >= maxAttempts {
                throw .unavailable("\(endpoint.rawValue): \(problem ?? "no answer") (\(maxAttempts) attempts)")
            }
            state.withLock { $0.counts.retries += 1 }
            pacer.backOff(endpoint, by: backoff * pow(2, Double(attempt - 1)))
        }
    }

    /// A token valid for at least another minute.
    private func bearer() throws(Failure) -> String {
        let made: Result<String, Credentials.Failure> = state.withLock { state in
            let now = pacer.clock.now()
            if let token = state.token, token.expires.timeIntervalSince(now) > 60 { return .success(token.value) }
            do throws(Credentials.Failure) {
                let value = try credentials.token(now: now)
                state.token = (value, now.addingTimeInterval(Credentials.lifetime))
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch made {
        case .success(let value): return value
        case .failure(let error): throw .credentials(error.description)
        }
    }

    /// `Retry-After` as Apple sends it, a UNIX time in milliseconds; a number of seconds from
    /// `now` (as HTTP defines it) is taken too. Anything else is no date at all: the pacer's
    /// floor holds.
    static func retryAfter(_ headers: [String: String], now: Date) -> Date? {
        guard let text = headers.first(where: { $0.key.lowercased() == "retry-after" })?.value.trimmingCharacters(in: .whitespaces),
              let value = Double(text), value.isFinite else { return nil }
        return value > 1e11 ? Date(timeIntervalSince1970: value / 1000) : now.addingTimeInterval(value)
    }

    /// One request, waited for: the answer, or why there was none and whether asking again
    /// could help.
    private func perform(method: String, url: String, headers: [String], body: Data?) -> (Response?, String?, permanent: Bool) {
        var error = [CChar](repeating: 0, count: 256)
        guard msgc_http_load(&error, error.count) == 0 else {
            return (nil, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), true)
        }
        var lines = headers.map { strdup($0) }
        defer { lines.forEach { free($0) } }
        var answer = msgc_http_response()
        let sent: Int32 = lines.withUnsafeMutableBufferPointer { lines in
            lines.withMemoryRebound(to: UnsafePointer<CChar>?.self) { lines in
                if let body {
                    return body.withUnsafeBytes { bytes in
                        // An empty body still needs an address: libcurl sends no body for NULL.
                        msgc_http_perform(method, url, lines.baseAddress, lines.count, bytes.baseAddress ?? UnsafeRawPointer(lines.baseAddress!),
                                          bytes.count, 60, &answer)
                    }
                }
                return msgc_http_perform(method, url, lines.baseAddress, lines.count, nil, 0, 60, &answer)
            }
        }
        defer { msgc_http_response_free(&answer) }
        guard sent == 0 else {
            let reason = withUnsafeBytes(of: answer.error) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            return (nil, reason, answer.permanent != 0)
        }
        let body = answer.body.map { Data(bytes: $0, count: answer.body_length) } ?? Data()
        let block = answer.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: answer.headers_length), as: UTF8.self) } ?? ""
        return (Response(status: answer.status, body: body, headers: Self.headerFields(block)), nil, false)
    }

    /// `Name: value` lines of a response's header block; a name given twice keeps its last value.
    static func headerFields(_ block: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in block.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }
}
