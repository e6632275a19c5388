@testable import Lint
import Model
import Testing

/// FieldText walks each text once for all the rules: what it finds must be what each rule
/// would have found on its own.
@Suite struct FieldTextTests {
    /// The character rules are asked only about the scalars `isNotable` picks, so it must pick
    /// every scalar any of them reports.
    @Test func notableScalarsIncludeEveryScalarACharacterRuleReports() {
        let rules: [(String, (Unicode.Scalar) -> Bool)] = [
            ("TXT002", ControlCharacter.isFlagged), ("TXT003", BidiOverride.isFlagged), ("TXT004", LineSeparator.isFlagged),
            ("TXT005", UnbalancedBidiIsolate.isIsolate), ("TXT006", BidiMarkOutsideRTL.isMark),
            ("TXT007", ZeroWidthCharacter.mayBeInvisible), ("TXT008", InvalidCharacter.isFlagged),
        ]
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), !FieldText.isNotable(value) else { continue }
            for (code, isFlagged) in rules where isFlagged(scalar) {
                Issue.record("\(code) reports U+\(String(value, radix: 16, uppercase: true)), which isNotable skips")
            }
        }
    }

    /// A text made only of scalars `isNFCInert` picks is taken as NFC unchecked: each of them
    /// must pass the NFC quick check and have combining class 0, so that none changes or
    /// reorders under NFC whatever its neighbours.
    @Test func nfcInertScalarsAreQuickCheckYesWithCombiningClassZero() {
        for value in UInt32(0)...0x10FFFF where FieldText.isNFCInert(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let isInert = String(Character(scalar)).passesNFCQuickCheck && scalar.properties.canonicalCombiningClass == .notReordered
            #expect(isInert, "U+\(String(value, radix: 16, uppercase: true)) changes or reorders under NFC")
        }
    }

    /// The scan and the white-space rule pass the scalars `isPlainLetter` picks without asking
    /// anything else about them: each must be one the other tests would pass too.
    @Test func plainLettersAreInertNotNotableAndNotDigits() {
        var picked = 0
        for value in UInt32(0)...0x10FFFF where FieldText.isPlainLetter(value) {
            picked += 1
            guard let scalar = Unicode.Scalar(value) else {
                Issue.record("isPlainLetter picks U+\(String(value, radix: 16, uppercase: true)), which is no scalar")
                continue
            }
            #expect(FieldText.isNFCInert(value) && !FieldText.isNotable(value) && NumberScanner.digitValue(scalar) == nil
                        && !scalar.properties.isWhitespace,
                    "U+\(String(value, radix: 16, uppercase: true)) is not plain")
        }
        #expect(picked > 30_000)
        for value in UInt32(0)...0x10FFFF where FieldText.isQuietIndicOrThai(value) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(!FieldText.isNotable(value) && NumberScanner.digitValue(scalar) == nil && !scalar.properties.isWhitespace,
                    "U+\(String(value, radix: 16, uppercase: true)) is not quiet")
        }
    }

    /// The scan proves Devanagari and Thai text NFC from its own table: each scalar it takes must
    /// pass the quick check (the nukta aside) with the combining class the standard library
    /// gives, and the nukta must compose with exactly the three letters the scan watches for.
    @Test func indicAndThaiNormalizationTableAgreesWithUnicode() {
        for value in UInt32(0x900)...0x97F {
            let scalar = Unicode.Scalar(value)!
            guard let combiningClass = FieldText.indicOrThaiCombiningClass(value) else {
                #expect((0x958...0x95F).contains(value), "U+\(String(value, radix: 16, uppercase: true)) is left out")
                #expect(!String(Character(scalar)).passesNFCQuickCheck)
                continue
            }
            #expect(combiningClass == scalar.properties.canonicalCombiningClass.rawValue, "U+\(String(value, radix: 16, uppercase: true))")
            #expect(value == 0x93C || String(Character(scalar)).passesNFCQuickCheck, "U+\(String(value, radix: 16, uppercase: true))")
            if combiningClass == 0 {
                let withNukta = String(String.UnicodeScalarView([scalar, "\u{93C}"]))
                #expect(withNukta.isNFC == ![0x928, 0x930, 0x933].contains(value), "U+\(String(value, radix: 16, uppercase: true)) with nukta")
            }
        }
        for value in UInt32(0xE00)...0xE7F {
            guard let scalar = Unicode.Scalar(value), let combiningClass = FieldText.indicOrThaiCombiningClass(value) else { continue }
            #expect(scalar.properties.generalCategory != .unassigned, "U+\(String(value, radix: 16, uppercase: true))")
            #expect(combiningClass == scalar.properties.canonicalCombiningClass.rawValue, "U+\(String(value, radix: 16, uppercase: true))")
            #expect(String(Character(scalar)).passesNFCQuickCheck, "U+\(String(value, radix: 16, uppercase: true))")
        }
        #expect(FieldText.indicOrThaiCombiningClass(0xE01) == 0 && FieldText.indicOrThaiCombiningClass(0xE49) == 107)
    }

    @Test func countsAndNFCAgreeWithTextLength() {
        let texts = [
            "Stay with Premium", "Caf\u{E9} 👨‍👩‍👧", "Cafe\u{301}", "\u{1100}\u{1161}", "مرحبا ٥٠٪", "", "\u{2028}\t\u{F8FF}",
            "Ở lại với Premium", "プレミアムを続ける", "\u{30AB}\u{3099}", "프리미엄 유지", "\u{387}", "สมาชิกพรีเมียม",
            // Long runs of ASCII, read eight bytes at a time, broken by what must be seen: a
            // control, DEL, a digit (the first, and a later one), the edges of the printable range.
            "Stay with Premium for longer than you think", "Keep every lesson\u{1} and every word you saved",
            "Keep every lesson and every\u{7F} word you saved", "Save 50% on Premium today, and 20% more tomorrow",
            "Premium plan with lessons 1234567890 and 9876543210", "Plain text ending in a digit, exactly here: 9",
            " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
            "Long lesson plans\u{1F}\u{20}and /0 and 9: with ~~~~~~~~ text around it", "Café au lait every morning with Premium",
            // Devanagari and Thai, NFC and not: a nukta that composes and one that does not, a
            // letter NFC decomposes, marks in and out of canonical order, after ASCII and letters.
            "प्रीमियम के साथ बने रहें", "\u{928}\u{93C}", "\u{915}\u{93C}", "a\u{928}\u{93C}b", "\u{958}", "\u{915}\u{951}\u{94D}",
            "\u{915}\u{94D}\u{951}", "n\u{93C}", "\u{933}x\u{93C}", "\u{E01}\u{E49}\u{E38}", "\u{E01}\u{E38}\u{E49}",
            "สมาชิก 50% \u{E01}\u{E48}", "Premium \u{E01}\u{E3A}\u{E38}", "\u{5D0}\u{5B8}", "مَرحبا",
        ]
        let context = LintFixture.context(messages: texts.map { LintFixture.message(header: $0) })
        for item in context.fieldTexts where item.field == .header {
            #expect(item.isNFC == TextLength.isNFC(item.text.value), "\(item.text.value)")
            for measure in LengthMeasure.allCases {
                #expect(item.count(in: measure) == TextLength.count(item.text.value, in: measure), "\(item.text.value) in \(measure)")
            }
            #expect(item.numbers == NumberScanner.numbers(in: item.text.value))
            #expect(item.notableScalars.map(\.offset) == Array(item.text.value.unicodeScalars.enumerated())
                .filter { FieldText.isNotable($0.element.value) }.map(\.offset))
        }
    }

    /// Messages a hand-made catalog places at one spot must not lend each other their sources.
    @Test func aTranslationGetsItsOwnMessagesSource() throws {
        let first = LintFixture.message(header: "Stay with Premium")
        let second = LintFixture.message(key: "other", header: "Save 50% today")
        #expect(first.location == second.location)
        func source(_ message: Message) -> LocalizedMessage {
            LocalizedMessage(message: message, locale: "en-US", texts: [.header: message.header!], translationPath: nil)
        }
        let translated = LocalizedMessage(
            message: second, locale: "de-DE", texts: [.header: Located("Stay with Premium", at: SourceLocation(path: "translations/de-DE.xliff"))],
            translationPath: "translations/de-DE.xliff")
        let texts = FieldText.all(in: Localization(candidates: [source(first), source(second), translated], gaps: [], fileForLocale: [:]))
        let translation = try #require(texts.last)
        #expect(translation.source == nil, "the source made at that spot is the first message's")
        #expect(texts[0].source == nil && texts[1].source == nil)
    }
}
