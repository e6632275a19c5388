import LanguageTags
import Testing

@testable import Realtime

/// Locale matching for Apple's `userLocale`, against App Store Connect's short codes.
@Suite struct LocaleMatcherTests {
    /// Every short code Apple may send matches itself exactly, among every code.
    @Test(arguments: AppStoreLocale.codes)
    func everyShortCodeMatchesItself(_ code: String) {
        #expect(LocaleMatcher(locales: AppStoreLocale.codes).match(code) == code)
    }

    /// Among all of Apple's codes, matching agrees with `AppStoreLocale.nearestCode`, the rule
    /// lint uses to name the code for a tag: one rule, whoever asks.
    @Test(arguments: [
        "de-AT", "de-CH", "de", "en", "en-NZ", "en-IN", "en-IE", "en-PR", "en-Latn-US", "es-AR", "es-US", "es-419", "es",
        "fr-BE", "fr-CH", "fr", "pt-AO", "pt", "zh-HK", "zh-TW", "zh-MO", "zh-CN", "zh-SG", "zh", "yue", "cmn-Hant-TW",
        "zh-Hant-HK", "nb-NO", "nb", "nn", "iw", "in-ID", "ja-JP", "ko-KR", "nl-BE", "ar-EG", "ms-MY", "sv-FI", "ca-ES",
    ])
    func agreesWithAppStoreNearestCode(_ tag: String) {
        let matched = LocaleMatcher(locales: AppStoreLocale.codes).match(tag)
        #expect(matched == AppStoreLocale.nearestCode(for: tag), "\(tag)")
        #expect(matched != nil, "\(tag)")
    }

    @Test func fallbacksWithinAProjectsLocales() {
        let project = LocaleMatcher(locales: ["en-US", "de-DE", "fr-FR", "es-MX", "pt-BR", "ja", "zh-Hans", "ar-SA"])
        #expect(project.match("de-AT") == "de-DE")
        #expect(project.match("de_DE") == "de-DE")
        #expect(project.match("DE-de") == "de-DE")
        #expect(project.match("en-GB") == "en-US")
        #expect(project.match("en-AU") == "en-US")
        #expect(project.match("es-ES") == "es-MX")
        #expect(project.match("pt-PT") == "pt-BR")
        #expect(project.match("fr-CA") == "fr-FR")
        #expect(project.match("ja-JP") == "ja")
        #expect(project.match("ar-EG") == "ar-SA")
        #expect(project.match("zh-CN") == "zh-Hans")
        #expect(project.match("zh-SG") == "zh-Hans")
    }

    /// Never across scripts: Traditional Chinese does not get Simplified, Serbian in Latin
    /// does not get Serbian in Cyrillic, Malay in Arabic script does not get Malay.
    @Test func neverAcrossScripts() {
        #expect(LocaleMatcher(locales: ["en-US", "zh-Hans"]).match("zh-HK") == nil)
        #expect(LocaleMatcher(locales: ["en-US", "zh-Hans"]).match("zh-TW") == nil)
        #expect(LocaleMatcher(locales: ["en-US", "zh-Hant"]).match("zh-CN") == nil)
        #expect(LocaleMatcher(locales: ["sr"]).match("sr-Latn") == nil)
        #expect(LocaleMatcher(locales: ["ms"]).match("ms-Arab") == nil)
        #expect(LocaleMatcher(locales: ["zh-Hans", "zh-Hant"]).match("zh-HK") == "zh-Hant")
    }

    @Test func englishVarietiesPreferTheirParent() {
        let english = LocaleMatcher(locales: ["en-GB", "en-US"])
        #expect(english.match("en-NZ") == "en-GB")
        #expect(english.match("en-IN") == "en-GB")
        #expect(english.match("en-PR") == "en-US")
        #expect(english.match("en") == "en-US")
        #expect(LocaleMatcher(locales: ["en-US", "en-AU"]).match("en-NZ") == "en-AU")
    }

    @Test func bareLanguageAndMacrolanguages() {
        #expect(LocaleMatcher(locales: ["de", "de-CH"]).match("de-AT") == "de")
        #expect(LocaleMatcher(locales: ["no"]).match("nb-NO") == "no")
        #expect(LocaleMatcher(locales: ["he"]).match("iw-IL") == "he")
        #expect(LocaleMatcher(locales: ["zh-Hant"]).match("yue") == "zh-Hant")
    }

    @Test func nothingForOtherLanguagesOrGarbage() {
        let project = LocaleMatcher(locales: ["en-US", "de-DE"])
        #expect(project.match("fr-FR") == nil)
        #expect(project.match("") == nil)
        #expect(project.match("x-private") == nil)
        #expect(project.match("en-US\u{202E}") == nil)
        #expect(project.match(String(repeating: "a", count: 10_000)) == nil)
        #expect(project.match("und") == nil)
    }
}
