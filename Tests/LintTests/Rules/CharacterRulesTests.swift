import Diagnostics
@testable import Lint
import Model
import Testing

/// The character rules (TXT002–TXT008) on one text each: what they find, and what they leave alone.
@Suite struct CharacterRulesTests {
    static func run<R: LintRule>(_ rule: R, header: String, locale: String? = nil, sourceLocale: String = "en-US") -> [Diagnostic] {
        let translations: [String: [MessageField: String]] = locale.map { [$0: [.header: header]] } ?? [:]
        let config = LintFixture.config(locales: [sourceLocale, locale ?? "de-DE"], sourceLocale: sourceLocale)
        let message = LintFixture.message(header: locale == nil ? header : "Stay with Premium")
        return rule.check(LintFixture.context(messages: [message], config: config, translations: translations))
    }

    @Test func controlCharactersAreNamedAndPlaced() throws {
        let found = Self.run(ControlCharacter(), header: "Stay\twith\u{1B}Premium\u{7F}\u{9B}")
        #expect(found.map(\.message) == [
            "header contains the control character U+0009 CHARACTER TABULATION",
            "header contains the control character U+001B ESCAPE",
            "header contains the control character U+007F DELETE",
            "header contains the control character U+009B CONTROL SEQUENCE INTRODUCER",
        ])
        #expect(found.map { $0.location.column ?? 0 } == [17, 22, 30, 31])
        #expect(Self.run(ControlCharacter(), header: "Stay\u{85}").isEmpty, "NEL is line-separator's")
    }

    @Test func theLineBreakABlockScalarKeepsGetsItsOwnFix() {
        func text(_ value: String, style: ScalarStyle, path: String = "messages/a.yaml") -> Located<String> {
            Located(value, at: SourceLocation(path: path, line: 6, column: 13), style: style)
        }
        #expect(ControlCharacter.isBlockScalarEnd(text("Stay with us\n", style: .opaque), scalar: "\n", offset: 12))
        // A line break inside the text, one in quotes, and one in XLIFF are to be removed.
        #expect(!ControlCharacter.isBlockScalarEnd(text("Stay\nwith us\n", style: .opaque), scalar: "\n", offset: 4))
        #expect(!ControlCharacter.isBlockScalarEnd(text("Stay with us\n", style: .quoted(hasEscapes: true)), scalar: "\n", offset: 12))
        #expect(!ControlCharacter.isBlockScalarEnd(
            text("Stay with us\n", style: .opaque, path: "translations/de-DE.xliff"), scalar: "\n", offset: 12))
        let found = Self.run(ControlCharacter(), header: "Stay with\tus")
        #expect(found.first?.fixIts.map(\.message) == ["replace it with a space"])
    }

    @Test func bidiOverridesAreErrors() {
        let found = Self.run(BidiOverride(), header: "abc\u{202E}cba\u{202C}")
        #expect(found.map(\.message) == [
            "header contains U+202E RIGHT-TO-LEFT OVERRIDE, which reorders the text around it",
            "header contains U+202C POP DIRECTIONAL FORMATTING, which reorders the text around it",
        ])
        #expect(found.allSatisfy { $0.severity == .error })
    }

    @Test func lineSeparators() {
        let found = Self.run(LineSeparator(), header: "a\u{2028}b\u{2029}c\u{85}")
        #expect(found.map { $0.location.column ?? 0 } == [14, 16, 18])
        #expect(found.first?.message.contains("U+2028 LINE SEPARATOR") == true)
    }

    @Test func isolatesMustPairUp() {
        #expect(Self.run(UnbalancedBidiIsolate(), header: "\u{2067}مرحبا\u{2069} Premium \u{2068}x\u{2066}y\u{2069}\u{2069}").isEmpty)
        let found = Self.run(UnbalancedBidiIsolate(), header: "\u{2069}a\u{2067}b")
        #expect(found.map(\.message) == [
            "header has U+2069 POP DIRECTIONAL ISOLATE with no isolate to close",
            "header opens U+2067 RIGHT-TO-LEFT ISOLATE but never closes it with U+2069 POP DIRECTIONAL ISOLATE",
        ])
    }

    @Test func bidiMarksAreFineInRightToLeftLocales() {
        #expect(Self.run(BidiMarkOutsideRTL(), header: "ابق مع Premium\u{200F}", locale: "ar-SA").isEmpty)
        #expect(Self.run(BidiMarkOutsideRTL(), header: "הישארו עם Premium\u{200F}", locale: "he").isEmpty)
        let found = Self.run(BidiMarkOutsideRTL(), header: "Bleiben Sie\u{200E}", locale: "de-DE")
        #expect(found.map(\.message) == ["de-DE header contains U+200E LEFT-TO-RIGHT MARK, but de-DE is written left to right"])
        #expect(found.first?.subject?.locale == "de-DE")
    }

    @Test func zeroWidthCharacters() {
        #expect(Self.run(ZeroWidthCharacter(), header: "a\u{200B}b\u{2060}c\u{FEFF}d\u{AD}e\u{180E}").count == 5)
    }

    @Test func joinersWhereScriptsAndEmojiNeedThem() {
        #expect(Self.run(ZeroWidthCharacter(), header: "Family 👨‍👩‍👧 and 🏳️‍🌈").isEmpty)
        #expect(Self.run(ZeroWidthCharacter(), header: "می‌خواهم", locale: "fa").isEmpty, "Persian ZWNJ")
        #expect(Self.run(ZeroWidthCharacter(), header: "क्‍ष और क्‌ष", locale: "hi").isEmpty, "Devanagari ZWJ and ZWNJ after virama")
        let found = Self.run(ZeroWidthCharacter(), header: "Pre\u{200D}mium\u{200C}")
        #expect(found.map { $0.location.column ?? 0 } == [16, 21])
    }

    @Test func privateUseReplacementAndNoncharacters() {
        let scalars: [UInt32] = [0xF8FF, 0x20, 0xFFFD, 0x20, 0xFDD0, 0x20, 0x10FFFF, 0x20, 0xF0000]
        let header = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
        let found = Self.run(InvalidCharacter(), header: header)
        #expect(found.count == 5)
        #expect(found[0].message == "header contains U+F8FF <private use>, a private-use character that other systems show differently or not at all")
        #expect(found[2].message == "header contains U+FDD0 <noncharacter>, a noncharacter, never meant to be shown")
    }

    @Test func ordinaryTextInManyScriptsIsClean() {
        for text in ["日本語のテキスト", "Привет", "مرحبا بكم", "नमस्ते", "한국어", "Ελληνικά", "café 50 %"] {
            let rules: [any LintRule] = [ControlCharacter(), BidiOverride(), LineSeparator(), UnbalancedBidiIsolate(), ZeroWidthCharacter(), InvalidCharacter()]
            for rule in rules {
                #expect(Self.run(rule, header: text).isEmpty, "\(type(of: rule)) on \(text)")
            }
        }
    }
}
