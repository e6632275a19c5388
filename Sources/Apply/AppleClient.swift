import Bundle
import CHTTP
import Foundation

/// Requests to Apple's Retention Messaging API, paced per endpoint and retried as Apple asks.
///
/// Apple limits each endpoint per app (docs/apply.md): uploads and lists 1 request a second in
/// production, configurations 10; sandbox a tenth of that. The client spaces each endpoint's
/// requests by its limit so that 429s stay rare; after a 429 it waits until the UNIX time in
/// milliseconds that `Retry-After` names before that endpoint's next request. A 500 or a
/// dropped connection is retried with backoff; a 401 is not retried at all.
///
/// Requests go through libcurl, which msgc loads only when it talks to Apple (`CHTTP`): every
/// other command starts without it and the libraries it needs.
final class AppleClient {
    enum Endpoint: String, CaseIterable, Sendable {
        case listMessages = "Get Message List"
        case listImages = "Get Image List"
        case uploadImage = "Upload Image"
        case uploadMessage = "Upload Message"
        case configureDefault = "Configure Default Message"
    }

    struct Response {
        var status: Int
        var body: Data
        var headers: [String: String] = [:]

        /// Apple's `errorCode` and `errorMessage`, when the body holds them.
        var appleError: (code: Int?, message: String?) {
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return (nil, nil) }
            return (object["errorCode"] as? Int, object["errorMessage"] as? String)
        }
    }

    enum Failure: Error {
        /// 401: Apple does not accept the key, its id, the issuer id or the bundle id.
        case unauthorized
        /// No answer after every retry: the last reason.
        case unavailable(String)
        case credentials(String)
    }

    let base: URL
    let credentials: Credentials
    /// Requests per second, per endpoint.
    let rates: [Endpoint: Double]
    let maxAttempts: Int
    let backoff: TimeInterval
    private var nextAllowed: [Endpoint: Date] = [:]
    private var token: (value: String, expires: Date)?
    /// How many requests were sent, how many 429s came back, for the summary.
    private(set) var requestCount = 0
    private(set) var rateLimitedCount = 0
    private(set) var retryCount = 0

    init(base: URL, credentials: Credentials, rates: [Endpoint: Double], maxAttempts: Int = 6, backoff: TimeInterval = 0.5) {
        self.base = base
        self.credentials = credentials
        self.rates = rates
        self.maxAttempts = maxAttempts
        self.backoff = backoff
    }

    /// Apple's documented limits for an environment.
    static func documentedRates(_ environment: Environment) -> [Endpoint: Double] {
        let scale = environment == .production ? 1.0 : 0.1
        var rates: [Endpoint: Double] = [:]
        for endpoint in Endpoint.allCases { rates[endpoint] = (endpoint == .configureDefault ? 10 : 1) * scale }
        return rates
    }

    /// Sends one request and returns Apple's answer: a 2xx, or a 4xx other than 401 and 429.
    func send(_ endpoint: Endpoint, method: String, path: String, query: [URLQueryItem] = [], body: Data? = nil,
              contentType: String? = nil) throws(Failure) -> Response {
        var attempt = 0
        while true {
            pace(endpoint)
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
            components.percentEncodedPath = base.path.hasSuffix("/") ? String(base.path.dropLast()) + path : base.path + path
            if !query.isEmpty { components.queryItems = query }
            var headers = ["Authorization: Bearer " + (try bearer()), "User-Agent: msgc", "Connection: close"]
            if let contentType { headers.append("Content-Type: " + contentType) }
            requestCount += 1
            let (response, problem, permanent) = perform(method: method, url: components.url!.absoluteString, headers: headers, body: body)
            attempt += 1
            if let response {
                switch response.status {
                case 200..<300, 400, 402..<429, 430..<500:
                    return response
                case 401:
                    throw .unauthorized
                case 429:
                    rateLimitedCount += 1
                    nextAllowed[endpoint] = retryAfter(response.headers) ?? Date().addingTimeInterval(1 / (rates[endpoint] ?? 1))
                    // A 429 is Apple saying when; it does not use up an attempt.
                    attempt -= 1
                    continue
                default:
                    if attempt >= maxAttempts { throw .unavailable("\(endpoint.rawValue) answered \(response.status) \(maxAttempts) times") }
                }
            } else if permanent {
                throw .unavailable("\(endpoint.rawValue): \(problem ?? "no answer")")
            } else if attempt >= maxAttempts {
                throw .unavailable("\(endpoint.rawValue): \(problem ?? "no answer") (\(maxAttempts) attempts)")
            }
            retryCount += 1
            Thread.sleep(forTimeInterval: backoff * pow(2, Double(attempt - 1)))
        }
    }

    /// Waits until `endpoint` may be asked again, and books its next slot.
    private func pace(_ endpoint: Endpoint) {
        let now = Date()
        if let next = nextAllowed[endpoint], next > now { Thread.sleep(until: next) }
        nextAllowed[endpoint] = max(now, nextAllowed[endpoint] ?? now).addingTimeInterval(1 / (rates[endpoint] ?? 1))
    }

    /// A token valid for at least another minute.
    private func bearer() throws(Failure) -> String {
        let now = Date()
        if let token, token.expires.timeIntervalSince(now) > 60 { return token.value }
        do {
            let value = try credentials.token(now: now)
            token = (value, now.addingTimeInterval(300))
            return value
        } catch {
            throw .credentials(error.description)
        }
    }

    /// `Retry-After` as Apple sends it, a UNIX time in milliseconds; a number of seconds (as
    /// HTTP defines it) is taken too.
    private func retryAfter(_ headers: [String: String]) -> Date? {
        guard let text = headers.first(where: { $0.key.lowercased() == "retry-after" })?.value.trimmingCharacters(in: .whitespaces),
              let value = Double(text) else { return nil }
        let date = value > 1e11 ? Date(timeIntervalSince1970: value / 1000) : Date().addingTimeInterval(value)
        // Never wait longer than an hour on one answer: Apple's budgets are per hour.
        return min(date, Date().addingTimeInterval(3600))
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
