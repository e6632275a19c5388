import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Model
import Preview

extension Msgc {
    struct PreviewCommand: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "preview",
            abstract: "Draw every message in every locale as Apple's cancellation sheet shows it, as HTML pages.",
            discussion: """
                Writes index.html and one page per locale (LOCALE.html) into --out (default \
                build/preview): each message's sheet (header above the body or above the image, the \
                image, the bullet points with their icons; mirrored for right-to-left locales), every \
                string's length against Apple's limit, and the lint findings about it. Pseudo locales \
                (`msgc pseudo`) get pages too. The pages are self-contained: open them from disk, \
                attach them to a review, keep them as a CI artifact.

                Exit status: 0 when the pages were written, whatever the findings (`msgc lint` is the \
                gate); 1 when msgc.yaml is unusable; 2 when a file cannot be read or a page written.
                """)

        @Option(name: .long, help: ArgumentHelp("Write only this locale's page.", valueName: "locale"))
        var locale: String?

        @Option(name: .long, help: ArgumentHelp("The folder to write the pages into (default: build/preview).", valueName: "dir"))
        var out: String = "build/preview"

        @OptionGroup var options: CommonOptions

        func execute() throws -> Outcome {
            try options.requireContentTree()
            let run = try PreviewRun.draw(root: options.contentURL) { available in
                let chosen = try locale.map { try projectLocale(named: $0, among: available, quiet: options.quiet) }
                if let chosen, !available.contains(chosen) {
                    throw ValidationError("'\(chosen)' is not a locale of this project; choose one of \(available.joined(separator: ", "))")
                }
                return chosen
            }
            guard let summary = run.summary else {
                let shown = run.compilation.diagnostics.filter { $0.severity == .error }
                try options.write(shown, sources: run.compilation.snippetSources, to: .standardError)
                // What stops it is what it shows: a file msgc could not read (2), or errors (1).
                var verdict = run.compilation.policy.verdict(of: shown)
                verdict.failingFindings = max(verdict.failingFindings, 1)
                return try .stop("nothing to preview; nothing was written", Outcome(verdict))
            }
            let pages = run.pages
            let folder = URL(fileURLWithPath: out)
            do {
                try FileOutput.makeFolder(folder)
                for page in pages { try FileOutput.write(Array(page.html.utf8), named: page.name, in: folder) }
            } catch {
                throw Refusal(.io, "cannot write the preview: \(error)")
            }
            if !options.quiet {
                var text = "wrote \(out)/\(pages.count == 1 ? pages[0].name : "index.html and \(pages.count - 1) locale pages"): "
                text += "\(summary.sheetCount) sheet\(summary.sheetCount == 1 ? "" : "s")"
                if summary.unavailableCount > 0 { text += ", \(summary.unavailableCount) message\(summary.unavailableCount == 1 ? "" : "s") without a usable translation" }
                text += ", \(summary.sheetsWithFindings) with findings\n"
                try Output.write(text, to: .standardOutput)
            }
            return .success
        }
    }
}
