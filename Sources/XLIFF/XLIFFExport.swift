import Diagnostics
import Foundation
import Model

/// What `msgc extract` writes for one locale: every message of every product that ships in
/// that locale, with the translations the content tree already has for it.
public enum XLIFFExport {
    /// A translation file `unusableFiles` found.
    public struct UnusableFile: Equatable, Sendable {
        public var path: String
        /// The target language a readable file gives, when it is the locale spelled otherwise;
        /// nil for a file that could not be read.
        public var targetLanguage: String?

        public init(path: String, targetLanguage: String? = nil) {
            self.path = path
            self.targetLanguage = targetLanguage
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noConfiguration
        case sourceLocale(String)
        case localeNotInProject(String, projectLocales: [String])
        /// Files that may hold the locale's translations but cannot be used: writing without
        /// them would drop the translators' work.
        case unusableTranslations(String, files: [UnusableFile])

        public var description: String {
            switch self {
            case .noConfiguration:
                "the content tree has no usable msgc.yaml; run `msgc lint` to see why"
            case .sourceLocale(let locale):
                "'\(locale)' is the source locale; its text is in the message sources, not in XLIFF"
            case .localeNotInProject(let locale, let locales):
                "'\(locale)' is not one of the project's locales (\(locales.joined(separator: ", "))); add it to `locales` in msgc.yaml first"
            case .unusableTranslations(let locale, let files):
                files.map { file in
                    let why = file.targetLanguage.map { "its target language is '\($0)', not '\(locale)'" } ?? "it cannot be read"
                    return "'\(file.path)' may hold \(locale) translations, but \(why)"
                }.joined(separator: "; ")
                    + "; fix \(files.count == 1 ? "it" : "them"), or move \(files.count == 1 ? "it" : "them") out of the content tree "
                    + "to start \(locale) afresh. Nothing was extracted, so no translation is lost"
            }
        }
    }

    /// The XLIFF document for `locale`.
    public static func document(
        catalog: Catalog, locale: String, version: TranslationFile.Version, toolVersion: String
    ) throws(Failure) -> String {
        try extraction(catalog: catalog, locale: locale, version: version, toolVersion: toolVersion).document
    }

    /// What re-extracting a locale does with the work in the file msgc reads for it.
    public struct Extraction: Sendable {
        /// The new file.
        public var document: String
        /// The file msgc reads for the locale (root-relative), whose work the document carries.
        public var usedFile: String?
        /// Units of the document with a translation from `usedFile`, and how many of those are
        /// current (not stale) and approved (1.2 `approved="yes"`, written back).
        public var translationsKept = 0
        public var approvedKept = 0
        /// Of `translationsKept`, those written back as needing translation: the source has
        /// changed since (stale), or the target held inline markup, which was removed.
        public var staleKept = 0
        public var markupRemoved = 0
        /// Candidates (`<alt-trans>`, `<mtc:match>`) and translators' notes written back.
        public var candidatesKept = 0
        public var notesKept = 0
        /// Units of `usedFile` that no message written has (key renamed or message removed, or
        /// not shipped in the locale any more) and that hold work: a translation, a translator's
        /// note or a candidate. The document drops them; `msgc extract --out` keeps them in
        /// the `.orphans` file beside it.
        public var orphans: [TranslationUnit] = []
        /// Units of the document offered an orphan's translation as a candidate, because the
        /// orphan's source text is theirs (a renamed key): new unit id → orphan ids.
        public var suggestions: [String: [String]] = [:]
    }

    /// The XLIFF document for `locale`, and what it carries from the locale's file. Orphans of
    /// earlier runs (`previousOrphans`, the `.orphans` file's units) are offered as candidates
    /// too, to a unit whose source text they translate.
    public static func extraction(
        catalog: Catalog, locale: String, version: TranslationFile.Version, toolVersion: String,
        previousOrphans: [TranslationUnit] = []
    ) throws(Failure) -> Extraction {
        guard let config = catalog.config else { throw .noConfiguration }
        guard locale != config.sourceLocale.value else { throw .sourceLocale(locale) }
        guard config.locales.contains(where: { $0.value == locale }) else {
            throw .localeNotInProject(locale, projectLocales: config.locales.map(\.value))
        }
        let unusable = unusableFiles(catalog.translationFiles, locale: locale)
        guard unusable.isEmpty else { throw .unusableTranslations(locale, files: unusable) }
        let productLocales = ProductLocales(config)
        let messages = catalog.messages.filter { productLocales[$0.product.value].contains(locale) }
        var existing: [String: TranslationUnit] = [:]
        let file = catalog.fileForLocale(sourceLocale: config.sourceLocale.value)[locale]
        for unit in file?.units ?? [] where existing[unit.id.value] == nil { existing[unit.id.value] = unit }
        var extraction = Extraction(document: "", usedFile: file?.path)
        // The units written, with their source texts, in order.
        var written: [(id: String, source: String)] = []
        var writtenIDs = Set<String>()
        for message in messages {
            for (field, text) in message.fields where writtenIDs.insert(message.unitID(of: field)).inserted {
                written.append((message.unitID(of: field), text.value))
            }
        }
        for (id, source) in written {
            guard let unit = existing[id] else { continue }
            if unit.target != nil {
                extraction.translationsKept += 1
                if !unit.inlineMarkup.isEmpty {
                    extraction.markupRemoved += 1
                } else if unit.source.value != source {
                    extraction.staleKept += 1
                }
            }
            if unit.target != nil, unit.isApproved, unit.source.value == source, unit.inlineMarkup.isEmpty { extraction.approvedKept += 1 }
            extraction.candidatesKept += unit.candidates.count
            extraction.notesKept += unit.notes.count
        }
        // msgc's own offers are no one's work: the orphan they came from is kept already.
        extraction.orphans = (file?.units ?? []).filter { unit in
            !writtenIDs.contains(unit.id.value)
                && (unit.target != nil || !unit.notes.isEmpty || unit.candidates.contains { !($0.origin?.hasPrefix(offerOrigin) ?? false) })
        }
        // A unit with no translation is offered each orphan's translation of its very source
        // text: what a renamed key leaves behind, for the translator to take with one click.
        var bySource: [String: [TranslationUnit]] = [:]
        for orphan in extraction.orphans + previousOrphans where orphan.target != nil {
            bySource[orphan.source.value, default: []].append(orphan)
        }
        var suggestions: [String: [TranslationCandidate]] = [:]
        if !bySource.isEmpty {
            for (id, source) in written where existing[id]?.target == nil {
                var seenTargets = Set<String>()
                for orphan in bySource[source] ?? [] where seenTargets.insert(orphan.target!.value).inserted {
                    let candidate = TranslationCandidate(
                        origin: offerOrigin + orphan.id.value, quality: "100", source: source, target: orphan.target!.value)
                    extraction.suggestions[id, default: []].append(orphan.id.value)
                    // Offered by an earlier run and still there: once is enough.
                    if existing[id]?.candidates.contains(candidate) ?? false { continue }
                    suggestions[id, default: []].append(candidate)
                }
            }
        }
        extraction.document = XLIFFWriter.write(
            config: config, messages: messages, locale: locale, existing: existing, suggestions: suggestions, version: version,
            toolVersion: toolVersion)
        return extraction
    }

    /// Why an `.orphans` file cannot be added to: what is wrong with it, or the unit id it
    /// already keeps another translation of.
    public struct OrphansConflict: Error, Equatable {
        public var text: String
    }

    /// The `origin` of a candidate msgc offers from an orphan, before the orphan's id.
    public static let offerOrigin = "msgc: the translation of "

    /// The units an `.orphans` file at `url` keeps (none when there is no file), or why it
    /// cannot be read: then it must not be replaced.
    public static func orphans(at url: URL) -> Result<[TranslationUnit], OrphansConflict> {
        switch FileReader.bytes(at: url, limit: ContentLimits.maxXLIFFBytes) {
        case .success(let bytes):
            let (file, diagnostics) = XLIFFReader.read(bytes: bytes, path: url.lastPathComponent)
            guard file.isReadable else { return .failure(OrphansConflict(text: "it cannot be read as XLIFF (\(diagnostics.first?.message ?? "not XLIFF"))")) }
            return .success(file.units)
        case .failure(.missing): return .success([])
        case .failure(.tooLarge(let size)): return .failure(OrphansConflict(text: "it has \(size) bytes, more than msgc reads"))
        case .failure(.unreadable(let reason)): return .failure(OrphansConflict(text: "it cannot be read (\(reason))"))
        }
    }

    /// `earlier` orphans with `new` ones after them; an orphan whose id an earlier one has is
    /// merged into it (one translation, the notes and candidates of both). Fails with the id
    /// when both have a translation and they differ (or their sources do): both are someone's
    /// work, and one file cannot hold two units with one id.
    public static func mergeOrphans(_ earlier: [TranslationUnit], _ new: [TranslationUnit]) -> Result<[TranslationUnit], OrphansConflict> {
        var merged = earlier
        var index: [String: Int] = [:]
        for (position, unit) in merged.enumerated() where index[unit.id.value] == nil { index[unit.id.value] = position }
        for unit in new {
            guard let position = index[unit.id.value] else {
                index[unit.id.value] = merged.count
                merged.append(unit)
                continue
            }
            let old = merged[position]
            if let oldTarget = old.target, let newTarget = unit.target,
               oldTarget.value != newTarget.value || old.source.value != unit.source.value {
                return .failure(OrphansConflict(text: unit.id.value))
            }
            // One translation at most: the unit that has it, with the other's notes and candidates.
            let (base, other) = unit.target != nil || old.target == nil ? (unit, old) : (old, unit)
            var kept = base
            for note in other.notes where !kept.notes.contains(note) { kept.notes.append(note) }
            for candidate in other.candidates where !kept.candidates.contains(candidate) { kept.candidates.append(candidate) }
            merged[position] = kept
        }
        return .success(merged)
    }

    /// Translation files that may be `locale`'s but that the localizer cannot use for it: a
    /// file that could not be read whose target language (when it was read) or else file name
    /// is the locale in any spelling (`de-DE`, `de-de`, `de_DE`). A readable file whose target
    /// language differs from the locale only in case or in `_` (`de-de`, `de_DE`) is the
    /// locale's: the localizer binds it, and its translations are carried over.
    public static func unusableFiles(_ files: [TranslationFile], locale: String) -> [UnusableFile] {
        let key = XLIFFUnitCollector.languageKey
        let wanted = key(locale)
        return files.compactMap { file in
            let language = file.targetLanguage?.value
            if file.isReadable { return nil }
            if let language { return key(language) == wanted ? UnusableFile(path: file.path) : nil }
            let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
            let stem = name.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
            return key(stem) == wanted ? UnusableFile(path: file.path) : nil
        }
    }

    /// What replacing the file at `url` with `document` would do to translations in it.
    public enum Replacement: Equatable, Sendable {
        /// Nothing there, or every translation in it is in `document` too.
        case safe
        /// The file cannot be read (the reason), so msgc cannot tell what it holds.
        case unreadable(String)
        /// The file is not XLIFF msgc can read (what reading it found).
        case notXLIFF(String)
        /// `count` units with a translation that `document` does not carry over.
        case losesTranslations(count: Int, targetLanguage: String?)
    }

    /// Whether writing `document` over the file at `url` keeps every translation the file holds:
    /// every unit with a target must be in `document` with the same target. A file whose target
    /// language is `replaceableLocale` (a pseudo locale being made again) may be replaced whole.
    public static func replacing(_ url: URL, with document: String, replaceableLocale: String? = nil) -> Replacement {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return .safe }
        let bytes: [UInt8]
        switch FileReader.bytes(at: url, limit: ContentLimits.maxXLIFFBytes) {
        case .success(let read): bytes = read
        case .failure(.missing): return .safe
        case .failure(.tooLarge(let size)): return .unreadable("it has \(size) bytes, more than msgc reads")
        case .failure(.unreadable(let reason)): return .unreadable(reason)
        }
        if bytes.isEmpty { return .safe }
        let (existing, diagnostics) = XLIFFReader.read(bytes: bytes, path: url.lastPathComponent)
        guard existing.isReadable else { return .notXLIFF(diagnostics.first?.message ?? "it is not XLIFF") }
        let language = existing.targetLanguage?.value
        if let replaceableLocale, let language, language.lowercased() == replaceableLocale.lowercased() { return .safe }
        let (written, _) = XLIFFReader.read(bytes: Array(document.utf8), path: url.lastPathComponent)
        var targets: [String: String] = [:]
        for unit in written.units { if let target = unit.target { targets[unit.id.value] = target.value } }
        let lost = existing.units.filter { unit in unit.target.map { targets[unit.id.value] != $0.value } ?? false }
        return lost.isEmpty ? .safe : .losesTranslations(count: lost.count, targetLanguage: language)
    }
}
