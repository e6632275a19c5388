import LanguageTags

/// Which of a product's locales answers a subscriber's locale: Apple's realtime request names
/// the device's locale (`userLocale`), and the snapshot holds messages in the project's locales.
///
/// The rule (docs/realtime.md, "Locale matching"), first that applies:
/// 1. The locale itself, as Apple writes it (`de-DE`).
/// 2. The same tag in another spelling: `_` for `-`, other case, deprecated subtags
///    (`de_de`, `iw` → `he`).
/// 3. Otherwise only locales of the same language (a macrolanguage stands for its members:
///    `nb` → `no`, `yue` → `zh`) and the same script qualify. The script is the tag's own,
///    else the one its language implies: Chinese by region (TW, HK and MO are Traditional,
///    other regions and none Simplified; Cantonese Traditional), any other language its
///    registered `Suppress-Script` (`en` → Latin). A tag whose script is neither, or a
///    language without one, matches only a locale of the same explicit script: never a guess
///    across scripts (`zh-HK` never gets `zh-Hans`, `sr-Latn` never `sr`).
/// 4. Among those: the one of the same region; then the variety App Store Connect's own
///    codes follow for the region (`AppStoreLocale.nearestCode`: `en-NZ` → `en-AU`, `es-AR` →
///    `es-MX`, `pt-AO` → `pt-PT`), and for English varieties of CLDR's `en-001` (AU, CA, NZ,
///    IN, IE, …) `en-GB`; then the locale of the bare language (`de`); then the variety of
///    the language without a region (`en-US`, `es-ES`, `fr-FR`, `pt-BR`); then the first in
///    byte order.
/// 5. Nothing: no locale of the product answers.
///
/// Matching uses only the tag: Apple's request carries no storefront.
public struct LocaleMatcher: Sendable {
    /// The locales that can answer, as the snapshot names them.
    public let locales: [String]
    private let profiles: [(locale: String, profile: Profile)]

    public init(locales: [String]) {
        self.locales = locales
        self.profiles = locales.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { locale in
            Self.profile(of: locale).map { (locale, $0) }
        }
    }

    /// The locale that answers `requested`, or nil when none may.
    public func match(_ requested: String) -> String? {
        if locales.contains(requested) { return requested }
        let spelled = String(requested.map { $0 == "_" ? "-" : $0 })
        guard requested.utf8.count <= 255, let tag = try? LanguageTag(parsing: spelled) else { return nil }
        let canonical = tag.canonicalized()
        let lowered = canonical.text.lowercased()
        if let same = locales.first(where: { $0.lowercased() == lowered || $0.lowercased() == spelled.lowercased() }) { return same }
        guard let wanted = Self.profile(of: canonical) else { return nil }
        let candidates = profiles.filter { $0.profile.language == wanted.language && $0.profile.script == wanted.script }
        guard !candidates.isEmpty else { return nil }
        if candidates.count == 1 { return candidates[0].locale }
        if let region = wanted.region, let same = candidates.first(where: { $0.profile.region == region }) { return same.locale }
        var preferred: [String] = []
        if let variety = AppStoreLocale.nearestCode(for: canonical) {
            preferred.append(variety)
            if wanted.language == "en", ["en-AU", "en-CA", "en-GB"].contains(variety) { preferred.append("en-GB") }
        }
        for choice in preferred {
            if let found = candidates.first(where: { $0.locale == choice }) { return found.locale }
        }
        if let bare = candidates.first(where: { $0.profile.region == nil }) { return bare.locale }
        if let languageDefault = AppStoreLocale.nearestCode(for: wanted.language),
           let found = candidates.first(where: { $0.locale == languageDefault }) {
            return found.locale
        }
        return candidates[0].locale
    }

    /// A tag as matching sees it: language (a macrolanguage for its members), script (its
    /// own, else the one its language implies, else nil) and region.
    struct Profile: Hashable {
        var language: String
        var script: String?
        var region: String?
    }

    static func profile(of text: String) -> Profile? {
        (try? LanguageTag(parsing: text)).flatMap { profile(of: $0.canonicalized()) }
    }

    static func profile(of tag: LanguageTag) -> Profile? {
        guard !tag.isGrandfathered, let written = tag.language?.lowercased(),
              let record = SubtagRegistry.record(for: written, type: .language), !record.isPrivateUse
        else { return nil }
        let language = record.macrolanguage ?? written
        let region = tag.region?.uppercased()
        let script: String?
        if let explicit = tag.script {
            script = explicit.prefix(1).uppercased() + explicit.dropFirst().lowercased()
        } else if language == "zh" {
            if let region {
                script = ["TW", "HK", "MO"].contains(region) ? "Hant" : "Hans"
            } else {
                script = written == "yue" ? "Hant" : "Hans"
            }
        } else {
            script = record.suppressScript ?? SubtagRegistry.record(for: language, type: .language)?.suppressScript
        }
        return Profile(language: language, script: script, region: region)
    }
}
