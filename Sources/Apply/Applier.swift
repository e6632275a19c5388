import Bundle
import Foundation
import Model
import Parser

/// Takes a verified bundle to Apple: reads what Apple holds, uploads in the manifest's order
/// only what it does not hold (images, then messages), then configures the defaults whose
/// content Apple has approved.
///
/// Identifiers are derived from content, so an upload Apple already holds is done, whether the
/// list says so or a retried upload gets 409: a second run, or a run after a kill, sends no
/// upload twice. Default configurations are idempotent and sent again on each run (they cost a
/// tenth of an upload's budget). In production a default waits until its message and every
/// image it uses are APPROVED in Apple's lists; the run then ends with `waiting`, and a later
/// run configures it.
public struct Applier {
    /// What happened to one entry of the manifest.
    public enum Result: Equatable, Sendable {
        case uploaded
        /// Apple held it already (its list, or a 409 for our identifier).
        case alreadyHeld
        case configured
        /// Not sent: what it needs is not approved yet (production review).
        case waiting(String)
        /// Apple refused it, or something it needs.
        case refused(String)
        /// Would be sent (`--dry-run`).
        case planned
    }

    public struct Report: Sendable {
        public var results: [(entry: Manifest.Entry, result: Result)] = []
        /// success, findings (Apple refused content), failure (stopped early) or waiting (review).
        public var status: ExitStatus = .success
        /// Why the run stopped early, when it did.
        public var failure: String?
        public var requests = 0
        public var rateLimited = 0
        public var retries = 0
        /// A dry run: `planned` entries would be sent.
        public var isDryRun = false

        func count(_ operation: Manifest.Entry.Operation, _ matches: (Result) -> Bool) -> Int {
            results.count { $0.entry.operation == operation && matches($0.result) }
        }

        /// The summary lines msgc prints at the end.
        public var summary: [String] {
            func line(_ noun: String, _ operation: Manifest.Entry.Operation) -> String? {
                let done = count(operation) { $0 == .uploaded || $0 == .configured || $0 == .planned }
                let held = count(operation) { $0 == .alreadyHeld }
                let waiting = count(operation) { if case .waiting = $0 { true } else { false } }
                let refused = count(operation) { if case .refused = $0 { true } else { false } }
                let total = results.count { $0.entry.operation == operation }
                guard total > 0 else { return nil }
                let verb = operation == .configureDefault ? (isDryRun ? "to configure" : "configured") : (isDryRun ? "to upload" : "uploaded")
                var parts = ["\(done) \(verb)"]
                if held > 0 { parts.append("\(held) already at Apple") }
                if waiting > 0 { parts.append("\(waiting) waiting for review") }
                if refused > 0 { parts.append("\(refused) refused") }
                return "\(noun): " + parts.joined(separator: ", ")
            }
            return [line("images", .uploadImage), line("messages", .uploadMessage), line("default configurations", .configureDefault)]
                .compactMap { $0 }
        }
    }

    /// Progress as the run goes: the entry, its place in the run and what happened.
    public typealias Progress = (_ done: Int, _ total: Int, _ entry: Manifest.Entry, _ result: Result) -> Void

    let contents: BundleContents
    let folder: URL
    let client: AppleClient
    let dryRun: Bool

    /// `base` is Apple's host for the bundle's environment unless given; `rate` overrides the
    /// documented uploads per second (configurations get ten times as many).
    public init(contents: BundleContents, folder: URL, credentials: Credentials, base: URL?, rate: Double?, dryRun: Bool,
                backoff: TimeInterval = 0.5) {
        self.contents = contents
        self.folder = folder
        self.dryRun = dryRun
        var rates = AppleClient.documentedRates(contents.manifest.environment)
        if let rate {
            for endpoint in AppleClient.Endpoint.allCases { rates[endpoint] = endpoint == .configureDefault ? rate * 10 : rate }
        }
        client = AppleClient(base: base ?? Self.host(contents.manifest.environment), credentials: credentials, rates: rates, backoff: backoff)
    }

    /// Apple's host for `environment`.
    public static func host(_ environment: Environment) -> URL {
        URL(string: environment == .production ? "https://api.storekit.apple.com" : "https://api.storekit-sandbox.apple.com")!
    }

    public func run(progress: Progress) -> Report {
        var report = steps(progress: progress)
        report.isDryRun = dryRun
        report.requests = client.requestCount
        report.rateLimited = client.rateLimitedCount
        report.retries = client.retryCount
        return report
    }

    private func steps(progress: Progress) -> Report {
        var report = Report()
        let state: StateFile
        do {
            state = try StateReader.read(client).state
        } catch {
            report.status = .failure
            report.failure = error.description
            return report
        }
        let manifest = contents.manifest
        let entries = manifest.operations + (manifest.present ?? []) + (manifest.deferred ?? [])
        var ordered: [Manifest.Entry] = []
        var seen = Set<String>()
        for operation in [Manifest.Entry.Operation.uploadImage, .uploadMessage, .configureDefault] {
            for entry in entries where entry.operation == operation && seen.insert(entry.file).inserted { ordered.append(entry) }
        }

        /// Identifiers Apple refused (or that need something refused), and endpoints at their cap.
        var refused: [String: String] = [:]
        var capped: Set<AppleClient.Endpoint> = []
        /// Uploaded in this run: PENDING in production until Apple reviews them.
        var uploadedNow = Set<String>()
        for (index, entry) in ordered.enumerated() {
            let result: Result
            do {
                result = try apply(entry, state: state, refused: &refused, capped: &capped, uploadedNow: &uploadedNow)
            } catch {
                report.status = .failure
                report.failure = Self.describe(error)
                return report
            }
            if case .refused(let why) = result, let identifier = entry.identifier { refused[identifier] = why }
            if result == .uploaded, let identifier = entry.identifier { uploadedNow.insert(identifier) }
            report.results.append((entry, result))
            switch result {
            case .refused: report.status = max(report.status, .findings)
            case .waiting: report.status = max(report.status, .waiting)
            default: break
            }
            progress(index + 1, ordered.count, entry, result)
        }
        return report
    }

    private func apply(
        _ entry: Manifest.Entry, state: StateFile, refused: inout [String: String], capped: inout Set<AppleClient.Endpoint>,
        uploadedNow: inout Set<String>
    ) throws(AppleClient.Failure) -> Result {
        if let blocked = entry.requires.first(where: { refused[$0] != nil }) {
            return .refused("needs \(blocked), which Apple refused")
        }
        switch entry.operation {
        case .uploadImage, .uploadMessage:
            let identifier = entry.identifier ?? ""
            let held = entry.operation == .uploadImage ? state.image(identifier) : state.message(identifier)
            if held != nil { return .alreadyHeld }
            let endpoint: AppleClient.Endpoint = entry.operation == .uploadImage ? .uploadImage : .uploadMessage
            if capped.contains(endpoint) { return .refused("Apple's cap of 2,000 was reached") }
            if dryRun { return .planned }
            let kind = entry.operation == .uploadImage ? "image" : "message"
            let response = try client.send(
                endpoint, method: "PUT", path: "/inApps/v1/messaging/\(kind)/\(identifier)",
                query: entry.imageSize.map { [URLQueryItem(name: "imageSize", value: $0.rawValue)] } ?? [],
                body: try body(of: entry), contentType: entry.operation == .uploadImage ? "image/png" : "application/json")
            switch response.status {
            case 200..<300: return .uploaded
            // The identifier is the content's: Apple holding it means this upload is done.
            case 409: return .alreadyHeld
            case 403:
                let why = Self.refusal(response)
                if response.appleError.code == 4030014 || response.appleError.code == 4030016 || why.contains("Maximum") {
                    capped.insert(endpoint)
                }
                return .refused(why)
            default: return .refused(Self.refusal(response))
            }
        case .configureDefault:
            if contents.manifest.environment == .production {
                var waiting: [String] = []
                for identifier in entry.requires {
                    let held = state.message(identifier) ?? state.image(identifier)
                    if uploadedNow.contains(identifier) {
                        waiting.append("\(identifier) was uploaded now and waits for review")
                    } else if let held, held.state != .approved {
                        waiting.append("\(identifier) is \(held.state.rawValue) at Apple")
                    } else if held == nil {
                        waiting.append("\(identifier) is not at Apple")
                    }
                }
                if !waiting.isEmpty { return .waiting(waiting.joined(separator: "; ")) }
            }
            if dryRun { return .planned }
            let response = try client.send(
                .configureDefault, method: "PUT",
                path: "/inApps/v1/messaging/default/\(Self.segment(entry.product ?? ""))/\(Self.segment(entry.locale ?? ""))",
                body: try body(of: entry), contentType: "application/json")
            switch response.status {
            case 200..<300: return .configured
            // Not approved yet: in sandbox approval comes by itself, soon after the upload.
            case 403 where [4030017, 4030018].contains(response.appleError.code ?? 0): return .waiting(Self.refusal(response))
            default: return .refused(Self.refusal(response))
            }
        }
    }

    /// The request body: the entry's file, as the bundle holds it (verified before the run).
    private func body(of entry: Manifest.Entry) throws(AppleClient.Failure) -> Data {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(entry.file).path) else {
            throw .unavailable("'\(entry.file)' of the bundle cannot be read")
        }
        return data
    }

    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    static func refusal(_ response: AppleClient.Response) -> String {
        let (code, message) = response.appleError
        var text = "HTTP \(response.status)"
        if let code { text += " \(code)" }
        if let message { text += ": \(message)" }
        return text
    }

    static func describe(_ error: AppleClient.Failure) -> String {
        switch error {
        case .unauthorized:
            "Apple refused the credentials (401): check the key file, --key-id, --issuer-id and the bundle's app"
        case .unavailable(let why): "Apple's service did not answer: \(why); run again to resume"
        case .credentials(let why): why
        }
    }
}

/// Reads Apple's Get Message List and Get Image List into a state file's values.
public enum StateReader {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The two responses as `msgc build --state` reads them:
    /// `{"messages": <Get Message List>, "images": <Get Image List>}`.
    public static func document(base: URL, credentials: Credentials, environment: Environment) throws(Failure) -> [UInt8] {
        let client = AppleClient(base: base, credentials: credentials, rates: AppleClient.documentedRates(environment))
        return try read(client).bytes
    }

    /// The two lists as the state file's bytes, and what they hold, checked by the parser
    /// `build --state` uses.
    static func read(_ client: AppleClient) throws(Failure) -> (bytes: [UInt8], state: StateFile) {
        func list(_ endpoint: AppleClient.Endpoint, _ path: String) throws(Failure) -> Data {
            let response: AppleClient.Response
            do {
                response = try client.send(endpoint, method: "GET", path: path)
            } catch {
                throw Failure(description: Applier.describe(error))
            }
            guard response.status == 200 else { throw Failure(description: "\(endpoint.rawValue) was refused: \(Applier.refusal(response))") }
            return response.body
        }
        let messages = try list(.listMessages, "/inApps/v1/messaging/message/list")
        let images = try list(.listImages, "/inApps/v1/messaging/image/list")
        let text = "{\"messages\": " + String(decoding: messages, as: UTF8.self) + ", \"images\": " + String(decoding: images, as: UTF8.self) + "}"
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
              let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]) else {
            throw Failure(description: "Apple's lists are not JSON")
        }
        let bytes = Array(pretty) + [0x0A]
        let (state, diagnostics) = StateFileParser.parse(bytes: bytes, path: "Apple's lists")
        guard let state else {
            throw Failure(description: "Apple's lists are not shaped as msgc reads them: " + diagnostics.map(\.message).joined(separator: "; "))
        }
        return (bytes, state)
    }

}
