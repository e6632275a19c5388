import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Foundation
import Model
import PseudoLocalization

extension Msgc {
    struct Pseudo: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "pseudo",
            abstract: "Write a pseudo-translation, to see overflow and right-to-left layout before translators start.",
            discussion: """
                Every string of every message, accented, between brackets and longer by --expansion \
                (0.35: 35% longer, counted in the project's lengthMeasure), written as XLIFF into \
                translations/ (or --out). Numbers, placeholders, markup, URLs and e-mail addresses stay \
                as written. A right-to-left pseudo locale (ar-XB) also runs its words right to left.

                The locale must be a pseudo locale: a private-use region XA-XZ (en-XA, ar-XB) or a tag \
                ending in -x-pseudo (en-x-pseudo), and not one of the project's locales. `msgc lint` \
                then reports what would overflow (as warnings: a forecast) and `msgc preview --locale L` \
                shows it; `msgc build` never ships a pseudo locale. Run it again after the sources change.
                """)

        @Option(name: .long, help: ArgumentHelp("The pseudo locale: en-XA, ar-XB or LANG-x-pseudo.", valueName: "locale"))
        var locale: String

        @Option(name: .long, help: ArgumentHelp("How much longer to make each text, as a fraction (0.35 = 35%).", valueName: "ratio"))
        var expansion: Double = 0.35

        @Option(name: .long, help: "XLIFF version: 1.2 (default) or 2.0.")
        var xliff: Extract.XLIFFVersion = .v1_2

        @Option(name: .long, help: ArgumentHelp(
            "Where to write (default: the file in translations/ that already holds this locale, else translations/LOCALE.xliff).",
            valueName: "file"))
        var out: String?

        @OptionGroup var options: CommonOptions

        func validate() throws {
            guard (0...3).contains(expansion) else {
                throw ValidationError("--expansion takes a fraction from 0 to 3 (0.35 is 35% longer), not \(expansion)")
            }
        }

        func execute() throws -> Outcome {
            try options.requireContentTree()
            let (catalog, diagnostics) = ContentTree(root: options.contentURL).load()
            let compilation = Compilation.compile(root: options.contentURL, loaded: catalog, diagnostics)
            if let stop = try options.blockingErrors(compilation, nothing: "nothing was written") { return stop }
            let result: PseudoTranslation.Output
            do {
                result = try PseudoTranslation.make(
                    catalog: catalog, locale: locale, expansion: expansion, version: xliff == .v2_0 ? .v2_0 : .v1_2,
                    toolVersion: Msgc.version)
            } catch {
                throw ValidationError(error.description)
            }

            let existing = catalog.translationFiles.first { $0.targetLanguage?.value == locale }?.path
            let destination = out ?? options.pathPrefix + (existing ?? "translations/\(locale).xliff")
            if out == nil, existing == nil,
               let other = catalog.translationFiles.first(where: { $0.path == "translations/\(locale).xliff" }) {
                // The default name is taken by a file for another locale: never write over a translator's work.
                throw Refusal(.usage, "'\(options.pathPrefix)\(other.path)' translates '\(other.targetLanguage?.value ?? "?")', not '\(locale)'; choose a file with --out")
            }
            // A file of this pseudo locale is made again whole; any other file's translations are kept.
            try refuseToLoseTranslations(
                at: destination, document: result.document, usedFile: nil, contentPath: options.contentPath, replaceableLocale: locale)
            try refuseToWriteIntoTheTree(at: destination, contentPath: options.contentPath, localeFile: existing)
            let url = URL(fileURLWithPath: destination)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileOutput.write(Array(result.document.utf8), to: url, throughLink: out != nil)
            } catch {
                throw Refusal(.io, "\(error)")
            }
            if !options.quiet {
                let percent = (expansion * 100).rounded() == expansion * 100 ? "\(Int(expansion * 100))" : "\(expansion * 100)"
                var text = "wrote \(destination) (XLIFF \(xliff.rawValue), \(locale), +\(percent)%): \(result.unitCount) strings"
                text += result.overflowing.isEmpty
                    ? ", none longer than Apple's limit\n"
                    : ", \(result.overflowing.count) longer than Apple's limit; `msgc lint` says where, `msgc preview --locale \(locale)` shows them\n"
                try Output.write(text, to: .standardOutput)
            }
            return .success
        }
    }
}
