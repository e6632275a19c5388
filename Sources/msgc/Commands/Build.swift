import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Foundation
import Model

extension Msgc {
    struct Build: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Lint, then write the bundle of upload requests for one environment.",
            discussion: """
                The bundle (manifest.json, images/, messages/, defaults/) is written atomically: \
                a failed or interrupted build leaves the previous bundle untouched. Errors in message \
                sources or msgc.yaml stop the build (exit 1, nothing written). A translation that is \
                missing, below minimumState or fails a rule is left out and reported (the manifest's \
                notShipped lists it); the rest ships. A stale translation (its source text changed \
                since) keeps shipping as the previous translation until it is updated, unless \
                msgc.yaml or the message says `staleTranslations: withhold`.

                With --state FILE (Apple's Get Message List and Get Image List responses, saved \
                by the applier for this environment), uploads Apple already holds move from \
                `operations` to `present`, identifiers Apple holds that the bundle no longer uses \
                are listed under `unreferenced`, and in production every default configuration \
                whose message or images are not APPROVED moves to `deferred` with the reason. \
                A state file that is not valid JSON or not of that shape, or that `msgc state fetch` \
                wrote for another environment or app, stops the build (exit 2).
                """)

        @OptionGroup var options: CommonOptions

        @Option(name: .long, help: "The environment to build for: sandbox or production.")
        var environment: Environment

        @Option(name: .long, help: ArgumentHelp("Where to write the bundle (default: build/ENVIRONMENT).", valueName: "dir"))
        var out: String?

        @Option(name: .long, help: ArgumentHelp("A release name recorded in the manifest.", valueName: "version"))
        var release: String?

        @Option(name: .long, help: ArgumentHelp(
            "What Apple holds in this environment: its Get Message List and Get Image List responses, as JSON.",
            valueName: "file"))
        var state: String?

        @Flag(name: .long, help: "Fail on any warning, any left-out translation or any deferred default configuration.")
        var strict = false

        func execute() throws -> Outcome {
            try options.requireContentTree()
            let appleState = try StateOption.load(state, color: options.color, format: options.format)
            let built = Release.build(
                root: options.contentURL, environment: environment, release: release, generatorVersion: Msgc.version, state: appleState)
            if let appleState, let state, let bundleId = built.compilation.catalog.config?.bundleId.value {
                try StateOption.requireOrigin(appleState, path: state, environment: environment, bundleId: bundleId)
            }
            let outcome = built.outcome(strict: strict)
            try options.write(outcome.diagnostics, sources: built.compilation.snippetSources, to: .standardError)
            if built.stoppedEarly {
                // A file msgc could not read says so itself; an error in the sources gets a line that the build stopped.
                if built.compilation.hasIOFailure { return outcome }
                return try .stop("build stopped: \(outcome.summary); nothing was written", outcome)
            }
            guard let bundle = built.bundle else {
                throw Refusal(.io, "build failed: \(built.failure.map { "\($0)" } ?? "")")
            }
            if outcome.status != .success {
                let byStrict = strict && built.outcome(strict: false).status == .success
                return try .stop("build stopped\(byStrict ? " by --strict" : ""): \(outcome.summary); nothing was written", outcome)
            }
            let destination = out ?? "build/\(environment.rawValue)"
            do {
                try BundleWriter.write(bundle, to: URL(fileURLWithPath: destination))
            } catch {
                throw Refusal(.io, "cannot write the bundle: \(error)")
            }
            if !options.quiet {
                var summary = "wrote \(destination): \(bundle.imageCount) image upload\(bundle.imageCount == 1 ? "" : "s"), "
                summary += "\(bundle.messageCount) message\(bundle.messageCount == 1 ? "" : "s"), "
                summary += "\(bundle.defaultCount) default configuration\(bundle.defaultCount == 1 ? "" : "s")"
                let plan = built.plan
                let locales = Set(plan.shipped.map(\.locale)).sorted()
                summary += " in \(locales.count) locale\(locales.count == 1 ? "" : "s") (\(locales.joined(separator: ", ")))\n"
                summary += "digest \(bundle.digest)\n"
                if appleState != nil {
                    summary += "Apple already holds \(bundle.presentCount) of its uploads (present); "
                    summary += "\(bundle.deferredCount) default configuration\(bundle.deferredCount == 1 ? "" : "s") deferred; "
                    summary += "\(bundle.unreferencedCount) identifier\(bundle.unreferencedCount == 1 ? "" : "s") at Apple no longer used (unreferenced)\n"
                }
                let waiting = bundle.manifest.notShipped.filter(\.reason.waitsForTranslation)
                if !waiting.isEmpty {
                    summary += "not shipped while \(waiting.count) message\(waiting.count == 1 ? "" : "s") wait\(waiting.count == 1 ? "s" : "") for translation "
                    summary += "(\(Self.countByReason(waiting))): Apple keeps what it shows there now, and the manifest lists them under notShipped\n"
                }
                let previous = Set(plan.shipped.filter(\.shipsPreviousTranslation).map { "\($0.locale)" })
                if !previous.isEmpty {
                    let count = plan.shipped.count(where: \.shipsPreviousTranslation)
                    summary += "\(count) message\(count == 1 ? "" : "s") in \(previous.sorted().joined(separator: ", ")) ship\(count == 1 ? "s" : "") the previous translation "
                    summary += "of a source text that changed since (TRN001)\n"
                }
                if !plan.leftOut.isEmpty {
                    summary += "left out \(plan.leftOut.count) translation\(plan.leftOut.count == 1 ? "" : "s") that failed a rule: "
                    summary += plan.leftOut.map { "\($0.subject.product)/\($0.subject.key) [\($0.subject.locale ?? "")]" }.joined(separator: ", ") + "\n"
                }
                try Output.write(summary, to: .standardOutput)
            }
            return .success
        }

        /// `3 untranslated, 1 withheld-stale`, in the order of the reasons.
        static func countByReason(_ entries: [Manifest.NotShipped]) -> String {
            Manifest.NotShipped.Reason.allCases.compactMap { reason in
                let count = entries.count { $0.reason == reason }
                return count == 0 ? nil : "\(count) \(reason.rawValue)"
            }.joined(separator: ", ")
        }
    }
}

extension Environment: ExpressibleByArgument {}
