import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Model
import XLIFF

extension Msgc {
    struct Extract: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract",
            abstract: "Write the XLIFF a translator needs for one locale.",
            discussion: """
                Every translatable string of every message that ships in the locale, with the source \
                text, the current translation and its state (so re-exporting never loses work), the \
                message's note, its product and type, and the length limit. A translation whose source \
                has changed since is written back as needing translation. Writing the locale's own file \
                again moves units no message has any more to FILE.orphans beside it, and says so.
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

        func execute() throws -> Outcome {
            try options.requireContentTree()
            let (catalog, diagnostics) = ContentTree(root: options.contentURL).load()
            let compilation = Compilation.compile(root: options.contentURL, loaded: catalog, diagnostics)
            if let stop = try options.blockingErrors(compilation, nothing: "nothing was extracted") { return stop }
            let locale = try projectLocale(named: locale, among: catalog.config?.locales.map(\.value) ?? [], quiet: options.quiet)
            let version: TranslationFile.Version = xliff == .v2_0 ? .v2_0 : .v1_2
            let usedFile = catalog.config.flatMap { catalog.fileForLocale(sourceLocale: $0.sourceLocale.value)[locale]?.path }
            // Replacing the locale's own file: units no message has any more go to the
            // `.orphans` file beside it, merged with what that file already keeps.
            let replacesUsedFile = out.map { isLocaleFile($0, usedFile, contentPath: options.contentPath) } ?? false
            // An --out that is a link to the locale's file is written through: the file it points
            // at is replaced (not the link), and the orphans go beside that file.
            let destination = replacesUsedFile ? usedFile.map { options.pathPrefix + $0 } : out
            let orphansURL = destination.map { URL(fileURLWithPath: $0 + ".orphans") }
            // Units the reader had to leave out of the locale's file (a repeat with another
            // target, a <file> for another language) are not in the catalog: writing the file
            // again would drop them without a trace.
            let leftOut: Set<String> = [XLIFFDiagnostics.conflictingUnits.code, XLIFFDiagnostics.conflictingTargetLanguages.code]
            if replacesUsedFile, let out, case let dropping = diagnostics.filter({ $0.location.path == usedFile && leftOut.contains($0.code) }),
               !dropping.isEmpty {
                try options.write(dropping, sources: catalog.sourceFiles, to: .standardError)
                return try .stop("'\(out)' holds translations msgc cannot use (above), which writing it again would drop; keep one of each "
                    + "repeated unit and move a <file> for another language to a file of its own first. Nothing was written",
                    Outcome(Verdict(failingFindings: dropping.count)))
            }
            var earlierOrphans: [TranslationUnit] = []
            if replacesUsedFile, let orphansURL {
                switch XLIFFExport.orphans(at: orphansURL) {
                case .success(let units): earlierOrphans = units
                case .failure(let why):
                    throw Refusal(.io, "'\(orphansURL.relativePath)' exists but \(why.text), so msgc cannot add to it; nothing was written. Move it away first")
                }
            }
            let extraction: XLIFFExport.Extraction
            do {
                extraction = try XLIFFExport.extraction(
                    catalog: catalog, locale: locale, version: version, toolVersion: Msgc.version, previousOrphans: earlierOrphans)
            } catch .unusableTranslations(let locale, let files) {
                // Why a file could not be read is what reading it found.
                let paths = Set(files.map(\.path))
                let reasons = diagnostics.filter { paths.contains($0.location.path) }
                if !reasons.isEmpty { try options.write(reasons, sources: catalog.sourceFiles, to: .standardError) }
                // Files that cannot be used are findings about them, whether or not reading them said why.
                return try .stop("\(XLIFFExport.Failure.unusableTranslations(locale, files: files))", Outcome(Verdict(failingFindings: max(1, reasons.count))))
            } catch {
                throw ValidationError(error.description)
            }
            let document = extraction.document
            guard let out, let destination, let orphansURL else {
                try Output.write(document, to: .standardOutput)
                try ExtractionReport.write(extraction, pathPrefix: options.pathPrefix, orphansKeptIn: nil, replacing: false, quiet: options.quiet)
                return .success
            }
            try refuseToLoseTranslations(at: out, document: document, usedFile: usedFile, contentPath: options.contentPath)
            try refuseToWriteIntoTheTree(at: out, contentPath: options.contentPath, localeFile: usedFile)
            do {
                // The orphans first: if they cannot be written, the file that holds them now stays.
                if replacesUsedFile, !extraction.orphans.isEmpty {
                    switch XLIFFExport.mergeOrphans(earlierOrphans, extraction.orphans) {
                    case .success(let units):
                        let orphans = XLIFFWriter.writeOrphans(
                            config: catalog.config!, units: units, locale: locale, version: version, toolVersion: Msgc.version)
                        try FileOutput.write(Array(orphans.utf8), to: orphansURL, throughLink: false)
                    case .failure(let conflict):
                        throw Refusal(.io, "'\(orphansURL.relativePath)' already keeps another translation of unit '\(conflict.text)', which "
                            + "'\(out)' no longer needs either; move that file away (or merge it by hand) and extract again. Nothing was written")
                    }
                }
                try FileOutput.write(Array(document.utf8), to: URL(fileURLWithPath: destination))
            } catch let error as FileOutput.Failure {
                throw Refusal(.io, "\(error)")
            }
            try ExtractionReport.write(
                extraction, pathPrefix: options.pathPrefix, orphansKeptIn: replacesUsedFile ? orphansURL.relativePath : nil, replacing: true,
                quiet: options.quiet)
            if !options.quiet {
                try Output.write("wrote \(out) (XLIFF \(xliff.rawValue), \(locale))\n", to: .standardError)
            }
            return .success
        }
    }
}
