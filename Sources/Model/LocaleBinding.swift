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
/// `pt-br`, TYPO3 `DE`, Microsoft's tools `de-de`. translate-toolkit's `po2xliff` copies
/// gettext's `Language: de_DE` header as it is, with POSIX's `_` for BCP 47's `-`. A tag that
/// differs from one of the project's locales (or its source locale) only in ASCII case, or in
/// `_` for `-`, binds to that locale; lint warns that it is not spelled canonically (LOC008 for
/// case, LOC009 for `_`). Any other tag is taken as written.
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

    /// The project's locale that `tag` names, ignoring case and `_` for `-`; `tag` itself when
    /// it names none.
    public func locale(for tag: String) -> String {
        localeForFoldedTag[Self.folded(tag)] ?? tag
    }

    /// Whether `tag` names one of the project's locales but is spelled otherwise: in another
    /// case, or with `_`.
    public func isVariantSpelling(_ tag: String) -> Bool {
        locale(for: tag) != tag
    }

    /// Whether `tag` names one of the project's locales in another case, with no `_`.
    public func isCaseVariant(_ tag: String) -> Bool {
        isVariantSpelling(tag) && !tag.utf8.contains(UInt8(ascii: "_"))
    }

    /// Whether `tag` names one of the project's locales with `_` for `-` (`de_DE`).
    public func isUnderscoreVariant(_ tag: String) -> Bool {
        isVariantSpelling(tag) && tag.utf8.contains(UInt8(ascii: "_"))
    }

    private static func folded(_ tag: String) -> String {
        String(decoding: tag.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 == 0x5F ? 0x2D : $0 }, as: UTF8.self)
    }
}
