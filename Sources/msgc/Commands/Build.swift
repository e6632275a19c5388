import ArgumentParser
import Bundle
import Compiler
import Diagnostics
import Foundation
import Lint
import Model

extension Msgc {
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Lint, then write the bundle of upload requests for one environment.",
            discussion: """
                The bundle (manifest.json, images/, messages/, defaults/) is written atomically: \
                a failed or interrupted build leaves the previous bundle untouched. Errors in message \
                sources or msgc.yaml stop the build (exit 1, nothing written). A translation that is \
                stale, below minimumState or fails a rule is left out and reported; the rest ships.

                With --state FILE (Apple's Get Message List and Get Image List responses, saved \
                by the applier for this environment), uploads Apple already holds move from \
                `operations` to `present`, identifiers Apple holds that the bundle no longer uses \
                are listed under `unreferenced`, and in production every default configuration \
                whose message or images are not APPROVED moves to `deferred` with the reason. \
                A state file that is not valid JSON or not of that shape stops the build (exit 2).
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

        func run() throws {
            try options.requireContentTree()
            let appleState = try StateOption.load(state, color: options.color, format: options.format)
            let compilation = Compilation.compile(root: options.contentURL)
            let plan = ReleasePlan(compilation: compilation)
            let sourceLocale = compilation.catalog.config?.sourceLocale.value
            let early = Outcome.build(compilation.diagnostics, strict: false, sourceLocale: sourceLocale)
            guard early.status == .success, let config = compilation.catalog.config else {
                let shown = report(Outcome.build(compilation.diagnostics, strict: strict, sourceLocale: sourceLocale), compilation)
                if early.status != .failure { note("build stopped: \(shown.summary); nothing was written") }
                throw max(early.status, .findings).exitCode
            }

            var images: [String: [UInt8]] = [:]
            for (path, asset) in compilation.catalog.images { if let bytes = asset.bytes { images[path] = bytes } }
            let input = BundleBuilder.Input(
                config: config, messages: plan.shipped, images: images, environment: environment, release: release,
                generatorVersion: Msgc.version, state: appleState)
            let bundle: UploadBundle
            do {
                bundle = try BundleBuilder.build(input)
            } catch {
                report(Outcome.build(compilation.diagnostics, strict: strict, sourceLocale: sourceLocale), compilation)
                note("build failed: \(error)")
                throw Outcome.Status.failure.exitCode
            }
            // With a state file, the caps count what Apple will hold: the bundle plus what it no longer uses.
            let caps = appleState == nil ? [] : TooManyUploads.capDiagnostics(
                messages: bundle.messagesHeldAfterApply, images: bundle.imagesHeldAfterApply,
                unreferencedMessages: bundle.manifest.unreferenced?.count { $0.kind == .message } ?? 0,
                unreferencedImages: bundle.manifest.unreferenced?.count { $0.kind == .image } ?? 0)
            let diagnostics = (compilation.diagnostics + compilation.settle(bundle.diagnostics + caps)).sortedForOutput()
            let outcome = report(Outcome.build(diagnostics, strict: strict, sourceLocale: sourceLocale), compilation)
            if outcome.status != .success {
                let byStrict = Outcome.build(diagnostics, strict: false, sourceLocale: sourceLocale).status == .success
                note("build stopped\(byStrict ? " by --strict" : ""): \(outcome.summary); nothing was written")
                try outcome.finish()
            }
            let destination = out ?? "build/\(environment.rawValue)"
            do {
                try BundleWriter.write(bundle, to: URL(fileURLWithPath: destination))
            } catch {
                note("cannot write the bundle: \(error)")
                throw Outcome.Status.failure.exitCode
            }
            if !options.quiet {
                var summary = "wrote \(destination): \(bundle.imageCount) image upload\(bundle.imageCount == 1 ? "" : "s"), "
                summary += "\(bundle.messageCount) message\(bundle.messageCount == 1 ? "" : "s"), "
                summary += "\(bundle.defaultCount) default configuration\(bundle.defaultCount == 1 ? "" : "s")"
                let locales = Set(plan.shipped.map(\.locale)).sorted()
                summary += " in \(locales.count) locale\(locales.count == 1 ? "" : "s") (\(locales.joined(separator: ", ")))\n"
                summary += "digest \(bundle.digest)\n"
                if appleState != nil {
                    summary += "Apple already holds \(bundle.presentCount) of its uploads (present); "
                    summary += "\(bundle.deferredCount) default configuration\(bundle.deferredCount == 1 ? "" : "s") deferred; "
                    summary += "\(bundle.unreferencedCount) identifier\(bundle.unreferencedCount == 1 ? "" : "s") at Apple no longer used (unreferenced)\n"
                }
                if !plan.leftOut.isEmpty {
                    summary += "left out \(plan.leftOut.count) translation\(plan.leftOut.count == 1 ? "" : "s") that failed a rule: "
                    summary += plan.leftOut.map { "\($0.subject.product)/\($0.subject.key) [\($0.subject.locale ?? "")]" }.joined(separator: ", ") + "\n"
                }
                Output.write(summary, to: .standardOutput)
            }
        }

        /// Prints the outcome's diagnostics and returns it.
        @discardableResult
        private func report(_ outcome: Outcome, _ compilation: Compilation) -> Outcome {
            options.write(outcome.diagnostics, sources: compilation.snippetSources(root: options.contentURL), to: .standardError)
            return outcome
        }

        private func note(_ text: String) {
            Output.error("\(text)")
        }
    }
}

extension Environment: ExpressibleByArgument {}
