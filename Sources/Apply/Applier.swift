import Bundle
import Foundation
import Model
import Synchronization

/// Takes a verified bundle to Apple: reads what Apple holds, then uploads only what it does not
/// hold and configures the defaults, in three lanes at once (`LaneScheduler`): images, messages
/// and configurations, each at its own endpoint's pace, a message only after the images it uses,
/// a default only after its message.
///
/// Identifiers are derived from content, so an upload Apple already holds is done, whether the
/// list says so or a retried upload gets 409 and the list then shows it: a second run, or a run
/// after a kill, sends no upload twice. A 409 for an identifier Apple does not list is its own
/// refusal: Apple holds that identifier as something else or deleted it (docs/apply.md says how
/// to give the content new identifiers). Each body is read once, hashed against the manifest
/// and sent as read: a file changed since the bundle was verified stops the run. Default
/// configurations are idempotent and sent again on each run (they cost a tenth of an upload's
/// budget). In production a default waits until its message and every image it uses are
/// APPROVED in Apple's lists; the run then ends with `waiting`, and a later run configures it.
public struct Applier: Sendable {
    /// What happened to one entry of the manifest.
    public enum Result: Equatable, Sendable {
        case uploaded
        /// Apple held it already (its list, or a 409 for our identifier that its list confirms).
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
        /// What the run came to: content Apple refused (findings), what waits for review, why it
        /// stopped early; `Verdict.status` decides the exit status.
        public var verdict = Verdict()
        /// Why the run stopped early, when it did.
        public var failure: String?
        public var requests = RequestCounts()
        /// A dry run: `planned` entries would be sent.
        public var isDryRun = false
        /// Entries the run did not reach (it stopped early), by operation.
        public var left: [Manifest.Entry.Operation: Int] = [:]
        /// What Apple's lists held that msgc does not use (identifiers that are not UUIDs), and
        /// sizes that contradict the bundle.
        public var warnings: [String] = []
        /// Production: this bundle's messages and images Apple holds but does not show yet
        /// (uploaded now, or listed PENDING or in another state that is not APPROVED or REJECTED).
        public var inReview = (messages: 0, images: 0)

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
                let total = results.count { $0.entry.operation == operation } + (left[operation] ?? 0)
                guard total > 0 else { return nil }
                let verb = operation == .configureDefault ? (isDryRun ? "to configure" : "configured") : (isDryRun ? "to upload" : "uploaded")
                var parts = ["\(done) \(verb)"]
                if held > 0 { parts.append("\(held) already at Apple") }
                if waiting > 0 { parts.append("\(waiting) waiting for review") }
                if refused > 0 { parts.append("\(refused) refused") }
                if let left = left[operation], left > 0 { parts.append("\(left) left") }
                return "\(noun): " + parts.joined(separator: ", ")
            }
            var lines = [line("images", .uploadImage), line("messages", .uploadMessage), line("default configurations", .configureDefault)]
                .compactMap { $0 }
            let waiting = inReview.messages + inReview.images
            if waiting > 0 {
                lines.append(
                    "\(waiting) upload\(waiting == 1 ? "" : "s") of this bundle wait\(waiting == 1 ? "s" : "") for Apple's review (\(inReview.messages) message\(inReview.messages == 1 ? "" : "s"), \(inReview.images) image\(inReview.images == 1 ? "" : "s")): "
                        + "until approved, Apple and the realtime snapshot show the approved versions they replace, and msgc prune keeps those; "
                        + "after approval, run msgc state fetch, msgc realtime snapshot and msgc prune again")
            }
            return lines
        }
    }

    /// Progress as the run goes: the entry, how many entries are finished and what happened.
    /// Called from the lanes' threads, one call at a time.
    public typealias Progress = @Sendable (_ done: Int, _ total: Int, _ entry: Manifest.Entry, _ result: Result) -> Void

    let contents: BundleContents
    let folder: URL
    let client: AppleClient
    let dryRun: Bool

    /// `base` is Apple's host for the bundle's environment unless given; `pace` says how fast
    /// each endpoint may be asked and how long 429s may be waited on.
    public init(contents: BundleContents, folder: URL, credentials: Credentials, base: APIBase?, pace: Pace, dryRun: Bool) {
        self.contents = contents
        self.folder = folder
        self.dryRun = dryRun
        let environment = contents.manifest.environment
        client = AppleClient(
            base: base ?? .apple(environment), credentials: credentials, pacer: Pacer(pace.settings(environment)),
            backoff: 0.5 * pace.timeScale)
    }

    public func run(progress: @escaping Progress) -> Report {
        var report = Report()
        report.isDryRun = dryRun
        let state: StateFile
        do {
            let read = try StateReader.read(client)
            state = read.state
            report.warnings = read.warnings
        } catch {
            report.verdict.failures.append(error.kind)
            report.failure = error.description
            return counted(report)
        }
        let manifest = contents.manifest
        var ordered: [Manifest.Entry] = []
        var seen = Set<String>()
        for operation in [Manifest.Entry.Operation.uploadImage, .uploadMessage, .configureDefault] {
            for entry in manifest.entries where entry.operation == operation && seen.insert(entry.file).inserted { ordered.append(entry) }
        }
        for entry in ordered where entry.operation == .uploadImage {
            if let identifier = entry.identifier, let held = state.image(identifier), let size = held.imageSize,
               let wanted = entry.imageSize?.rawValue, size != wanted {
                report.warnings.append("Apple lists image \(entry.source) (\(identifier)) as \(size), but this bundle uploads it as \(wanted)")
            }
        }

        let capped = CappedEndpoints()
        let scheduler = LaneScheduler(entries: ordered, pacer: client.pacer)
        let (results, failure) = scheduler.run({ [self] entry, requirements throws(AppleClient.Failure) in
            try apply(entry, state: state, requirements: requirements, capped: capped)
        }, progress: progress)
        for (entry, result) in zip(ordered, results) {
            guard let result else {
                report.left[entry.operation, default: 0] += 1
                continue
            }
            report.results.append((entry, result))
            switch result {
            case .refused: report.verdict.failingFindings += 1
            case .waiting: report.verdict.awaitingReview += 1
            default: break
            }
        }
        if let failure {
            report.verdict.failures.append(Self.failure(failure))
            report.failure = Self.describe(failure)
        }
        if manifest.environment == .production && !dryRun {
            for (entry, result) in report.results where entry.operation != .configureDefault {
                let isImage = entry.operation == .uploadImage
                let held = isImage ? state.image(entry.identifier ?? "") : state.message(entry.identifier ?? "")
                let waits = switch result {
                case .uploaded: true
                case .alreadyHeld: held.map { $0.state != .approved && $0.state != .rejected } ?? false
                default: false
                }
                if waits {
                    if isImage { report.inReview.images += 1 } else { report.inReview.messages += 1 }
                }
            }
        }
        return counted(report)
    }

    private func counted(_ report: Report) -> Report {
        var report = report
        report.requests = client.requestCounts
        return report
    }

    private func apply(
        _ entry: Manifest.Entry, state: StateFile, requirements: [String: Result], capped: CappedEndpoints
    ) throws(AppleClient.Failure) -> Result {
        if let blocked = entry.requires.first(where: { if case .refused = requirements[$0] { true } else { false } }) {
            return .refused("needs \(blocked), which Apple refused")
        }
        switch entry.operation {
        case .uploadImage, .uploadMessage:
            let identifier = entry.identifier ?? ""
            let isImage = entry.operation == .uploadImage
            if (isImage ? state.image(identifier) : state.message(identifier)) != nil { return .alreadyHeld }
            let endpoint: AppleClient.Endpoint = isImage ? .uploadImage : .uploadMessage
            if capped.contains(endpoint) { return .refused("Apple's cap of 2,000 was reached") }
            if dryRun { return .planned }
            let response = try client.send(
                endpoint, method: "PUT", path: "/inApps/v1/messaging/\(isImage ? "image" : "message")/\(identifier)",
                query: entry.imageSize.map { [("imageSize", $0.rawValue)] } ?? [],
                body: try body(of: entry), contentType: isImage ? "image/png" : "application/json")
            switch response.status {
            case 200..<300: return .uploaded
            case 409: return try afterConflict(entry, identifier: identifier)
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
                    if requirements[identifier] == .uploaded {
                        waiting.append("\(identifier) was uploaded now and waits for review")
                    } else if let held, held.state != .approved {
                        waiting.append("\(identifier) is \(held.state.rawValue.isEmpty ? "without a state" : held.state.rawValue) at Apple")
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

    /// A 409 says Apple holds the identifier; its list says whether it holds it as something
    /// that counts. Listed, this upload is done (an earlier attempt reached Apple). Not listed,
    /// Apple refuses an identifier it does not offer, such as one deleted earlier, and will
    /// keep refusing it: the content needs new identifiers.
    private func afterConflict(_ entry: Manifest.Entry, identifier: String) throws(AppleClient.Failure) -> Result {
        let isImage = entry.operation == .uploadImage
        let listed = try StateReader.list(client, images: isImage)
        if listed.contains(where: { $0.identifier == identifier }) { return .alreadyHeld }
        return .refused(
            "Apple answered 409 for \(identifier) but does not list it (an identifier used before, perhaps deleted, is never taken again); give the content new identifiers: see docs/apply.md, \"An identifier Apple will not take\"")
    }

    /// The request body: the entry's file, read once, checked against the SHA-256 the manifest
    /// records, and sent as read. A file changed since the bundle was verified stops the run.
    private func body(of entry: Manifest.Entry) throws(AppleClient.Failure) -> Data {
        let bytes: [UInt8]
        switch FileReader.bytes(at: folder.appendingPathComponent(entry.file), limit: 256 << 20) {
        case .success(let read): bytes = read
        case .failure(.missing): throw .bundleChanged("'\(entry.file)' is gone from the bundle")
        case .failure(.tooLarge(let size)): throw .bundleChanged("'\(entry.file)' has grown to \(size) bytes")
        case .failure(.unreadable(let why)): throw .bundleChanged("'\(entry.file)' cannot be read: \(why)")
        }
        guard Digest.sha256Hex(bytes) == entry.sha256 else {
            throw .bundleChanged("'\(entry.file)' changed after the bundle was verified: it no longer has the SHA-256 its manifest records")
        }
        return Data(bytes)
    }

    /// A product or locale as one path segment (the manifest's reader allows only safe ones;
    /// this keeps it so whatever reaches here).
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    static func refusal(_ response: AppleClient.Response) -> String {
        let (code, message) = response.appleError
        var text = "HTTP \(response.status)"
        if let code { text += " \(code)" }
        if let message { text += ": \(message)" }
        return text
    }

    /// What kind of failure stopped the run: a wait beyond `--max-wait` is resumable; refused
    /// credentials are a usage failure; the rest an I/O failure.
    static func failure(_ error: AppleClient.Failure) -> CommandFailure {
        switch error {
        case .stopped(.waitExceeded): .waitExceeded
        case .unauthorized, .credentials: .usage
        // Another lane stopped it: that lane's failure is the one reported.
        case .stopped(.stopped), .unavailable, .unusableAnswer, .bundleChanged: .io
        }
    }

    static func describe(_ error: AppleClient.Failure) -> String {
        switch error {
        case .unauthorized(let identity, let refusedAt):
            """
            Apple refused the credentials (401): key id \(identity.keyID), issuer id \(identity.issuerID), bundle id \(identity.bundleID); \
            check the key file, --key-id, --issuer-id and the bundle's app, and this machine's clock: a token is refused before \
            the time it says it was issued, and msgc dates it a minute back (this machine's time: \(Self.utc(refusedAt)))
            """
        case .unavailable(let why): "Apple's service did not answer: \(why); run again to resume"
        case .credentials(let why), .unusableAnswer(let why): why
        case .bundleChanged(let why): "the bundle changed during the run: \(why); nothing more was sent (build it again, then apply)"
        case .stopped(.waitExceeded(let endpoint, let until, let waited)):
            "Apple's \(endpoint.rawValue) limit asks msgc to come back at \(Self.utc(until)), beyond --max-wait (\(Int(waited.rounded())) s already waited on 429s); run again after that time to carry on"
        case .stopped(.stopped): "the run was stopped"
        }
    }

    /// `2026-11-26 15:40:03 UTC`.
    static func utc(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d UTC", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}

/// The upload endpoints that answered Apple's cap of 2,000: they are sent nothing more.
private final class CappedEndpoints: Sendable {
    private let endpoints = Mutex<Set<AppleClient.Endpoint>>([])

    func insert(_ endpoint: AppleClient.Endpoint) { endpoints.withLock { _ = $0.insert(endpoint) } }
    func contains(_ endpoint: AppleClient.Endpoint) -> Bool { endpoints.withLock { $0.contains(endpoint) } }
}
