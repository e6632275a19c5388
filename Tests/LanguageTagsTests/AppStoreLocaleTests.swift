import Testing
@testable import LanguageTags

struct AppStoreLocaleTests {
    @Test func theListHasThe39ConfirmedCodesSorted() {
        #expect(AppStoreLocale.codes.count == 39)
        #expect(AppStoreLocale.codes == AppStoreLocale.codes.sorted())
        #expect(Set(AppStoreLocale.codes).count == 39)
    }

    /// Apple has not confirmed the 2026 codes; projects admit them through `extraLocales`.
    @Test(arguments: ["bn", "gu", "kn", "ml", "mr", "or", "pa", "sl", "ta", "te", "ur"])
    func unconfirmed2026CodesAreNotListed(code: String) {
        #expect(!AppStoreLocale.isCode(code))
        #expect(LanguageTagChecker.check(code).map(\.kind) == [.notAppStoreCode])
        #expect(LanguageTagChecker.check(code, extraLocales: [code]) == [])
    }

    @Test(arguments: AppStoreLocale.codes)
    func everyCodeIsValidCanonicalAndCurrent(code: String) throws {
        let tag = try LanguageTag(parsing: code)
        #expect(tag.isValid)
        #expect(tag.canonicalized().text == code)
        #expect(LanguageTagChecker.check(code) == [])
        #expect(AppStoreLocale.nearestCode(for: tag) == code)
    }

    @Test func codesAreCaseSensitive() {
        #expect(AppStoreLocale.isCode("zh-Hans"))
        #expect(!AppStoreLocale.isCode("zh-hans"))
        #expect(!AppStoreLocale.isCode("EN-US"))
    }

    @Test(arguments: [
        ("ja-JP", "ja"), ("fr", "fr-FR"), ("de", "de-DE"), ("de-AT", "de-DE"), ("de-CH-1996", "de-DE"),
        ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"), ("zh", "zh-Hans"),
        ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"), ("zh-Hant-TW", "zh-Hant"),
        ("cmn-Hans-CN", "zh-Hans"), ("zh-cmn-TW", "zh-Hant"), ("yue", "zh-Hant"), ("zh-yue", "zh-Hant"), ("yue-Hans", "zh-Hans"),
        ("en", "en-US"), ("en-Latn", "en-US"), ("en-Latn-US", "en-US"), ("en-PR", "en-US"), ("en-IN", "en-GB"),
        ("en-IE", "en-GB"), ("en-001", "en-GB"), ("en-NZ", "en-AU"), ("en-CA", "en-CA"), ("EN-us", "en-US"),
        ("en-GB-oed", "en-GB"), ("en-US-u-ca-gregory", "en-US"), ("en-US-x-twain", "en-US"),
        ("pt", "pt-BR"), ("pt-AO", "pt-PT"), ("pt-MZ", "pt-PT"), ("es", "es-ES"), ("es-419", "es-MX"),
        ("es-AR", "es-MX"), ("es-US", "es-MX"), ("es-GQ", "es-ES"), ("fr-BE", "fr-FR"), ("fr-CH", "fr-FR"),
        ("nb", "no"), ("nb-NO", "no"), ("nn", "no"), ("no-bok", "no"), ("iw", "he"), ("iw-IL", "he"),
        ("in", "id"), ("mo", "ro"), ("ar-EG", "ar-SA"), ("arb", "ar-SA"), ("zsm", "ms"), ("ms-MY", "ms"),
        ("nl-BE", "nl-NL"), ("ca-ES-valencia", "ca"), ("ko-Kore-KR", "ko"), ("sv-FI", "sv"),
    ])
    func nearestCode(tag: String, code: String) throws {
        #expect(AppStoreLocale.nearestCode(for: tag) == code)
    }

    @Test func extraLocalesCountAsCodes() {
        #expect(AppStoreLocale.nearestCode(for: "bn-IN", extraLocales: ["bn"]) == "bn")
        #expect(AppStoreLocale.nearestCode(for: "ben", extraLocales: ["bn"]) == nil)
        #expect(AppStoreLocale.nearestCode(for: "en-IN", extraLocales: ["en-IN"]) == "en-IN")
        #expect(LanguageTagChecker.check("bn-IN", extraLocales: ["bn"]).map(\.replacement) == ["bn"])
    }

    @Test(arguments: [
        "tlh", "i-klingon", "i-default", "x-whatever", "qaa", "und", "sr-Latn", "bs", "fil", "ja-Latn",
        "ms-Arab", "zh-Latn", "hi-Latn", "bn", "en_US", "eng",
    ])
    func noCodeFits(tag: String) {
        #expect(AppStoreLocale.nearestCode(for: tag) == nil)
    }
}
