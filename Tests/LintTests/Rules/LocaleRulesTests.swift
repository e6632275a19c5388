import Diagnostics
@testable import Lint
import Model
import Testing

/// LOC001–LOC007 on msgc.yaml's locale lists and XLIFF target languages.
@Suite struct LocaleRulesTests {
    static func run<R: LintRule>(_ rule: R, locales: [String], extraLocales: [String] = [], productLocales: [String]? = nil) -> [Diagnostic] {
        rule.check(LintFixture.context(config: LintFixture.config(locales: locales, extraLocales: extraLocales, productLocales: productLocales)))
    }

    @Test func malformedTagsGetTheirFix() throws {
        let found = try #require(Self.run(MalformedLocaleTag(), locales: ["en-US", "en_GB"]).first)
        #expect(found.fixIts.first?.message == "use 'en-GB'")
        #expect(found.fixIts.first?.edits.first?.replacement == "en-GB")
        #expect(found.location.line == 3)
    }

    @Test func unknownSubtags() {
        #expect(Self.run(UnknownLocaleSubtag(), locales: ["en-US", "en-UK"]).count == 1)
        #expect(Self.run(UnknownLocaleSubtag(), locales: ["en-US", "en-GB"]).isEmpty)
    }

    @Test func canonicalCaseIsRequired() throws {
        let found = try #require(Self.run(NonCanonicalLocaleCase(), locales: ["en-US", "zh-hans"]).first)
        #expect(found.fixIts.first?.edits.first?.replacement == "zh-Hans")
        #expect(found.severity == .error)
    }

    @Test func deprecatedSubtagsNameTheirReplacement() throws {
        let found = try #require(Self.run(DeprecatedLocaleSubtag(), locales: ["en-US", "iw"]).first)
        #expect(found.fixIts.first?.edits.first?.replacement == "he")
        #expect(Self.run(NotAppStoreLocale(), locales: ["en-US", "iw"]).isEmpty, "the deprecation's fix is enough")
    }

    @Test(arguments: [("ja-JP", "ja"), ("zh-CN", "zh-Hans"), ("fr", "fr-FR"), ("de-AT", "de-DE"), ("zh-TW", "zh-Hant")])
    func nearestAppStoreCode(tag: String, nearest: String) throws {
        let found = try #require(Self.run(NotAppStoreLocale(), locales: ["en-US", tag]).first)
        #expect(found.fixIts.first?.edits.first?.replacement == nearest)
    }

    @Test func extraLocalesAdmitValidCanonicalTags() {
        #expect(Self.run(NotAppStoreLocale(), locales: ["en-US", "bn"], extraLocales: ["bn"]).isEmpty)
        #expect(Self.run(NonCanonicalLocaleCase(), locales: ["en-US"], extraLocales: ["BN"]).count == 1)
        #expect(Self.run(NotAppStoreLocale(), locales: ["en-US"], extraLocales: ["sl"]).isEmpty, "extra locales need not be codes")
    }

    @Test func productLocalesAreChecked() {
        #expect(Self.run(NotAppStoreLocale(), locales: ["en-US", "de-DE"], productLocales: ["en-US", "de"]).count == 1)
    }

    @Test func translationFilesOutsideTheProjectAndDuplicates() {
        let files = [
            LintFixture.translationFile(path: "translations/de-DE.xliff", targetLanguage: "de-DE"),
            LintFixture.translationFile(path: "translations/fr-FR.xliff", targetLanguage: "fr-FR"),
            LintFixture.translationFile(path: "translations/old/de-DE.xliff", targetLanguage: "de-DE"),
            LintFixture.translationFile(path: "translations/x.xliff", targetLanguage: "fr_FR"),
        ]
        let context = LintFixture.context(translationFiles: files)
        #expect(TranslationLocaleNotInProject().check(context).map(\.message) == [
            "'translations/fr-FR.xliff' translates into 'fr-FR', which is not in the project's locales",
        ])
        #expect(DuplicateTranslationLocale().check(context).map(\.location.path) == ["translations/old/de-DE.xliff"])
        #expect(MalformedLocaleTag().check(context).map(\.location.path) == ["translations/x.xliff"])
    }
}
