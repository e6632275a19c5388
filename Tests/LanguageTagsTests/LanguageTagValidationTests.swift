import Testing
@testable import LanguageTags

/// RFC 5646 section 2.2.9 validity against the registry.
struct LanguageTagValidationTests {
    @Test(arguments: [
        "en", "en-US", "zh-Hans", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1996", "de-CH-1901",
        "en-US-u-ca-gregory", "x-whatever", "qaa", "qtz-Qaaa-QM", "en-XA", "ca-ES-valencia",
        "sl-rozaj-biske-1994", "ja-Latn-hepburn-heploc", "zh-yue", "i-klingon", "i-default", "en-GB-oed",
        "yue-HK", "en-1996", "fr-cmn", "und", "en-Latn-US", "tlh", "EN-us", "my-BU", "iw",
    ])
    func validTagsHaveNoFindings(tag: String) throws {
        let parsed = try LanguageTag(parsing: tag)
        #expect(parsed.validate() == [])
        #expect(parsed.isValid)
    }

    @Test(arguments: [
        ("en-UK", LanguageTagFinding.Kind.unknownSubtag, 3, 2, "en-GB"),
        ("eng-US", .unknownSubtag, 0, 3, "en-US"),
        ("deu", .unknownSubtag, 0, 3, "de"),
        ("zh-CHS", .unknownSubtag, 3, 3, "zh-Hans"),
        ("zh-cht", .unknownSubtag, 3, 3, "zh-Hant"),
        ("de-1996-1996", .duplicateSubtag, 8, 4, "de-1996"),
        ("en-a-bbb-a-ccc", .duplicateSubtag, 9, 1, nil),
        ("zh-yue-gan", .unknownSubtag, 7, 3, nil),
        ("en-EN", .unknownSubtag, 3, 2, nil),
        ("en-Abcd", .unknownSubtag, 3, 4, nil),
        ("en-US-abcdefg", .unknownSubtag, 6, 7, nil),
        ("abcd", .unknownSubtag, 0, 4, nil),
        ("qua-Qabz-ZZ", .unknownSubtag, 4, 4, nil),
        ("en-999", .unknownSubtag, 3, 3, nil),
        ("en-US-POSIX", .unknownSubtag, 6, 5, "en-US-u-va-posix"),
    ] as [(String, LanguageTagFinding.Kind, Int, Int, String?)])
    func invalidTagsSayWhichSubtag(tag: String, kind: LanguageTagFinding.Kind, offset: Int, length: Int, replacement: String?) throws {
        let findings = try LanguageTag(parsing: tag).validate()
        #expect(findings.count == 1)
        #expect(findings.first?.kind == kind)
        #expect(findings.first?.scalarRange == offset..<(offset + length))
        #expect(findings.first?.replacement == replacement)
    }

    @Test func eachProblemIsReportedInTagOrder() throws {
        let findings = try LanguageTag(parsing: "eng-UK-1996-1996").validate()
        #expect(findings.map(\.kind) == [.unknownSubtag, .unknownSubtag, .duplicateSubtag])
        #expect(findings.map(\.scalarOffset) == [0, 4, 12])
    }

    @Test(arguments: [
        ("en-UK", "'UK' is not a registered region subtag; the United Kingdom is 'GB'"),
        ("eng-US", "'eng' is not a registered language subtag; use the 2-letter code 'en'"),
        ("en-EN", "'EN' is not a registered region subtag"),
        ("de-1996-1996", "the variant '1996' appears twice"),
        ("en-a-bbb-a-ccc", "the extension 'a' appears twice"),
        ("zh-yue-gan", "'gan' is a second extended language subtag; only one can be valid"),
    ])
    func messagesNameTheSubtag(tag: String, message: String) throws {
        #expect(try LanguageTag(parsing: tag).validate().first?.message == message)
    }

    /// The corrections table must only ever name subtags the registry lacks, and point to ones it has.
    @Test func correctionsMapUnregisteredSubtagsToRegisteredOnes() {
        for (mistake, code) in SubtagCorrection.iso639Part2 {
            #expect(SubtagRegistry.record(for: mistake, type: .language) == nil, "\(mistake)")
            #expect(SubtagRegistry.record(for: code, type: .language) != nil, "\(code)")
        }
        #expect(SubtagRegistry.record(for: "UK", type: .region) == nil)
        #expect(SubtagRegistry.record(for: "posix", type: .variant) == nil)
        #expect(SubtagRegistry.record(for: "chs", type: .extlang) == nil)
        #expect(SubtagRegistry.record(for: "cht", type: .extlang) == nil)
    }
}
