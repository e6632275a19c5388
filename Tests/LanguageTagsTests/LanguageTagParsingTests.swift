import Testing
@testable import LanguageTags

/// RFC 5646 well-formedness: the grammar alone, without the registry.
struct LanguageTagParsingTests {
    typealias Role = LanguageTag.Subtag.Role

    @Test(arguments: [
        ("en", [Role.language]),
        ("en-US", [.language, .region]),
        ("zh-Hans", [.language, .script]),
        ("sr-Latn-RS", [.language, .script, .region]),
        ("es-419", [.language, .region]),
        ("de-CH-1996", [.language, .region, .variant]),
        ("sl-rozaj-biske", [.language, .variant, .variant]),
        ("zh-yue-HK", [.language, .extlang, .region]),
        ("zh-cmn-yue-gan", [.language, .extlang, .extlang, .extlang]),
        ("en-US-u-ca-gregory", [.language, .region, .extensionSingleton, .extensionSubtag, .extensionSubtag]),
        ("en-a-bbb-x-a-ccc", [.language, .extensionSingleton, .extensionSubtag, .privateUseSingleton, .privateUseSubtag, .privateUseSubtag]),
        ("x-whatever", [.privateUseSingleton, .privateUseSubtag]),
        ("qaa", [.language]),
        ("abcd", [.language]),
        ("abcdefgh-Latn", [.language, .script]),
        ("en-UK", [.language, .region]),
        ("eng-US", [.language, .region]),
        ("de-1996-1996", [.language, .variant, .variant]),
        ("en-a-bbb-a-ccc", [.language, .extensionSingleton, .extensionSubtag, .extensionSingleton, .extensionSubtag]),
        ("i-klingon", [.grandfathered]),
        ("en-GB-oed", [.grandfathered]),
        ("sgn-BE-FR", [.grandfathered]),
        ("zh-min-nan", [.grandfathered]),
        ("art-lojban", [.grandfathered]),
        ("I-DEFAULT", [.grandfathered]),
        ("art-lojban-x-foo", [.language, .variant, .privateUseSingleton, .privateUseSubtag]),
    ])
    func wellFormedTagsParseIntoRoles(tag: String, roles: [Role]) throws {
        let parsed = try LanguageTag(parsing: tag)
        #expect(parsed.text == tag)
        #expect(parsed.subtags.map(\.role) == roles)
    }

    @Test func subtagsKnowTheirOffsets() throws {
        let tag = try LanguageTag(parsing: "sr-Latn-RS-u-nu-latn")
        #expect(tag.subtags.map(\.scalarOffset) == [0, 3, 8, 11, 13, 16])
        #expect(tag.language == "sr" && tag.script == "Latn" && tag.region == "RS" && tag.variants.isEmpty)
        #expect(try LanguageTag(parsing: "de-CH-1901-x-old").hasPrivateUse)
    }

    @Test(arguments: [
        ("", LanguageTagSyntaxError.Reason.empty, 0, 0),
        ("en_US", .underscoreSeparator, 2, 1),
        ("zh_Hans_CN", .underscoreSeparator, 2, 1),
        ("en_US.UTF-8", .invalidCharacter, 5, 1),
        ("sr@latin", .invalidCharacter, 2, 1),
        ("en US", .invalidCharacter, 2, 1),
        ("fr-Fé", .invalidCharacter, 4, 1),
        ("日本-JP", .invalidCharacter, 0, 1),
        ("-en", .emptySubtag, 0, 1),
        ("en-", .emptySubtag, 2, 1),
        ("en--US", .emptySubtag, 3, 1),
        ("123", .invalidLanguage, 0, 3),
        ("e", .invalidLanguage, 0, 1),
        ("a-bcd", .invalidLanguage, 0, 1),
        ("en1-US", .invalidLanguage, 0, 3),
        ("i-foo", .invalidLanguage, 0, 5),
        ("en-abcdefghi", .subtagTooLong, 3, 9),
        ("toolonglang", .subtagTooLong, 0, 11),
        ("x-abcdefghi", .subtagTooLong, 2, 9),
        ("zh-aaa-bbb-ccc-ddd", .tooManyExtlangs, 15, 3),
        ("de-DE-de", .misplacedSubtag, 6, 2),
        ("en-US-GB", .misplacedSubtag, 6, 2),
        ("en-US-419", .misplacedSubtag, 6, 3),
        ("en-Latn-Cyrl", .misplacedSubtag, 8, 4),
        ("en-US-Latn", .misplacedSubtag, 6, 4),
        ("en-1996-US", .misplacedSubtag, 8, 2),
        ("zh-Hans-yue", .misplacedSubtag, 8, 3),
        ("abcde-yue", .misplacedSubtag, 6, 3),
        ("en-US-abcd", .misplacedSubtag, 6, 4),
        ("en-a1", .misplacedSubtag, 3, 2),
        ("en-a", .emptyExtension, 3, 1),
        ("en-a-b-cc", .emptyExtension, 3, 1),
        ("en-a-x-foo", .emptyExtension, 3, 1),
        ("en-x", .emptyPrivateUse, 3, 1),
        ("x", .emptyPrivateUse, 0, 1),
    ])
    func malformedTagsReportWhereAndWhy(tag: String, reason: LanguageTagSyntaxError.Reason, offset: Int, length: Int) {
        #expect(throws: LanguageTagSyntaxError.self) { try LanguageTag(parsing: tag) }
        do {
            _ = try LanguageTag(parsing: tag)
        } catch {
            #expect(error.reason == reason)
            #expect(error.scalarOffset == offset)
            #expect(error.scalarLength == length)
            #expect(error.message.first?.isUppercase == false)
            #expect(error.message.last != ".")
        }
    }

    @Test(arguments: [
        ("en_US", "en-US"), ("EN_us", "en-US"), ("pt_br", "pt-BR"), ("zh_hans", "zh-Hans"),
        ("i_klingon", "i-klingon"), ("en-US_x_foo", "en-US-x-foo"),
    ])
    func underscoreSeparatorsComeWithTheFix(tag: String, corrected: String) {
        do {
            _ = try LanguageTag(parsing: tag)
            Issue.record("'\(tag)' parsed")
        } catch {
            #expect(error.reason == .underscoreSeparator)
            #expect(error.correctedTag == corrected)
        }
    }

    @Test(arguments: [
        ("en_US", "'en_US' uses '_' as a separator; BCP 47 uses '-'"),
        ("en-US-Latn", "'Latn' is out of place; the script comes before the region and variants"),
        ("de-DE-de", "'de' is a second region subtag; a tag has at most one"),
        ("en-abcdefghi", "'abcdefghi' has 9 characters; a subtag has at most 8"),
        ("fr-Fé", "'é' (U+00E9) is not allowed in a language tag; tags use only ASCII letters, digits and '-'"),
        ("en\u{00A0}US", "U+00A0 is not allowed in a language tag; tags use only ASCII letters, digits and '-'"),
        ("123", "'123' is not a language subtag; a tag starts with 2–8 letters"),
        ("en-a", "the extension 'a' has no subtags"),
    ])
    func messagesSayWhatIsWrong(tag: String, message: String) {
        do {
            _ = try LanguageTag(parsing: tag)
            Issue.record("'\(tag)' parsed")
        } catch {
            #expect(error.message == message)
        }
    }

    /// Offsets count Unicode scalars, not bytes or grapheme clusters.
    @Test func offsetsCountScalars() {
        do {
            _ = try LanguageTag(parsing: "e\u{301}n-US-é")
        } catch {
            #expect(error.scalarOffset == 1)
        }
        do {
            _ = try LanguageTag(parsing: "en-👍")
        } catch {
            #expect(error.scalarOffset == 3 && error.scalarLength == 1)
        }
    }
}
