/// App Store Connect's locale short codes, which Apple's Retention Messaging API requires
/// exactly (and case-sensitively) in the default-message path `/default/{productId}/{locale}`.
///
/// `codes` holds the 39 long-standing codes as used across third-party App Store Connect
/// tooling (fastlane among them); Apple's own table, "Managing metadata in your app by using
/// locale shortcodes", could not be read when this list was written (see
/// docs/formats.md). They are not plain `language-REGION` tags:
/// some are bare languages (`ja`, `no`), some carry a script (`zh-Hans`).
///
/// In 2026 App Store Connect added 11 languages (Bangla, Gujarati, Kannada, Malayalam,
/// Marathi, Odia, Punjabi, Slovenian, Tamil, Telugu, Urdu). fastlane writes them `bn gu kn
/// ml mr or pa sl ta te ur`, but Apple has not confirmed those codes, so they are not listed
/// here; a project that needs them admits them through `extraLocales` in `msgc.yaml`.
public enum AppStoreLocale {
    /// The 39 confirmed App Store Connect locale codes, sorted, each in canonical case.
    public static let codes: [String] = [
        "ar-SA", "ca", "cs", "da", "de-DE", "el", "en-AU", "en-CA", "en-GB", "en-US",
        "es-ES", "es-MX", "fi", "fr-CA", "fr-FR", "he", "hi", "hr", "hu", "id",
        "it", "ja", "ko", "ms", "nl-NL", "no", "pl", "pt-BR", "pt-PT", "ro",
        "ru", "sk", "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant",
    ]

    /// Whether `tag` is exactly one of `codes` (case-sensitive, as Apple compares them).
    public static func isCode(_ tag: String) -> Bool {
        codes.contains(tag)
    }

    /// The App Store Connect code nearest to `tag`, parsed first; `nil` if it is malformed.
    public static func nearestCode(for tag: String, extraLocales: [String] = []) -> String? {
        (try? LanguageTag(parsing: tag)).flatMap { nearestCode(for: $0, extraLocales: extraLocales) }
    }

    /// The App Store Connect code nearest to a tag: the tag itself if it is one, else the code
    /// for the same language that best fits its script and region, or `nil` when none fits.
    /// `extraLocales` (canonical tags from `msgc.yaml`) count as codes too, so with `bn`
    /// admitted, `bn-IN` → `bn`.
    ///
    /// The rule, applied to the tag's canonical form (so `iw` → `he`, `EN-us` → `en-US`):
    /// 1. The language must have codes, directly or through its macrolanguage (`nb` and `nn`
    ///    → `no`, `cmn` and `yue` → `zh`, `arb` → `ar`, `zsm` → `ms`). Otherwise `nil`
    ///    (`tlh`, `sr`, `und`, private use, grandfathered tags without a replacement).
    /// 2. Chinese goes by script: `Hans` → `zh-Hans`, `Hant` → `zh-Hant`; without a script,
    ///    regions TW, HK and MO → `zh-Hant`, other regions → `zh-Hans`, no region → `zh-Hans`
    ///    (`zh-Hant` for Cantonese, `yue`, usually written in Traditional characters). Any
    ///    other script → `nil`.
    /// 3. Any other language accepts no script but its `Suppress-Script` (`en-Latn` is fine,
    ///    `ja-Latn` and `ms-Arab` → `nil`: App Store text in another script isn't the same locale).
    /// 4. A language with one code gets it (`ja-JP` → `ja`, `de-AT` → `de-DE`, `nl-BE` → `nl-NL`).
    /// 5. A code with the tag's region wins (`en-GB`, `fr-CA`, `pt-PT`).
    /// 6. Otherwise the variety the region follows, after CLDR's parent locales: English in the
    ///    US and its territories (AS, GU, MH, MP, PR, UM, VI) → `en-US`, in AU and NZ → `en-AU`,
    ///    elsewhere → `en-GB` (CLDR's `en-001`: `en-IN`, `en-IE`, `en-ZA`, `en-001`); Spanish in
    ///    Latin America and the US (CLDR's `es-419`) → `es-MX`, elsewhere → `es-ES`; Portuguese
    ///    outside Brazil → `pt-PT`; French outside Canada → `fr-FR`.
    /// 7. Without a region: `en-US`, `es-ES`, `fr-FR`, `pt-BR`.
    public static func nearestCode(for tag: LanguageTag, extraLocales: [String] = []) -> String? {
        let allCodes = codes + extraLocales
        func hasCodes(_ language: String) -> Bool {
            allCodes.contains { $0 == language || $0.hasPrefix(language + "-") }
        }
        let canonical = tag.canonicalized()
        if allCodes.contains(canonical.text) { return canonical.text }
        guard !canonical.isGrandfathered, let written = canonical.language,
              let record = SubtagRegistry.record(for: written, type: .language), !record.isPrivateUse
        else { return nil }

        var language = written
        if !hasCodes(language) {
            guard let macrolanguage = record.macrolanguage, hasCodes(macrolanguage) else { return nil }
            language = macrolanguage
        }
        let region = canonical.region

        if language == "zh" {
            let script = canonical.script ?? {
                if let region { return ["TW", "HK", "MO"].contains(region) ? "Hant" : "Hans" }
                return written == "yue" ? "Hant" : "Hans"
            }()
            return ["Hans", "Hant"].contains(script) ? "zh-\(script)" : nil
        }

        if let script = canonical.script {
            let suppressed = [record.suppressScript, SubtagRegistry.record(for: language, type: .language)?.suppressScript]
            guard suppressed.contains(script) else { return nil }
        }
        let candidates = allCodes.filter { $0 == language || $0.hasPrefix(language + "-") }
        if candidates.count == 1 { return candidates[0] }
        if let region, candidates.contains("\(language)-\(region)") { return "\(language)-\(region)" }
        switch language {
        case "en":
            guard let region else { return "en-US" }
            if ["AS", "GU", "MH", "MP", "PR", "UM", "VI"].contains(region) { return "en-US" }
            return ["AU", "NZ"].contains(region) ? "en-AU" : "en-GB"
        case "es":
            guard let region else { return "es-ES" }
            return latinAmericanSpanishRegions.contains(region) ? "es-MX" : "es-ES"
        case "pt":
            return region == nil ? "pt-BR" : "pt-PT"
        case "fr":
            return "fr-FR"
        default:
            return candidates.first
        }
    }

    /// The regions whose Spanish CLDR files under `es-419` (Latin America), plus `419` itself.
    static let latinAmericanSpanishRegions: Set<String> = [
        "419", "AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX",
        "NI", "PA", "PE", "PR", "PY", "SV", "US", "UY", "VE",
    ]
}
