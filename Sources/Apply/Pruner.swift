import Bundle
import Foundation
import Model

/// Deletes at Apple what earlier bundles uploaded and the new bundle no longer uses (`msgc prune`).
///
/// Apple's messages are immutable, so every edit is a new upload, and Apple holds at most 2,000
/// of each kind: without deletions a team fills the cap in weeks. Apple's lists hold everything
/// the app uploaded, by any tool, so by default only identifiers an earlier bundle of this
/// project names are candidates; `allUnreferenced` widens that to everything Apple lists.
///
/// Safety, in the plan: never an identifier the new bundle uses; never a message Apple serves as
/// the default of a product and locale of the project (read with Get Default Message first),
/// unless that default is itself deleted here because the bundle no longer configures it; never
/// an image that a kept message of the project uses. In the run: stray defaults first, then
/// messages, then images (Apple refuses to delete an image a message uses: 403, left and
/// reported). A 404 on a delete is done: an earlier run, stopped part-way, got there first.
///
/// Progress is what Apple lists, as for apply: a second run plans only what is still there.
public struct Pruner: Sendable {
    public struct Deletion: Sendable, Equatable {
        public enum Kind: String, Sendable { case defaultConfiguration = "default", message, image }
        public var kind: Kind
        /// A message or image identifier; for a default, `PRODUCT/LOCALE`.
        public var identifier: String
        /// Why it goes, for the reviewer.
        public var why: String
        var path: String
        /// For a default: the message Apple serves there, which may be deleted only after it.
        var serves: String?

        var endpoint: AppleClient.Endpoint {
            switch kind {
            case .defaultConfiguration: .deleteDefault
            case .message: .deleteMessage
            case .image: .deleteImage
            }
        }

        /// `message 1b2c…`, `default of PRODUCT in LOCALE`.
        public var name: String {
            kind == .defaultConfiguration ? "default of \(identifier.replacingOccurrences(of: "/", with: " in "))" : "\(kind.rawValue) \(identifier)"
        }
    }

    /// What a prune would delete, and what it keeps that one might expect it to delete.
    public struct Plan: Sendable {
        /// Stray defaults, then messages, then images, each sorted.
        public var deletions: [Deletion] = []
        /// Identifiers it leaves although the new bundle does not use them, and why.
        public var kept: [(name: String, why: String)] = []
        /// Candidates an earlier bundle names that Apple no longer holds (deleted already), and
        /// defaults an earlier bundle configured that Apple no longer serves: what a stopped run
        /// of the same prune may have done.
        public var alreadyGone = 0
        public var warnings: [String] = []

        public func count(_ kind: Deletion.Kind) -> Int { deletions.count { $0.kind == kind } }

        /// `12 deletions (2 default configurations, 8 messages, 2 images)`.
        public var headline: String {
            func part(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
            return "\(part(deletions.count, "deletion")) (\(part(count(.defaultConfiguration), "default configuration")), \(part(count(.message), "message")), \(part(count(.image), "image")))"
        }

        /// Whether `--confirm confirmed` covers this plan: the same count, or a smaller one whose
        /// shortfall is what an earlier run of the same prune deleted before it was stopped. Never
        /// more than was confirmed.
        public func isCovered(by confirmed: Int) -> Bool {
            deletions.count == confirmed || (deletions.count < confirmed && deletions.count + alreadyGone >= confirmed)
        }
    }

    public enum Result: Equatable, Sendable {
        case deleted
        /// 404: Apple no longer holds it (an earlier run deleted it).
        case alreadyGone
        /// 403 on an image: a message still uses it; left at Apple.
        case inUse(String)
        /// Not sent: what it depends on was not deleted.
        case skipped(String)
        case refused(String)
    }

    public struct Report: Sendable {
        public var plan = Plan()
        public var results: [(deletion: Deletion, result: Result)] = []
        public var status: ExitStatus = .success
        public var failure: String?
        /// Planned deletions the run did not reach (it stopped early).
        public var left = 0
        public var requests = RequestCounts()
    }

    let contents: BundleContents
    let previous: [(path: String, contents: BundleContents)]
    let allUnreferenced: Bool
    let client: AppleClient

    public init(
        contents: BundleContents, previous: [(path: String, contents: BundleContents)], allUnreferenced: Bool, credentials: Credentials,
        base: APIBase?, pace: Pace
    ) {
        self.contents = contents
        self.previous = previous
        self.allUnreferenced = allUnreferenced
        let environment = contents.manifest.environment
        client = AppleClient(
            base: base ?? .apple(environment), credentials: credentials, pacer: Pacer(pace.settings(environment)), backoff: 0.5 * pace.timeScale)
    }

    /// Reads Apple's lists and defaults and works out the plan; with `confirm`, deletes it when
    /// the count matches (else refuses, having deleted nothing).
    public func run(confirm: Int?, progress: @escaping @Sendable (Deletion, Result) -> Void) -> Report {
        var report = Report()
        do {
            report.plan = try plan()
        } catch {
            report.status = error.status
            report.failure = error.description
            return counted(report)
        }
        guard let confirm else { return counted(report) }
        guard report.plan.isCovered(by: confirm) else {
            report.status = .failure
            report.failure = "--confirm \(confirm) does not match the plan, which holds \(report.plan.headline); nothing was deleted: review the dry run again, then confirm its count"
            return counted(report)
        }
        var notDeleted = Set<String>()
        let servedBy = servedMessages(report.plan)
        for (index, deletion) in report.plan.deletions.enumerated() {
            let result: Result
            if deletion.kind == .message, let pair = servedBy[deletion.identifier], notDeleted.contains(pair) {
                result = .skipped("Apple may still serve it as the default of \(pair.replacingOccurrences(of: "/", with: " in ")), which was not deleted")
            } else {
                do {
                    result = try delete(deletion)
                } catch {
                    report.status = max(report.status, Applier.status(error))
                    report.failure = Applier.describe(error)
                    report.left = report.plan.deletions.count - index
                    break
                }
            }
            switch result {
            case .deleted, .alreadyGone: break
            default:
                notDeleted.insert(deletion.identifier)
                report.status = max(report.status, .findings)
            }
            report.results.append((deletion, result))
            progress(deletion, result)
        }
        return counted(report)
    }

    private func counted(_ report: Report) -> Report {
        var report = report
        report.requests = client.requestCounts
        return report
    }

    /// The stray default that serves each message of the plan, by message identifier.
    private func servedMessages(_ plan: Plan) -> [String: String] {
        var result: [String: String] = [:]
        for deletion in plan.deletions where deletion.kind == .defaultConfiguration {
            if let served = deletion.serves { result[served] = deletion.identifier }
        }
        return result
    }

    private func delete(_ deletion: Deletion) throws(AppleClient.Failure) -> Result {
        let response = try client.send(deletion.endpoint, method: "DELETE", path: deletion.path)
        switch response.status {
        case 200..<300: return .deleted
        case 404 where deletion.kind != .defaultConfiguration: return .alreadyGone
        case 403 where deletion.kind == .image: return .inUse(Applier.refusal(response))
        default: return .refused(Applier.refusal(response))
        }
    }

    // MARK: - Planning

    func plan() throws(StateReader.Failure) -> Plan {
        var plan = Plan()
        let state: StateFile
        let read = try StateReader.read(client)
        state = read.state
        plan.warnings = read.warnings
        let manifest = contents.manifest
        let used = Set(manifest.entries.compactMap(\.identifier))
        // What each earlier bundle names: identifier → how the reviewer knows it.
        var named: [String: String] = [:]
        var pairs = Set<DefaultReader.Pair>()
        var imageUsers: [String: Set<String>] = [:]
        for bundle in [(path: "this bundle", contents: contents)] + previous {
            for entry in bundle.contents.manifest.entries {
                if let product = entry.product, let locale = entry.locale { pairs.insert(.init(product: product, locale: locale)) }
                guard let identifier = entry.identifier, bundle.path != "this bundle", named[identifier] == nil else { continue }
                named[identifier] = switch entry.operation {
                case .uploadImage: "image \(entry.source) (\(entry.imageSize?.rawValue ?? "")) in \(bundle.path)"
                default: "message \(entry.product ?? "")/\(entry.key ?? "") in \(entry.locale ?? "") in \(bundle.path)"
                }
            }
            for entry in bundle.contents.manifest.entries where entry.operation == .uploadMessage {
                guard let identifier = entry.identifier, let body = bundle.contents.messageBodies[entry.file] else { continue }
                for image in [body.image?.identifier].compactMap({ $0 }) + body.bullets.compactMap(\.imageIdentifier) {
                    imageUsers[image.lowercased(), default: []].insert(identifier)
                }
            }
        }
        let served: [DefaultReader.Pair: String?]
        do {
            let read = try DefaultReader.read(client, pairs: Array(pairs))
            served = read.served
            plan.warnings += read.warnings
        } catch {
            throw StateReader.Failure(description: Applier.describe(error), status: Applier.status(error))
        }
        let configured = DefaultReader.configured(contents)
        var previouslyConfigured = Set<DefaultReader.Pair>()
        for bundle in previous { previouslyConfigured.formUnion(DefaultReader.configured(bundle.contents).keys) }

        // Defaults Apple serves for a pair this bundle no longer configures go first; every other
        // default Apple serves protects its message.
        var protected: [String: String] = [:]
        for pair in pairs.sorted() {
            guard let servedHere = served[pair] else { continue }
            guard let message = servedHere else {
                if previouslyConfigured.contains(pair) && configured[pair] == nil { plan.alreadyGone += 1 }
                continue
            }
            if let wanted = configured[pair] {
                if protected[message] == nil {
                    protected[message] = wanted == message
                        ? "this bundle configures it as the default of \(pair.name)"
                        : "Apple serves it as the default of \(pair.name), which this bundle re-points to \(wanted): apply this bundle first, then prune"
                }
            } else {
                plan.deletions.append(Deletion(
                    kind: .defaultConfiguration, identifier: "\(pair.product)/\(pair.locale)",
                    why: "Apple serves \(message) there, and this bundle configures no default for \(pair.name)", path: pair.path, serves: message))
            }
        }

        var deletedMessages = Set<String>()
        for held in state.messages.sorted(by: { $0.identifier < $1.identifier }) where !used.contains(held.identifier) {
            let origin = named[held.identifier]
            guard origin != nil || allUnreferenced else { continue }
            if let why = protected[held.identifier] {
                plan.kept.append(("message \(held.identifier)", why))
                continue
            }
            deletedMessages.insert(held.identifier)
            plan.deletions.append(Deletion(
                kind: .message, identifier: held.identifier,
                why: origin.map { "\($0), which this bundle no longer uses" } ?? "Apple lists it (\(Self.state(held))); no bundle of this project names it (--all-unreferenced)",
                path: "/inApps/v1/messaging/message/\(held.identifier)"))
        }
        for held in state.images.sorted(by: { $0.identifier < $1.identifier }) where !used.contains(held.identifier) {
            let origin = named[held.identifier]
            guard origin != nil || allUnreferenced else { continue }
            let keptUsers = (imageUsers[held.identifier] ?? []).filter { state.message($0) != nil && !deletedMessages.contains($0) }
            if let user = keptUsers.sorted().first {
                plan.kept.append(("image \(held.identifier)", "message \(user), which stays at Apple, uses it"))
                continue
            }
            plan.deletions.append(Deletion(
                kind: .image, identifier: held.identifier,
                why: origin.map { "\($0), which this bundle no longer uses" } ?? "Apple lists it (\(Self.state(held))); no bundle of this project names it (--all-unreferenced)",
                path: "/inApps/v1/messaging/image/\(held.identifier)"))
        }
        plan.alreadyGone += named.keys.count { !used.contains($0) && state.message($0) == nil && state.image($0) == nil }
        return plan
    }

    static func state(_ held: HeldUpload) -> String { held.state.rawValue.isEmpty ? "without a state" : held.state.rawValue }
}
