import ArgumentParser
import CommandLineSupport
import Compiler
import Bundle
import Foundation
import Model

extension Msgc {
    struct Diff: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Show what a new bundle changes compared with an earlier one, and what Apple must review again.",
            discussion: """
                Compares two bundles written by `msgc build` for the same app and environment. Per \
                product and locale: messages new, gone or changed (changed content is a new upload \
                that Apple reviews again), default configurations new, gone or re-pointed (now \
                pointing at another message); then images, and the counts, unchanged included. A \
                message or default the sources still have but the new bundle does not ship (its \
                manifest's notShipped: a locale waiting for translation) is withheld, never gone. \
                Realtime facts that differ (a message's offer, switchTo, billingPlanType or type; a \
                product's group, choice or weights) are listed too, though they change no upload.

                Exit status: 0 (with --exit-code: 0 only when the bundles hold the same uploads, \
                default configurations and realtime facts, else 1); 2 when a folder is not an msgc bundle, its manifest \
                is corrupt, its files do not match their digest, or the bundles are for different \
                apps or environments.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @Argument(help: ArgumentHelp("The earlier bundle.", valueName: "old-bundle"))
        var oldBundle: String

        @Argument(help: ArgumentHelp("The new bundle.", valueName: "new-bundle"))
        var newBundle: String

        @Option(name: .long, help: "Output format: text or json.")
        var format: Format = .text

        @Flag(name: .long, help: "Exit 1 when the bundles differ, as `git diff --exit-code` does.")
        var exitCode = false

        func execute() throws -> Outcome {
            let diff: BundleDiff
            do {
                diff = try BundleDiff.compare(
                    old: URL(fileURLWithPath: oldBundle), oldPath: oldBundle, new: URL(fileURLWithPath: newBundle), newPath: newBundle)
            } catch {
                throw Refusal(.io, "\(error)")
            }
            switch format {
            case .text: try Output.write(BundleDiffTextRenderer.render(diff), to: .standardOutput)
            case .json: try Output.write(BundleDiffJSONRenderer.render(diff), to: .standardOutput)
            }
            // With --exit-code, a difference is what was asked about: a finding.
            return Outcome(Verdict(failingFindings: exitCode && diff.hasChanges ? 1 : 0))
        }
    }
}
