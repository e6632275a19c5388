@testable import Lint
import Testing

/// NumberScanner's shortcut past Unicode's property lookup must agree with that lookup.
@Suite struct NumberScannerTests {
    @Test func digitChunksAgreeWithUnicodeDataForTheWholeBMP() {
        for value in UInt32(0x80)..<0x10000 {
            guard let scalar = Unicode.Scalar(value), scalar.properties.numericType == .decimal else { continue }
            #expect(NumberScanner.mayBeDigit(scalar), "U+\(String(value, radix: 16, uppercase: true)) is a decimal digit")
        }
    }

    @Test func digitsOfEveryScriptHaveTheirValue() {
        #expect(NumberScanner.digitValue("7") == 7)
        #expect(NumberScanner.digitValue("\u{0667}") == 7, "Arabic-Indic seven")
        #expect(NumberScanner.digitValue("\u{096D}") == 7, "Devanagari seven")
        #expect(NumberScanner.digitValue("\u{0E57}") == 7, "Thai seven")
        #expect(NumberScanner.digitValue("\u{FF17}") == 7, "full-width seven")
        #expect(NumberScanner.digitValue("\u{1D7D5}") == 7, "mathematical bold seven")
        #expect(NumberScanner.digitValue("七") == nil, "a numeral, not a decimal digit")
        #expect(NumberScanner.digitValue("a") == nil)
    }
}

extension NumberScannerTests {
    @Test func textsWithAndWithoutDigits() {
        #expect(NumberScanner.containsDigit("Save 50%"))
        #expect(NumberScanner.containsDigit("وفر ٥٠٪"))
        #expect(NumberScanner.containsDigit("€\u{1D7D5}"))
        #expect(!NumberScanner.containsDigit("आपकी योजना।"))
        #expect(!NumberScanner.containsDigit("再享一年 🎉"))
        #expect(!NumberScanner.containsDigit(""))
    }
}
