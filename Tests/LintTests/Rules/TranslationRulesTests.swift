import Compiler
@testable import Lint
import Diagnostics
import Model
import Testing

/// TXT011 and TXT012 compare a translation with its source.
@Suite struct TranslationRulesTests {
    static func context(source: String, translated: String, locale: String = "de-DE") -> LintContext {
        LintFixture.context(
            messages: [LintFixture.message(body: source)],
            config: LintFixture.config(locales: ["en-US", locale]), translations: [locale: [.body: translated]])
    }

    @Test func identicalTranslations() throws {
        let found = try #require(TranslationIdenticalToSource().check(Self.context(source: "Stay with us", translated: "Stay with us")).first)
        #expect(found.message == "de-DE body is identical to the source text; it may not be translated")
        #expect(found.subject?.locale == "de-DE" && found.severity == .warning)
        // Decomposed and composed forms are the same text.
        #expect(TranslationIdenticalToSource().check(Self.context(source: "Café au lait", translated: "Cafe\u{301} au lait")).count == 1)
    }

    @Test(arguments: ["Premium", "50%", "2 × 3 = 6", "👍 🎉", "iPhone"])
    func textsTheSameByNatureAreNotReported(text: String) {
        #expect(TranslationIdenticalToSource().check(Self.context(source: text, translated: text)).isEmpty)
    }

    @Test func anotherVarietyOfTheSourceLanguageMayMatch() {
        #expect(TranslationIdenticalToSource().check(Self.context(source: "Stay with us", translated: "Stay with us", locale: "en-GB")).isEmpty)
    }

    @Test(arguments: [
        "Sparen Sie 50 %", "Sparen Sie 50\u{A0}%", "Sparen Sie 50\u{202F}%", "وفر ٥٠٪", "وفر ۵۰٪", "%50 tasarruf", "बचत ५०%",
        "５０％ 節約",
    ])
    func samePercentageAcrossScriptsAndSpacing(translated: String) {
        #expect(NumberMismatch().check(Self.context(source: "Save 50%", translated: translated)).isEmpty, "\(translated)")
    }

    @Test func groupingAndDecimalSeparatorsByValue() {
        #expect(NumberMismatch().check(Self.context(source: "Join 1,000 readers for 4.99", translated: "1.000 Leser für 4,99")).isEmpty)
        #expect(NumberMismatch().check(Self.context(source: "Join 10,000 readers", translated: "10 000 lecteurs")).isEmpty)
        #expect(NumberMismatch().check(Self.context(source: "1.5 months", translated: "1,50 Monate")).isEmpty)
    }

    @Test func changedNumbersArePointedAt() throws {
        let found = NumberMismatch().check(Self.context(source: "Save 50% for 3 months", translated: "Sparen Sie 40 % für 3 Monate"))
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.message == "de-DE body has 40% ('40 %') where the source has 50%")
        #expect(first.location.column == 20 + 11 && first.location.endColumn == 20 + 15)
        #expect(first.subject?.locale == "de-DE" && first.severity == .error)
    }

    @Test func missingAndExtraNumbersAsAMultiset() {
        let missing = NumberMismatch().check(Self.context(source: "3 months, 3 weeks", translated: "3 Monate, drei Wochen"))
        #expect(missing.map(\.message) == ["de-DE body lacks the source's 3"])
        let extra = NumberMismatch().check(Self.context(source: "Save now", translated: "Jetzt 2 sparen"))
        #expect(extra.map(\.message) == ["de-DE body has 2 ('2'), which msgc does not find in the source"])
        let percentDropped = NumberMismatch().check(Self.context(source: "Save 50%", translated: "Sparen Sie 50"))
        #expect(percentDropped.count == 1)
    }

    /// Number words of an English source, as translators write them: `1つ` for "at least one",
    /// `0` for "zero", `2` for "two-factor".
    @Test(arguments: [
        ("Keep at least one device signed in", "ja", "少なくとも1つのデバイスでサインインしたままにしてください"),
        ("Zero fees, cancel anytime", "de-DE", "0 € Gebühren, jederzeit kündbar"),
        ("Turn on two-factor sign-in", "de-DE", "Aktivieren Sie die 2-Faktor-Anmeldung"),
        ("Your first month is free", "de-DE", "Ihr 1. Monat ist kostenlos"),
        ("Save Twelve percent today", "de-DE", "Sparen Sie heute 12 %"),
        ("Three months for the price of one", "ja", "1か月分の料金で3か月"),
        // A word may stay a word in the translation.
        ("Keep at least one device signed in", "de-DE", "Lassen Sie mindestens ein Gerät angemeldet"),
    ])
    func numberWordsOfTheSourceMayBeDigits(source: String, locale: String, translated: String) {
        #expect(NumberMismatch().check(Self.context(source: source, translated: translated, locale: locale)).isEmpty, "\(translated)")
    }

    @Test func aDigitForANumberWordMustNameTheSameNumber() {
        let found = NumberMismatch().check(Self.context(source: "Keep at least one device signed in", translated: "Lassen Sie mindestens 2 Geräte angemeldet"))
        #expect(found.map(\.message) == ["de-DE body has 2 ('2'), which the source does not have"])
        // Not a percentage where the source's word is none, nor the other way round.
        #expect(NumberMismatch().check(Self.context(source: "Save one percent", translated: "Sparen Sie 1")).count == 1)
        #expect(NumberMismatch().check(Self.context(source: "Save one more", translated: "Sparen Sie 1 %")).count == 1)
        // Each word stands for one digit.
        #expect(NumberMismatch().check(Self.context(source: "One offer", translated: "1 Angebot, 1 Monat")).count == 1)
    }

    /// Only whole words, and not the units of a tens compound.
    @Test func numberWordsAreWholeWords() {
        #expect(NumberWords.numbers(in: "Someone often gets it done").isEmpty)
        #expect(NumberWords.numbers(in: "twenty-one days, forty-second street").isEmpty)
        #expect(NumberWords.numbers(in: "two-factor, one-time, ZERO, Third").map(\.value) == ["2", "1", "0", "3"])
        #expect(NumberWords.numbers(in: "one percent, two per cent, three %, four").map(\.isPercent) == [true, true, true, false])
    }

    /// Number words are read in English sources only, and never in translations.
    @Test func numberWordsAreEnglishOnly() {
        let german = LintFixture.context(
            messages: [LintFixture.message(body: "Mindestens ein Gerät")],
            config: LintFixture.config(locales: ["de-DE", "en-US"], sourceLocale: "de-DE"), translations: ["en-US": [.body: "At least 1 device"]])
        #expect(NumberMismatch().check(german).count == 1)
        let french = LintFixture.context(
            messages: [LintFixture.message(body: "Keep one device")],
            config: LintFixture.config(locales: ["fr-FR", "en-US"], sourceLocale: "fr-FR"), translations: ["en-US": [.body: "Keep 1 device"]])
        #expect(NumberMismatch().check(french).count == 1)
        // A source digit stays a digit, in English translations too.
        #expect(NumberMismatch().check(Self.context(source: "3 months free", translated: "three months free", locale: "en-GB")).count == 1)
        #expect(NumberWords.reads(locale: "en-GB") && NumberWords.reads(locale: "EN") && !NumberWords.reads(locale: "eo"))
    }

    @Test func sourceTextsAreNotCompared() {
        #expect(NumberMismatch().check(LintFixture.context()).isEmpty)
    }
}

/// TRN003 skips the units the localizer bound and looks up only the others.
@Suite struct OrphanTranslationUnitTests {
    static func unit(_ id: String, line: Int, path: String) -> TranslationUnit {
        let here = SourceLocation(path: path, line: line, column: 5)
        return TranslationUnit(
            id: Located(id, at: here), source: Located("Stay with Premium", at: here), target: Located("Bleiben Sie", at: here),
            state: .final, location: here)
    }

    static func file(_ path: String, locale: String, ids: [String], uniqueIDs: Bool = true) -> TranslationFile {
        TranslationFile(
            path: path, version: .v1_2, targetLanguage: LintFixture.located(locale, path: path, line: 3, column: 70),
            sourceLanguage: nil, units: ids.enumerated().map { unit($1, line: 10 + $0, path: path) }, isReadable: true,
            hasUniqueUnitIDs: uniqueIDs)
    }

    @Test func boundRepeatedUnlistedAndUnchosenUnits() {
        let product = LintFixture.product
        let message = LintFixture.message(body: nil, alt: nil)
        // fr-FR is a project locale the product does not list: its units are never bound.
        let config = LintFixture.config(locales: ["en-US", "de-DE", "fr-FR"], productLocales: ["en-US", "de-DE"])
        let files = [
            Self.file("translations/de-DE.xliff", locale: "de-DE",
                      ids: ["\(product)/winback/header", "\(product)/retired/header", "\(product)/winback/header"],
                      uniqueIDs: false),
            // A second de-DE file: lint reports it; the localizer binds nothing in it.
            Self.file("translations/de-DE-copy.xliff", locale: "de-DE", ids: ["\(product)/winback/header", "\(product)/gone/body"]),
            Self.file("translations/fr-FR.xliff", locale: "fr-FR", ids: ["\(product)/winback/header"]),
        ]
        let catalog = Catalog(config: config, messages: [message], translationFiles: files, images: [:], imageFilesOnDisk: [])
        let localization = Localizer.localize(catalog)
        #expect(localization.boundUnits["translations/de-DE.xliff"] == [true, false, false])
        #expect(localization.boundUnits["translations/de-DE-copy.xliff"] == nil)

        let found = OrphanTranslationUnit().check(LintContext(catalog: catalog, config: config, localization: localization))
        #expect(found.map(\.message) == [
            "unit '\(product)/retired/header' matches no message field of the project",
            "unit '\(product)/gone/body' matches no message field of the project",
        ])
        #expect(found.map(\.location.line) == [11, 11])
    }
}

/// TRN001 names the source the translation was compared with.
@Suite struct StaleTranslationTests {
    @Test func aRepeatedKeyIsComparedWithItsOwnText() throws {
        let product = LintFixture.product
        // Two messages with one key (PRJ001): the first's header was translated, and the unit
        // is stale for the second, whose header is another text.
        let messages = [
            LintFixture.message(header: "Stay with Premium", body: nil, alt: nil),
            LintFixture.message(header: "Before you go", body: nil, alt: nil, line: 20),
        ]
        let path = "translations/de-DE.xliff"
        let here = SourceLocation(path: path, line: 10, column: 5)
        let unit = TranslationUnit(
            id: Located("\(product)/winback/header", at: here), source: Located("Stay with Premium", at: here),
            target: Located("Bleiben Sie bei Premium", at: here), state: .final, location: here)
        let file = TranslationFile(
            path: path, version: .v1_2, targetLanguage: LintFixture.located("de-DE", path: path, line: 3, column: 70),
            sourceLanguage: nil, units: [unit], isReadable: true, hasUniqueUnitIDs: true)
        let config = LintFixture.config()
        let catalog = Catalog(config: config, messages: messages, translationFiles: [file], images: [:], imageFilesOnDisk: [])
        let localization = Localizer.localize(catalog)
        // The stale unit ships as the second message's previous translation (keep-previous).
        #expect(localization.gaps.isEmpty)
        let gap = try #require(localization.previousTranslations.first)
        #expect(localization.previousTranslations.count == 1)
        #expect(gap.reason == .stale(recordedSource: "Stay with Premium", currentSource: "Before you go"))

        let found = StaleTranslation().check(LintContext(catalog: catalog, config: config, localization: localization))
        #expect(found.map(\.message) == [
            "header translation in de-DE is stale: it translates 'Stay with Premium', but the source is now 'Before you go'; de-DE keeps showing its previous translation of 'winback' until the translation is updated"
        ])
        #expect(found.first?.location.line == 10)
    }
}
