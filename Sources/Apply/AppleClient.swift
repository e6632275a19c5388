import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Bundle

/// Requests to Apple's Retention Messaging API, paced per endpoint and retried as Apple asks.
///
/// Apple limits each endpoint per app (docs/apply.md): uploads and lists 1 request a second in
/// production, configurations 10; sandbox a tenth of that. The client spaces each endpoint's
/// requests by its limit so that 429s stay rare; after a 429 it waits until the UNIX time in
/// milliseconds that `Retry-After` names before that endpoint's next request. A 500 or a
/// dropped connection is retried with backoff; a 401 is not retried at all.
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
    private let session: URLSession
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
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
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
            var request = URLRequest(url: components.url!)
            request.httpMethod = method
            request.httpBody = body
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            request.setValue("Bearer " + (try bearer()), forHTTPHeaderField: "Authorization")
            request.setValue("msgc", forHTTPHeaderField: "User-Agent")
            request.setValue("close", forHTTPHeaderField: "Connection")
            requestCount += 1
            let (response, problem) = perform(request)
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

    /// One request, waited for: the answer, or why there was none.
    private func perform(_ request: URLRequest) -> (Response?, String?) {
        let answer = Answer()
        session.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (key, value) in http.allHeaderFields { headers["\(key)"] = "\(value)" }
                answer.set((Response(status: http.statusCode, body: data ?? Data(), headers: headers), nil))
            } else {
                answer.set((nil, error.map { ($0 as NSError).localizedDescription } ?? "no answer"))
            }
        }.resume()
        return answer.wait()
    }

    /// The answer of a request, handed from URLSession's queue to the waiting thread.
    private final class Answer: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var value: (Response?, String?) = (nil, nil)

        func set(_ value: (Response?, String?)) {
            lock.withLock { self.value = value }
            done.signal()
        }

        func wait() -> (Response?, String?) {
            done.wait()
            return lock.withLock { value }
        }
    }
}
