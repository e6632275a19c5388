import Testing
@testable import LanguageTags

/// The combined check a lint rule runs on each locale tag.
struct LanguageTagCheckerTests {
    /// A finding as (kind, offset, length, replacement), to compare whole lists at once.
    struct Summary: Hashable, CustomStringConvertible {
        var kind: LanguageTagFinding.Kind
        var offset: Int
        var length: Int
        var replacement: String?
        init(_ kind: LanguageTagFinding.Kind, _ offset: Int, _ length: Int, _ replacement: String?) {
            (self.kind, self.offset, self.length, self.replacement) = (kind, offset, length, replacement)
        }
        var description: String { "\(kind)@\(offset)+\(length)→\(replacement ?? "nil")" }
    }

    static func summaries(_ tag: String, extraLocales: [String] = []) -> [Summary] {
        LanguageTagChecker.check(tag, extraLocales: extraLocales).map {
            Summary($0.kind, $0.scalarOffset, $0.scalarLength, $0.replacement)
        }
    }

    @Test(arguments: ["en-US", "ja", "zh-Hans", "zh-Hant", "no", "pt-BR", "ar-SA"])
    func appStoreCodesPass(tag: String) {
        #expect(LanguageTagChecker.check(tag) == [])
    }

    @Test(arguments: [
        ("en_US", [Summary(.malformed, 2, 1, "en-US")]),
        ("EN_us", [Summary(.malformed, 2, 1, "en-US")]),
        ("en-US-Latn", [Summary(.malformed, 6, 4, nil)]),
        ("123", [Summary(.malformed, 0, 3, nil)]),
        ("en-UK", [Summary(.unknownSubtag, 3, 2, "en-GB")]),
        ("eng-US", [Summary(.unknownSubtag, 0, 3, "en-US")]),
        ("de-1996-1996", [Summary(.duplicateSubtag, 8, 4, "de-1996")]),
        ("EN-us", [Summary(.nonCanonicalCase, 0, 5, "en-US")]),
        ("zh-hans", [Summary(.nonCanonicalCase, 3, 4, "zh-Hans")]),
        ("JA-jp", [Summary(.nonCanonicalCase, 0, 5, "ja-JP"), Summary(.notAppStoreCode, 0, 5, "ja")]),
        ("ja-JP", [Summary(.notAppStoreCode, 0, 5, "ja")]),
        ("fr", [Summary(.notAppStoreCode, 0, 2, "fr-FR")]),
        ("zh-CN", [Summary(.notAppStoreCode, 0, 5, "zh-Hans")]),
        ("iw", [Summary(.deprecatedSubtag, 0, 2, "he")]),
        ("IW", [Summary(.nonCanonicalCase, 0, 2, "iw"), Summary(.deprecatedSubtag, 0, 2, "he")]),
        ("iw-IL", [Summary(.deprecatedSubtag, 0, 2, "he-IL"), Summary(.notAppStoreCode, 0, 5, "he")]),
        ("my-BU", [Summary(.deprecatedSubtag, 3, 2, "my-MM"), Summary(.notAppStoreCode, 0, 5, nil)]),
        ("i-klingon", [Summary(.deprecatedSubtag, 0, 9, "tlh"), Summary(.notAppStoreCode, 0, 9, nil)]),
        ("en-GB-oed", [Summary(.deprecatedSubtag, 0, 9, "en-GB-oxendict"), Summary(.notAppStoreCode, 0, 9, "en-GB")]),
        ("i-default", [Summary(.notAppStoreCode, 0, 9, nil)]),
        ("zh-yue", [Summary(.deprecatedSubtag, 0, 6, "yue"), Summary(.notAppStoreCode, 0, 6, "zh-Hant")]),
        ("x-whatever", [Summary(.privateUse, 0, 10, nil)]),
        ("en-US-x-twain", [Summary(.privateUse, 6, 7, "en-US")]),
        ("qaa", [Summary(.privateUse, 0, 3, nil)]),
        ("en-XA", [Summary(.privateUse, 3, 2, "en-GB")]),
        ("tlh", [Summary(.notAppStoreCode, 0, 3, nil)]),
    ])
    func findingsComeInOrderWithFixes(tag: String, expected: [Summary]) {
        #expect(Self.summaries(tag) == expected)
    }

    @Test(arguments: [
        ("en_US", ["'en_US' uses '_' as a separator; BCP 47 uses '-'"]),
        ("EN-us", ["'EN-us' is in non-canonical case; BCP 47 writes 'en-US'"]),
        ("ja-JP", ["'ja-JP' is not an App Store Connect locale code; the nearest is 'ja'"]),
        ("tlh", ["'tlh' is not an App Store Connect locale code, and none is close to it"]),
        ("en-US-x-twain", ["'x-twain' is private use, which no App Store Connect locale code has; the nearest code is 'en-US'"]),
        ("qaa", ["'qaa' is a private-use language subtag, which no App Store Connect locale code has"]),
    ])
    func messages(tag: String, messages: [String]) {
        #expect(LanguageTagChecker.check(tag).map(\.message) == messages)
    }

    @Test func extraLocalesAdmitValidTags() {
        #expect(LanguageTagChecker.check("bn", extraLocales: ["bn", "sl"]) == [])
        #expect(LanguageTagChecker.check("x-whatever", extraLocales: ["x-whatever"]) == [])
        // Case still matters for the tag itself, but admission looks at its canonical case.
        #expect(Self.summaries("BN", extraLocales: ["bn"]) == [Summary(.nonCanonicalCase, 0, 2, "bn")])
        // Extra locales don't rescue an invalid tag.
        #expect(Self.summaries("en-UK", extraLocales: ["en-UK"]) == [Summary(.unknownSubtag, 3, 2, "en-GB")])
    }

    @Test func checkValidityLeavesOutTheAppStoreCheck() {
        #expect(LanguageTagChecker.checkValidity("bn") == [])
        #expect(LanguageTagChecker.checkValidity("x-whatever") == [])
        #expect(LanguageTagChecker.checkValidity("ja-JP") == [])
        #expect(LanguageTagChecker.checkValidity("EN-us").map(\.kind) == [.nonCanonicalCase])
        #expect(LanguageTagChecker.checkValidity("en_US").map(\.kind) == [.malformed])
    }

    /// Every message follows msgc's style, whatever the input.
    @Test(arguments: [
        "", "en_US", "EN-us", "ja-JP", "iw-IL", "i-klingon", "x-foo", "qaa", "en-UK", "de-1996-1996",
        "zh-yue-gan", "en-a-b", "sr-CS", "tlh", "fr-Fé", "-", "en-US-abcdefghi",
    ])
    func messagesStartLowercaseAndHaveNoFinalPeriod(tag: String) {
        for finding in LanguageTagChecker.check(tag) {
            #expect(finding.message.first?.isUppercase == false, "\(finding.message)")
            #expect(finding.message.last != ".", "\(finding.message)")
            #expect(finding.scalarRange.upperBound <= max(tag.unicodeScalars.count, 0))
        }
    }
}
