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
/// The plan is `PrunePlan` (Bundle), which never deletes what is live (docs/live.md); this type
/// only reads what it needs from Apple (the lists, then Get Default Message for every product and
/// locale of the bundles: any answer but a default or the documented 404 stops the run before
/// anything is deleted) and deletes what the plan says. In the run: stray defaults first, then
/// messages, then images (Apple refuses to delete an image a message uses: 403, left and
/// reported). A 404 on a delete is done: an earlier run, stopped part-way, got there first.
///
/// Progress is what Apple lists, as for apply: a second run plans only what is still there.
public struct Pruner: Sendable {
    public typealias Deletion = PrunePlan.Deletion
    public typealias Plan = PrunePlan

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
        /// What reading Apple's state said on the way.
        public var warnings: [String] = []
        public var results: [(deletion: Deletion, result: Result)] = []
        /// What the run came to, for `Verdict.status`.
        public var verdict = Verdict()
        public var failure: String?
        /// Planned deletions the run did not reach (it stopped early).
        public var left = 0
        public var requests = RequestCounts()
    }

    let contents: BundleContents
    let previous: [(path: String, contents: BundleContents)]
    let allUnreferenced: Bool
    let snapshots: [PrunePlan.Snapshot]
    let client: AppleClient

    public init(
        contents: BundleContents, previous: [(path: String, contents: BundleContents)], allUnreferenced: Bool, snapshots: [PrunePlan.Snapshot] = [],
        credentials: Credentials, base: APIBase?, pace: Pace
    ) {
        self.contents = contents
        self.previous = previous
        self.allUnreferenced = allUnreferenced
        self.snapshots = snapshots
        let environment = contents.manifest.environment
        client = AppleClient(
            base: base ?? .apple(environment), credentials: credentials, pacer: Pacer(pace.settings(environment)), backoff: 0.5 * pace.timeScale)
    }

    /// Reads Apple's lists and defaults and works out the plan; with `confirm`, deletes it when
    /// the count matches (else refuses, having deleted nothing).
    public func run(confirm: Int?, progress: @escaping @Sendable (Deletion, Result) -> Void) -> Report {
        var report = Report()
        do {
            (report.plan, report.warnings) = try plan()
        } catch {
            report.verdict.failures.append(error.kind)
            report.failure = error.description
            return counted(report)
        }
        guard let confirm else { return counted(report) }
        guard report.plan.isCovered(by: confirm) else {
            report.verdict.failures.append(.usage)
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
                    report.verdict.failures.append(Applier.failure(error))
                    report.failure = Applier.describe(error)
                    report.left = report.plan.deletions.count - index
                    break
                }
            }
            switch result {
            case .deleted, .alreadyGone: break
            default:
                notDeleted.insert(deletion.identifier)
                report.verdict.failingFindings += 1
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
        let response = try client.send(Self.endpoint(deletion), method: "DELETE", path: Self.path(deletion))
        switch response.status {
        case 200..<300: return .deleted
        case 404 where deletion.kind != .defaultConfiguration: return .alreadyGone
        case 403 where deletion.kind == .image: return .inUse(Applier.refusal(response))
        default: return .refused(Applier.refusal(response))
        }
    }

    static func endpoint(_ deletion: Deletion) -> AppleClient.Endpoint {
        switch deletion.kind {
        case .defaultConfiguration: .deleteDefault
        case .message: .deleteMessage
        case .image: .deleteImage
        }
    }

    static func path(_ deletion: Deletion) -> String {
        switch deletion.kind {
        case .defaultConfiguration: DefaultReader.path(deletion.pair ?? .init(product: "", locale: ""))
        case .message: "/inApps/v1/messaging/message/\(deletion.identifier)"
        case .image: "/inApps/v1/messaging/image/\(deletion.identifier)"
        }
    }

    // MARK: - Planning

    /// Reads Apple's lists and the defaults of every product and locale of the bundles, then plans
    /// (`PrunePlan`): any answer that is not one stops here, before anything is deleted.
    func plan() throws(StateReader.Failure) -> (Plan, [String]) {
        let read = try StateReader.read(client)
        let served: [PrunePlan.Pair: String?]
        do {
            served = try DefaultReader.read(client, pairs: PrunePlan.pairs(live: contents, earlier: previous.map(\.contents)))
        } catch {
            throw StateReader.Failure(description: Applier.describe(error), kind: Applier.failure(error))
        }
        let plan = PrunePlan.make(
            live: contents, earlier: previous, apple: .init(state: read.state, served: served), snapshots: snapshots, allUnreferenced: allUnreferenced)
        return (plan, read.warnings)
    }
}
