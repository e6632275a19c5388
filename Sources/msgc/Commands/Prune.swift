import Apply
import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Model
import Realtime

extension Msgc {
    struct Prune: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Delete at Apple what earlier bundles uploaded and this bundle no longer uses.",
            discussion: """
                Apple holds at most 2,000 messages and 2,000 images per app, and every edit is a new \
                upload. prune reads Apple's lists and the default Apple serves for every product and \
                locale of the earlier bundles and this one, then plans: each default Apple serves for a \
                product and locale this bundle no longer configures, each message and image an earlier \
                bundle names that this bundle does not use (--all-unreferenced: everything Apple lists \
                that this bundle does not use, whoever uploaded it). It never deletes what is live \
                (docs/live.md): what this bundle uses, a message Apple serves as a default it keeps, \
                an approved message whose replacement Apple has not approved yet (the next prune \
                after approval deletes it), what earlier bundles shipped for a product, locale and \
                key this bundle does not ship but its sources keep (a locale waiting for its \
                translation), what a deployed realtime snapshot given with --snapshot answers with, \
                or an image a kept message uses. Each kept item is printed with why.

                Get Default Message answering anything but a default or Apple's 404 \
                DefaultMessageNotFoundError stops the run before anything is deleted.

                Without --confirm it is a dry run: it prints each deletion, why, and the count. \
                --confirm N deletes only when N is that count (defaults, then messages, then images); \
                otherwise it deletes nothing and exits 2. A run stopped part-way is finished by running \
                the same command again: what Apple no longer lists is not asked for, and a 404 is done.

                Exit status: 0 done (or a dry run); 1 Apple refused a deletion or an image is still in \
                use (left at Apple); 2 usage, I/O, a bundle that fails its checks, a --confirm that does \
                not match, credentials Apple refuses or a service that does not answer; 3 a 429 beyond \
                --max-wait: run again later.
                """)

        @Argument(help: ArgumentHelp("The bundle `msgc build` wrote for this release.", valueName: "bundle"))
        var bundle: String

        @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp("Bundles of earlier releases: what they uploaded may be deleted.", valueName: "old-bundle"))
        var previous: [String] = []

        @Flag(name: .long, help: "Also delete what no bundle of this project names: everything Apple lists that this bundle does not use.")
        var allUnreferenced = false

        @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp("The realtime snapshots deployed now: what they answer with is kept.", valueName: "snapshot"))
        var snapshot: [String] = []

        @Option(name: .long, help: ArgumentHelp("Delete, when N is the count the dry run printed.", valueName: "n"))
        var confirm: Int?

        @OptionGroup var apple: AppleCredentialOptions

        @Option(name: .long, help: ArgumentHelp("Requests per second per endpoint (default: Apple's documented limit for the environment).", valueName: "n"))
        var rate: Double?

        @Flag(name: .long, help: "Print only the summary and what went wrong.")
        var quiet = false

        func validate() throws {
            if let rate, !(rate > 0 && rate <= 1000) { throw ValidationError("--rate must be a number of requests per second above 0") }
            if previous.isEmpty && !allUnreferenced { throw ValidationError("give --previous with the bundles of earlier releases, or --all-unreferenced") }
            if let confirm, confirm < 0 { throw ValidationError("--confirm takes the count the dry run printed") }
            _ = try apple.base()
            _ = try apple.pace()
        }

        func execute() throws -> Outcome {
            let contents: BundleContents
            var earlier: [(path: String, contents: BundleContents)] = []
            do {
                contents = try BundleReader.readVerified(URL(fileURLWithPath: bundle), displayPath: bundle)
                for path in previous {
                    let old = try BundleReader.readVerified(URL(fileURLWithPath: path), displayPath: path)
                    guard old.manifest.bundleId == contents.manifest.bundleId, old.manifest.environment == contents.manifest.environment else {
                        throw Refusal(.usage, "'\(path)' is a bundle of \(old.manifest.bundleId) in \(old.manifest.environment.rawValue), not of \(contents.manifest.bundleId) in \(contents.manifest.environment.rawValue); nothing was deleted")
                    }
                    earlier.append((path, old))
                }
            } catch let error as BundleReader.Failure {
                throw Refusal(.io, "\(error); nothing was deleted")
            }
            let snapshots = try snapshot.map { path in try Self.answers(of: path, for: contents.manifest) }
            let credentials = try apple.credentials(bundleID: contents.manifest.bundleId)
            let pruner = Pruner(
                contents: contents, previous: earlier, allUnreferenced: allUnreferenced, snapshots: snapshots, credentials: credentials, base: try apple.base(),
                pace: try apple.pace(uploadRate: rate))
            let quiet = quiet
            let progress = ProgressLines()
            let report = pruner.run(confirm: confirm) { deletion, result in
                guard !quiet else { return }
                progress.write(TerminalText.escaped("\(Self.verb(result)): \(deletion.name)") + "\n")
            }
            try progress.rethrowFailure()
            var lines: [String] = []
            let plan = report.plan
            if confirm == nil || report.failure != nil && report.results.isEmpty {
                if !quiet {
                    lines += plan.deletions.map { "would delete \($0.name): \($0.why)" }
                }
            }
            lines += plan.kept.map { "kept \($0.name): \($0.why)" }
            let waiting = plan.kept.count(where: \.untilApproval)
            if waiting > 0 {
                lines.append("\(waiting) kept until Apple approves \(waiting == 1 ? "its replacement" : "their replacements"): run prune again after approval to delete \(waiting == 1 ? "it" : "them")")
            }
            lines += report.warnings.map { "warning: \($0)" }
            if confirm == nil && report.failure == nil {
                lines.append("dry run: \(plan.headline); nothing was changed at Apple")
                if !plan.deletions.isEmpty {
                    lines.append("to delete them, run this command again with --confirm \(plan.deletions.count)")
                }
            } else if report.failure == nil || !report.results.isEmpty {
                let count = { (matches: (Pruner.Result) -> Bool) in report.results.count { matches($0.result) } }
                var parts = ["\(count { $0 == .deleted }) deleted", "\(count { $0 == .alreadyGone }) already gone"]
                let inUse = count { if case .inUse = $0 { true } else { false } }
                let refused = count { if case .refused = $0 { true } else if case .skipped = $0 { true } else { false } }
                if inUse > 0 { parts.append("\(inUse) image\(inUse == 1 ? "" : "s") still in use, left at Apple") }
                if refused > 0 { parts.append("\(refused) refused") }
                if report.left > 0 { parts.append("\(report.left) left") }
                lines.append("pruned \(plan.headline): " + parts.joined(separator: ", "))
                for (deletion, result) in report.results {
                    switch result {
                    case .inUse(let why): lines.append("in use: \(deletion.name): \(why)")
                    case .refused(let why), .skipped(let why): lines.append("refused: \(deletion.name): \(why)")
                    default: continue
                    }
                }
            }
            lines.append(report.requests.summary)
            if let failure = report.failure { lines.append("stopped: \(failure)") }
            try Output.write(lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n", to: .standardOutput)
            return Outcome(report.verdict)
        }

        /// What the deployed snapshot at `path` answers with; refused unless it is of the bundle's app and environment.
        static func answers(of path: String, for manifest: Manifest) throws -> PrunePlan.Snapshot {
            let snapshot: RealtimeSnapshot
            do {
                snapshot = try RealtimeRelease.read(URL(fileURLWithPath: path), displayPath: path).snapshot
            } catch {
                throw Refusal(.io, "\(error); nothing was deleted")
            }
            guard snapshot.bundleId == manifest.bundleId, snapshot.environment == manifest.environment else {
                throw Refusal(.usage, "'\(path)' is a realtime snapshot of \(snapshot.bundleId) in \(snapshot.environment.rawValue), not of \(manifest.bundleId) in \(manifest.environment.rawValue); nothing was deleted")
            }
            let answers = snapshot.products.flatMap(\.locales).flatMap(\.messages)
            return PrunePlan.Snapshot(path: path, messages: Set(answers.map(\.identifier)), images: Set(answers.flatMap(\.images)))
        }

        static func verb(_ result: Pruner.Result) -> String {
            switch result {
            case .deleted: "deleted"
            case .alreadyGone: "already gone"
            case .inUse: "in use"
            case .skipped: "skipped"
            case .refused: "refused"
            }
        }
    }
}

/// The bundle `msgc state fetch --defaults` asks about: verified, and of the app and environment fetched.
enum StateDefaultsOption {
    static func bundle(_ path: String, bundleID: String, environment: Environment) throws -> BundleContents {
        let contents: BundleContents
        do {
            contents = try BundleReader.readVerified(URL(fileURLWithPath: path), displayPath: path)
        } catch {
            throw Refusal(.io, "\(error); nothing was written")
        }
        guard contents.manifest.bundleId == bundleID, contents.manifest.environment == environment else {
            throw Refusal(.usage, "'\(path)' is a bundle of \(contents.manifest.bundleId) in \(contents.manifest.environment.rawValue), not of \(bundleID) in \(environment.rawValue); nothing was written")
        }
        return contents
    }
}
