extension Catalog {
    /// The file that translates each locale: the first readable one in bytewise path order
    /// (lint reports the others). The source locale has none.
    public func fileForLocale(sourceLocale: String) -> [String: TranslationFile] {
        let binding = config.map(LocaleBinding.init)
        var fileForLocale: [String: TranslationFile] = [:]
        for file in translationFiles where file.isReadable {
            guard let tag = file.targetLanguage?.value else { continue }
            let locale = binding?.locale(for: tag) ?? tag
            guard locale != sourceLocale, fileForLocale[locale] == nil else { continue }
            fileForLocale[locale] = file
        }
        return fileForLocale
    }

    /// Readable XLIFF files that no locale can ever use: without a target language, or with
    /// the source locale's (in any case). Each gets one diagnostic that says so, none per unit.
    public var unusableTranslationFiles: [TranslationFile] {
        guard let config else { return [] }
        let binding = LocaleBinding(config)
        return translationFiles.filter { file in
            guard file.isReadable else { return false }
            guard let tag = file.targetLanguage?.value else { return true }
            return binding.locale(for: tag) == config.sourceLocale.value
        }
    }
}

/// Which of the project's locales an XLIFF file's target language names.
///
/// BCP 47 tags are case-insensitive, and tools write them in every case: Phrase writes
/// `pt-br`, TYPO3 `DE`, Microsoft's tools `de-de`. A tag that differs from one of the
/// project's locales (or its source locale) only in ASCII case binds to that locale; lint
/// warns that it is not spelled canonically (LOC008). Any other tag is taken as written.
public struct LocaleBinding: Sendable {
    private let localeForFoldedTag: [String: String]

    public init(_ config: ProjectConfig) {
        var locales: [String: String] = [:]
        for locale in [config.sourceLocale] + config.locales {
            let folded = Self.folded(locale.value)
            if locales[folded] == nil { locales[folded] = locale.value }
        }
        localeForFoldedTag = locales
    }

    /// The project's locale that `tag` names, ignoring case; `tag` itself when it names none.
    public func locale(for tag: String) -> String {
        localeForFoldedTag[Self.folded(tag)] ?? tag
    }

    /// Whether `tag` names one of the project's locales but is spelled in another case.
    public func isCaseVariant(_ tag: String) -> Bool {
        locale(for: tag) != tag
    }

    private static func folded(_ tag: String) -> String {
        String(decoding: tag.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
