import Testing
@testable import LanguageTags

/// Canonical case (RFC 5646 section 2.1.1), canonical form (section 4.5) and deprecations.
struct LanguageTagCanonicalizationTests {
    @Test(arguments: [
        ("EN-us", "en-US"), ("zh-hans", "zh-Hans"), ("ZH-HANT-tw", "zh-Hant-TW"), ("SR-latn-rs", "sr-Latn-RS"),
        ("es-419", "es-419"), ("DE-ch-1996", "de-CH-1996"), ("en-US-U-CA-Gregory", "en-US-u-ca-gregory"),
        ("X-Whatever", "x-whatever"), ("az-Latn-x-LATN", "az-Latn-x-latn"), ("en-CA-x-CA", "en-CA-x-ca"),
        ("I-KLINGON", "i-klingon"), ("EN-gb-OED", "en-GB-oed"), ("sgn-be-fr", "sgn-BE-FR"), ("QAA", "qaa"),
        ("en-a-bb-Latn", "en-a-bb-latn"),
    ])
    func canonicalCase(tag: String, expected: String) throws {
        let cased = try LanguageTag(parsing: tag).withCanonicalCase()
        #expect(cased.text == expected)
        #expect(cased.subtags.map(\.role) == (try LanguageTag(parsing: tag)).subtags.map(\.role))
    }

    @Test(arguments: [
        ("iw", "he"), ("in-ID", "id-ID"), ("ji", "yi"), ("mo", "ro"), ("my-BU", "my-MM"), ("de-DD", "de-DE"),
        ("ja-Latn-hepburn-heploc", "ja-Latn-hepburn-alalc97"), ("ja-Latn-alalc97-heploc", "ja-Latn-alalc97"),
        ("i-klingon", "tlh"), ("art-lojban", "jbo"), ("no-bok", "nb"), ("en-GB-oed", "en-GB-oxendict"),
        ("zh-min-nan", "nan"), ("i-default", "i-default"), ("I-Enochian", "i-enochian"),
        ("zh-yue", "yue"), ("zh-yue-HK", "yue-HK"), ("zh-cmn-Hans", "cmn-Hans"), ("zh-cmn-Hans-CN", "cmn-Hans-CN"),
        ("sgn-US", "ase"), ("zh-cmn-CN", "cmn-CN"), ("ar-aao", "aao"),
        ("en-u-ca-gregory-a-foo-x-z", "en-a-foo-u-ca-gregory-x-z"), ("EN-us", "en-US"), ("en-Latn", "en-Latn"),
        ("en-UK", "en-UK"), ("zh-Hans", "zh-Hans"), ("bh", "bih"),
    ])
    func canonicalForm(tag: String, expected: String) throws {
        #expect(try LanguageTag(parsing: tag).canonicalized().text == expected)
    }

    @Test(arguments: [
        ("iw", ["the language subtag 'iw' is deprecated; use 'he'"], ["he"]),
        ("in", ["the language subtag 'in' is deprecated; use 'id'"], ["id"]),
        ("my-BU", ["the region subtag 'BU' is deprecated; use 'MM'"], ["my-MM"]),
        ("ja-Latn-hepburn-heploc", ["the variant subtag 'heploc' is deprecated; use 'alalc97'"], ["ja-Latn-hepburn-alalc97"]),
        ("i-klingon", ["the grandfathered tag 'i-klingon' is deprecated; use 'tlh'"], ["tlh"]),
        ("art-lojban", ["the grandfathered tag 'art-lojban' is deprecated; use 'jbo'"], ["jbo"]),
        ("i-enochian", ["the grandfathered tag 'i-enochian' is deprecated and has no replacement"], [nil]),
        ("zh-yue", ["the redundant tag 'zh-yue' is deprecated; use 'yue'"], ["yue"]),
        ("zh-yue-HK", ["the redundant tag 'zh-yue' is deprecated; use 'yue'"], ["yue-HK"]),
        ("sr-CS", ["the region subtag 'CS' is deprecated and has no replacement"], [nil]),
        ("iw-BU", ["the language subtag 'iw' is deprecated; use 'he'", "the region subtag 'BU' is deprecated; use 'MM'"], ["he-MM", "he-MM"]),
        ("i-default", [], []),
        ("en-US", [], []),
        ("zh-Hans", [], []),
    ] as [(String, [String], [String?])])
    func deprecations(tag: String, messages: [String], replacements: [String?]) throws {
        let findings = try LanguageTag(parsing: tag).checkDeprecations()
        #expect(findings.map(\.message) == messages)
        #expect(findings.map(\.replacement) == replacements)
        #expect(findings.allSatisfy { $0.kind == .deprecatedSubtag })
    }

    @Test func deprecatedSubtagsAreLocated() throws {
        let findings = try LanguageTag(parsing: "iw-BU").checkDeprecations()
        #expect(findings.map(\.scalarRange) == [0..<2, 3..<5])
        #expect(try LanguageTag(parsing: "zh-yue-HK").checkDeprecations().map(\.scalarRange) == [0..<6])
    }
}
