import Bundle
import Foundation
import Model

/// Apple's realtime URL (Configure, Get and Delete Realtime URL) and Apple's performance test
/// of the server at that URL (Initiate Performance Test, Get Performance Test Results):
/// `msgc realtime url` and `msgc realtime perftest` (docs/realtime.md, "Taking the server to Apple").
///
/// Every request goes through the `AppleClient` and its `Pacer`, as apply's do: 1 request a
/// second per endpoint in production, a tenth of that in sandbox. Apple's answers are read as
/// Apple's libraries read them: every member of a result may be missing, and a result state msgc
/// does not know is kept and never taken for a pass.
public final class RealtimeSetup: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// What the command came to: a finding when Apple refused what was asked; a usage
        /// failure (what was given, credentials), an I/O failure (a service that does not answer,
        /// an answer msgc cannot read) or a wait beyond `--max-wait` (run again to carry on).
        public var verdict: Verdict
    }

    /// Apple's `RealtimeUrlRequest` takes at most this many characters.
    public static let maxURLLength = 256

    private let client: AppleClient
    private let environment: Environment
    private let pace: Pace

    public init(base: APIBase, credentials: Credentials, environment: Environment, pace: Pace) {
        self.environment = environment
        self.pace = pace
        client = AppleClient(base: base, credentials: credentials, pacer: Pacer(pace.settings(environment)), backoff: 0.5 * pace.timeScale)
    }

    /// What was sent so far.
    public var requestCounts: RequestCounts { client.requestCounts }

    // MARK: The realtime URL

    /// Why Apple would refuse `url` as a realtime URL, or nil when it may be sent: https, a host,
    /// no user name or password, printable ASCII only (no space, no control), at most 256
    /// characters (Apple's model). Apple calls the URL itself, so a loopback address is not
    /// refused here: Apple's own check has the last word.
    public static func urlProblem(_ url: String) -> String? {
        let count = url.unicodeScalars.count
        if count > maxURLLength { return "it has \(count) characters, \(count - maxURLLength) over Apple's limit of \(maxURLLength)" }
        guard url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return "it holds a space, a control or a non-ASCII character; write the URL percent-encoded as Apple will call it"
        }
        guard url.lowercased().hasPrefix("https://") else { return "Apple calls only https URLs; it must start with https://" }
        let rest = url.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") { return "a user name or password does not belong in the URL: Apple would send it with every request" }
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return "an IPv6 address needs its closing ]" }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard let number = Int(port), port.allSatisfy(\.isASCII), (1...65535).contains(number) else {
                return "the port '\(port)' is not a number from 1 to 65535"
            }
            host = host[..<colon]
        }
        guard host.count > (host.hasPrefix("[") ? 2 : 0) else { return "it names no host" }
        if !host.hasPrefix("[") {
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }) else {
                return "'\(host)' is not a host name or address"
            }
        }
        return nil
    }

    /// Configure Realtime URL. In production Apple refuses a URL until a sandbox performance
    /// test has passed; the failure says so.
    public func setURL(_ url: String) throws(Failure) {
        if let problem = Self.urlProblem(url) { throw Failure(description: "the URL is refused: \(problem); nothing was sent", verdict: Verdict(.usage)) }
        let body = JSONValue.object(["realtimeURL": .string(url)]).compactBytes
        let response = try send(.configureRealtimeURL, method: "PUT", path: Self.urlPath, body: Data(body))
        guard response.status == 200 else {
            let (code, _) = response.appleError
            if code == 4030026 || (response.status == 403 && environment == .production) {
                throw Failure(
                    description: "Apple refused the URL (\(Applier.refusal(response))): production takes a realtime URL only once a sandbox "
                        + "performance test of it has passed; run `msgc realtime perftest --environment sandbox` against it first",
                    verdict: Verdict(failingFindings: 1))
            }
            if code == 4000215 || response.status == 400 {
                throw Failure(description: "Apple refused the URL (\(Applier.refusal(response)))", verdict: Verdict(failingFindings: 1))
            }
            throw refused("Configure Realtime URL", response)
        }
    }

    /// Get Realtime URL: the URL Apple calls, or nil when none is configured.
    public func url() throws(Failure) -> String? {
        let response = try send(.getRealtimeURL, method: "GET", path: Self.urlPath)
        if response.status == 404, response.appleError.code == 4040021 { return nil }
        guard response.status == 200 else { throw refused("Get Realtime URL", response) }
        guard let root = Self.object(response) else {
            throw Failure(description: "Get Realtime URL answered with something that is not a JSON object", verdict: Verdict(.io))
        }
        // Missing or null: none is configured.
        guard let url = root.member("realtimeURL") else { return nil }
        guard case .string(let text) = url.node.value else {
            throw Failure(description: "Get Realtime URL answered with realtimeURL as \(url.kindName), not a string", verdict: Verdict(.io))
        }
        return text
    }

    /// Delete Realtime URL.
    public func deleteURL() throws(Failure) {
        let response = try send(.deleteRealtimeURL, method: "DELETE", path: Self.urlPath)
        guard response.status == 200 else { throw refused("Delete Realtime URL", response) }
    }

    private static let urlPath = "/inApps/v1/messaging/realtime/url"

    // MARK: The performance test

    /// Why `id` cannot be a performance test's request id (it goes into a request's path and on
    /// a terminal), or nil: 1 to 128 letters, digits, `-`, `_` and `.`, not `.` or `..`.
    public static func requestIDProblem(_ id: String) -> String? {
        guard !id.isEmpty, id.utf8.count <= 128, id != ".", id != "..",
              id.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) })
        else { return "a request id is 1 to 128 letters, digits, '-', '_' and '.'" }
        return nil
    }

    /// Why `id` cannot be an original transaction id, or nil: Apple's are 1 to 64 digits.
    public static func transactionIDProblem(_ id: String) -> String? {
        guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return "an original transaction id is 1 to 64 digits, as Apple's transactions carry it"
        }
        return nil
    }

    /// Initiate Performance Test with a transaction of the sandbox app: the test's request id,
    /// and the configuration Apple says it will use.
    public func startTest(originalTransactionID: String) throws(Failure) -> (requestID: String, config: PerformanceTestResult.Config?) {
        if let problem = Self.transactionIDProblem(originalTransactionID) {
            throw Failure(description: "--original-transaction-id '\(originalTransactionID)' is refused: \(problem)", verdict: Verdict(.usage))
        }
        let body = JSONValue.object(["originalTransactionId": .string(originalTransactionID)]).compactBytes
        let response = try send(.startPerformanceTest, method: "POST", path: "/inApps/v1/messaging/performanceTest", body: Data(body))
        guard response.status == 200 else {
            switch response.appleError.code {
            case 4000213?:
                throw Failure(description: "Apple refused to start a test (\(Applier.refusal(response))): a test is already running for this app; "
                    + "wait for it, or resume it with --request-id if you have its id", verdict: Verdict(failingFindings: 1))
            case 4000211?:
                throw Failure(description: "Apple refused to start a test (\(Applier.refusal(response))): check --original-transaction-id "
                    + "(a subscription of this app in sandbox) and that the sandbox realtime URL is set (`msgc realtime url set`)",
                    verdict: Verdict(failingFindings: 1))
            default:
                throw refused("Initiate Performance Test", response)
            }
        }
        guard let root = Self.object(response) else {
            throw Failure(description: "Initiate Performance Test answered with something that is not a JSON object", verdict: Verdict(.io))
        }
        guard let id = try? root.string("requestId") else {
            throw Failure(description: "Initiate Performance Test answered without a requestId string; the test cannot be followed", verdict: Verdict(.io))
        }
        if let problem = Self.requestIDProblem(id) {
            throw Failure(description: "Initiate Performance Test answered with a requestId msgc will not use: \(problem)", verdict: Verdict(.io))
        }
        var ignored: [String] = []
        return (id, root.member("config").flatMap { PerformanceTestResult.Config($0, warnings: &ignored) })
    }

    /// Asks for the test's result until it is PASS, FAIL or a state msgc does not know, paced
    /// by the endpoint's limit; throws with status 3 (and the request id, to resume) when
    /// `maxWait`, counted from `startedAt` (by default now: a run that started the test first
    /// counts from before it), would run out before the next question. `progress` sees every
    /// answer.
    public func result(
        requestID: String, maxWait: TimeInterval, startedAt: Date? = nil, progress: (PerformanceTestResult) -> Void = { _ in }
    ) throws(Failure) -> PerformanceTestResult {
        if let problem = Self.requestIDProblem(requestID) {
            throw Failure(description: "--request-id '\(requestID)' is refused: \(problem)", verdict: Verdict(.usage))
        }
        let clock = client.pacer.clock
        let deadline = (startedAt ?? clock.now()).addingTimeInterval(maxWait)
        let interval = pace.settings(environment).intervals[.getPerformanceTestResult] ?? 10
        var last: PerformanceTestResult?
        var first = true
        while true {
            if !first, clock.now().addingTimeInterval(interval) > deadline {
                let pending = last?.numPending.map { ", \($0) requests still pending" } ?? ""
                throw Failure(
                    description: "the test \(requestID) had no result within --max-wait (\(Self.seconds(maxWait)))\(pending); "
                        + "run `msgc realtime perftest --request-id \(requestID)` to carry on waiting",
                    verdict: Verdict(.waitExceeded))
            }
            first = false
            let response: AppleClient.Response
            do {
                response = try send(.getPerformanceTestResult, method: "GET", path: "/inApps/v1/messaging/performanceTest/result/" + requestID)
            } catch where error.verdict.failures.contains(.waitExceeded) {
                throw Failure(description: error.description + "; resume with --request-id \(requestID)", verdict: Verdict(.waitExceeded))
            }
            guard response.status == 200 else {
                switch response.appleError.code {
                case 4040018?, 4000212?:
                    throw Failure(description: "Apple knows no performance test \(requestID) (\(Applier.refusal(response))); check --request-id",
                                  verdict: Verdict(.usage))
                default: throw refused("Get Performance Test Results", response)
                }
            }
            guard let root = Self.object(response) else {
                throw Failure(description: "Get Performance Test Results answered with something that is not a JSON object", verdict: Verdict(.io))
            }
            let result = PerformanceTestResult(root, requestID: requestID)
            progress(result)
            last = result
            switch result.state {
            case .pending, .missing: continue
            case .pass, .fail, .unknown: return result
            }
        }
    }

    /// The body of Apple's answer as a JSON object, read as Apple's libraries read it
    /// (leniently); nil when it is not one.
    private static func object(_ response: AppleClient.Response) -> JSONCursor? {
        try? JSONCursor.parse(Array(response.body), file: "Apple's answer", reading: .lenient, naming: .path).object()
    }

    static func seconds(_ interval: TimeInterval) -> String {
        let whole = Int(interval.rounded())
        return whole >= 60 && whole % 60 == 0 ? "\(whole / 60) min" : "\(whole) s"
    }

    private func send(_ endpoint: AppleClient.Endpoint, method: String, path: String, body: Data? = nil) throws(Failure) -> AppleClient.Response {
        do {
            return try client.send(endpoint, method: method, path: path, body: body, contentType: body == nil ? nil : "application/json")
        } catch {
            throw Failure(description: Applier.describe(error), verdict: Verdict(Applier.failure(error)))
        }
    }

    /// Any other refusal: a bare 404 is an account without access to these endpoints.
    private func refused(_ name: String, _ response: AppleClient.Response) -> Failure {
        if response.status == 404 && response.appleError.code == nil {
            return Failure(description: "\(name) answered 404 without an error code: Apple documents that for an account without access "
                + "to the Retention Messaging API's realtime endpoints", verdict: Verdict(.io))
        }
        return Failure(description: "\(name) was refused: \(Applier.refusal(response))", verdict: Verdict(failingFindings: 1))
    }
}

/// What Apple's Get Performance Test Results said, member by member: each may be missing (as in
/// Apple's libraries); a member of another type than Apple's is left out with a warning.
public struct PerformanceTestResult: Sendable {
    public enum State: Sendable, Equatable {
        case pending, pass, fail
        /// A state msgc does not know, kept as Apple wrote it: never a pass.
        case unknown(String)
        /// No `result` member at all: not finished, as far as anyone can tell.
        case missing
    }

    /// `PerformanceTestConfig`.
    public struct Config: Sendable {
        /// In Apple's order: maxConcurrentRequests, totalRequests, totalDuration,
        /// responseTimeThreshold, successRateThreshold; missing members are nil.
        public var members: [(name: String, value: Int?)]

        static let names = ["maxConcurrentRequests", "totalRequests", "totalDuration", "responseTimeThreshold", "successRateThreshold"]

        init?(_ node: JSONCursor, warnings: inout [String]) {
            guard case .object = node.node.value else {
                warnings.append("\(node.path) is \(node.kindName), not an object; left out")
                return nil
            }
            members = Self.names.map { (name: $0, value: PerformanceTestResult.integer(node.member($0), &warnings)) }
        }
    }

    public var requestID: String
    public var config: Config?
    public var target: String?
    public var state: State
    public var successRate: Int?
    public var numPending: Int?
    /// average, p50, p90, p95, p99 in milliseconds; nil when `responseTimes` is missing.
    public var responseTimes: [(name: String, value: Int?)]?
    /// Failures by Apple's send-attempt result, sorted by name; a count Apple left out is nil.
    public var failures: [(reason: String, count: Int?)]?
    /// Members left out because they were not of Apple's type.
    public var warnings: [String] = []

    public var passed: Bool { state == .pass }

    static let timeNames = ["average", "p50", "p90", "p95", "p99"]

    /// `root` is read leniently: a member that is missing or `null` is one Apple did not send.
    init(_ root: JSONCursor, requestID: String) {
        self.requestID = requestID
        var warnings: [String] = []
        config = root.member("config").flatMap { Config($0, warnings: &warnings) }
        target = Self.string(root.member("target"), &warnings)
        switch Self.string(root.member("result"), &warnings) {
        case nil: state = .missing
        case "PENDING"?: state = .pending
        case "PASS"?: state = .pass
        case "FAIL"?: state = .fail
        case let other?: state = .unknown(other)
        }
        successRate = Self.integer(root.member("successRate"), &warnings)
        numPending = Self.integer(root.member("numPending"), &warnings)
        if let times = root.member("responseTimes") {
            if case .object = times.node.value {
                responseTimes = Self.timeNames.map { (name: $0, value: Self.integer(times.member($0), &warnings)) }
            } else {
                warnings.append("responseTimes is \(times.kindName), not an object; left out")
            }
        }
        if let node = root.member("failures") {
            if case .object = node.node.value {
                // Apple's reasons are upper-case words; anything else is shown escaped by the caller.
                // A reason whose count is `null` is kept, with a count Apple left out.
                failures = node.read(.strict).members.map { (reason: $0.key, count: Self.integer($0.value, &warnings)) }
                    .sorted { $0.reason < $1.reason }
            } else {
                warnings.append("failures is \(node.kindName), not an object; left out")
            }
        }
        self.warnings = warnings
    }

    /// A string member; one of another kind is left out with a warning that names its path.
    private static func string(_ node: JSONCursor?, _ warnings: inout [String]) -> String? {
        guard let node, !node.isNull else { return nil }
        guard case .string(let text) = node.node.value else {
            warnings.append("\(node.path) is \(node.kindName), not a string; left out")
            return nil
        }
        return text
    }

    /// Apple's members are integers; a whole number written as `12.0` is taken, anything else is
    /// left out with a warning that names its path.
    static func integer(_ node: JSONCursor?, _ warnings: inout [String]) -> Int? {
        guard let node, !node.isNull else { return nil }
        guard let text = try? node.number() else {
            warnings.append("\(node.path) is \(node.kindName), not a number; left out")
            return nil
        }
        if let value = Int(text) { return value }
        if let value = Double(text), value.isFinite, value == value.rounded(), abs(value) < 1e15 { return Int(value) }
        warnings.append("\(node.path) is \(text), not a whole number; left out")
        return nil
    }
}
