@testable import Lint
import Diagnostics
import Model
import Testing

/// TXT001, TXT009 and TXT010: empty text, normalisation and white space at the edges.
@Suite struct TextShapeRulesTests {
    static func context(header: String, translated: String? = nil) -> LintContext {
        LintFixture.context(
            messages: [LintFixture.message(header: header)],
            translations: translated.map { ["de-DE": [.header: $0]] } ?? [:])
    }

    @Test func emptyAndBlankTexts() {
        #expect(EmptyText().check(Self.context(header: "")).map(\.message) == ["header is empty"])
        #expect(EmptyText().check(Self.context(header: " \u{A0}\u{3000}")).map(\.message) == ["header is only white space"])
        let translated = EmptyText().check(Self.context(header: "Stay", translated: "  "))
        #expect(translated.map(\.message) == ["de-DE header is only white space"])
        #expect(translated.first?.subject?.locale == "de-DE")
    }

    @Test func notNFCPointsAtTheFirstDecomposedCharacter() throws {
        let found = try #require(NotNFC().check(Self.context(header: "Cafe\u{301} cre\u{300}me")).first)
        #expect(found.message == "header is not in NFC: 'é' is written as U+0065 U+0301 instead of U+00E9; msgc ships the NFC form")
        #expect(found.location.column == 13 + 3 && found.location.endColumn == 13 + 5)
        #expect(NotNFC().check(Self.context(header: "Café crème 한국어")).isEmpty)
        // Conjoining jamo compose to a syllable under NFC.
        #expect(NotNFC().check(Self.context(header: "\u{1112}\u{1161}\u{11AB}")).count == 1)
    }

    @Test func whiteSpaceAtTheEdges() {
        let found = SurroundingWhitespace().check(Self.context(header: "  Stay\u{A0}"))
        #expect(found.map(\.message) == ["header starts with 2 spaces", "header ends with U+00A0 NO-BREAK SPACE"])
        #expect(SurroundingWhitespace().check(Self.context(header: "Stay with Premium")).isEmpty)
        // The fix-it's edit, in sources and translations, is made from the file as written:
        // CharacterFixTests.
    }

    /// The ASCII shortcuts of TXT001 and TXT010 answer as Unicode's tables would.
    @Test func asciiWhiteSpaceShortcutsAgreeWithUnicode() {
        for value in UInt8(0)..<0x80 {
            let scalar = Unicode.Scalar(value)
            #expect(EmptyText.isWhitespace(scalar) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
            let category = scalar.properties.generalCategory
            let isReported = scalar.properties.isWhitespace && category != .control && category != .lineSeparator && category != .paragraphSeparator
            #expect(SurroundingWhitespace.isReported(scalar) == isReported, "U+\(String(value, radix: 16))")
        }
    }
}
