import ArgumentParser
import Bundle
import Compiler
import Foundation
import Lint
import Model
import Parser
import XLIFF

extension Msgc {
    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract",
            abstract: "Write the XLIFF a translator needs for one locale.",
            discussion: """
                Every translatable string of every message that ships in the locale, with the source \
                text, the current translation and its state (so re-exporting never loses work), the \
                message's note, its product and type, and the length limit. A translation whose source \
                has changed since is written back as needing translation.
                """)

        enum XLIFFVersion: String, ExpressibleByArgument, CaseIterable {
            case v1_2 = "1.2"
            case v2_0 = "2.0"
        }

        @Option(name: .long, help: ArgumentHelp("The target locale, as in msgc.yaml.", valueName: "locale"))
        var locale: String

        @Option(name: .long, help: "XLIFF version: 1.2 (default; what Xcode and most tools exchange) or 2.0.")
        var xliff: XLIFFVersion = .v1_2

        @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var out: String?

        @OptionGroup var options: CommonOptions

        func run() throws {
            try options.requireContentTree()
            let (catalog, diagnostics) = ContentTree(root: options.contentURL).load()
            try options.refuseBlockingErrors(catalog, diagnostics, nothing: "nothing was extracted")
            let locale = projectLocale(named: locale, among: catalog.config?.locales.map(\.value) ?? [], quiet: options.quiet)
            let document: String
            do {
                document = try XLIFFExport.document(
                    catalog: catalog, locale: locale, version: xliff == .v2_0 ? .v2_0 : .v1_2, toolVersion: Msgc.version)
            } catch .unusableTranslations(let locale, let files) {
                // Why a file could not be read is what reading it found.
                let paths = Set(files.map(\.path))
                let reasons = diagnostics.filter { paths.contains($0.location.path) }
                if !reasons.isEmpty {
                    var sources = catalog.sourceFiles
                    let tree = ContentTree(root: options.contentURL)
                    for path in paths.sorted() where sources[path] == nil { sources[path] = tree.sourceFile(at: path) }
                    options.write(reasons, sources: sources, to: .standardError)
                }
                Output.error("\(XLIFFExport.Failure.unusableTranslations(locale, files: files))")
                throw Outcome.Status.findings.exitCode
            } catch {
                throw ValidationError(error.description)
            }
            guard let out else {
                Output.write(document, to: .standardOutput)
                return
            }
            let usedFile = catalog.config.flatMap { catalog.fileForLocale(sourceLocale: $0.sourceLocale.value)[locale]?.path }
            try refuseToLoseTranslations(at: out, document: document, usedFile: usedFile, contentPath: options.contentPath)
            do {
                try FileOutput.write(Array(document.utf8), to: URL(fileURLWithPath: out))
            } catch {
                Output.error("\(error)")
                throw Outcome.Status.failure.exitCode
            }
            if !options.quiet {
                Output.write("wrote \(out) (XLIFF \(xliff.rawValue), \(locale))\n", to: .standardError)
            }
        }
    }
}
