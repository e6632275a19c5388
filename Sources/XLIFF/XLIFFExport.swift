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
        if let file = catalog.fileForLocale(sourceLocale: config.sourceLocale.value)[locale] {
            for unit in file.units where existing[unit.id.value] == nil { existing[unit.id.value] = unit }
        }
        return XLIFFWriter.write(
            config: config, messages: messages, locale: locale, existing: existing, version: version, toolVersion: toolVersion)
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
