import Foundation
import Model
@testable import PseudoLocalization
import Testing

@Suite struct PseudoLocalizerTests {
    static let sentences = [
        "Your streak is waiting for you",
        "Keep Parla Plus for another year and pick up where you left off.",
        "Unlimited lessons in all 24 languages",
        "Before you decide, here's a quick look at what your yearly plan includes. Nothing changes until it ends.",
    ]

    @Test(arguments: sentences, [0.35, 0.5, 1.0, 0.1])
    func expandsByTheRatioInTheProjectsMeasure(sentence: String, ratio: Double) {
        for measure in [LengthMeasure.utf16, .scalars, .graphemes] {
            let pseudo = PseudoLocalizer(expansion: ratio, measure: measure).translate(sentence)
            let source = measure.count(sentence)
            let expected = Int((Double(source) * (1 + ratio)).rounded(.up))
            #expect(measure.count(pseudo) == max(expected, source + 2), "\(measure): \(pseudo)")
        }
    }

    @Test func defaultIsThirtyFivePercentWithBracketsAndAccents() {
        let pseudo = PseudoLocalizer().translate("Your streak is waiting for you")
        #expect(pseudo.utf16.count == 41)  // ⌈30 × 1.35⌉
        #expect(pseudo.hasPrefix("[Ýöûŕ šţŕéàķ îš ŵàîţîñĝ ƒöŕ ýöû "))
        #expect(pseudo.hasSuffix("]"))
        #expect(!pseudo.contains { $0.isASCII && $0.isLetter }, "every ASCII letter is accented: \(pseudo)")
        #expect(pseudo.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(pseudo.unicodeScalars))
    }

    @Test func zeroExpansionOnlyBracketsAndAccents() {
        #expect(PseudoLocalizer(expansion: 0).translate("Stay with Plus") == "[Šţàý ŵîţĥ Þļûš]")
    }

    @Test func shortTextIsOnlyBracketed() {
        #expect(PseudoLocalizer().translate("Hi") == "[Ĥî]")
    }

    @Test func emptyAndBlankTextStayAsTheyAre() {
        #expect(PseudoLocalizer().translate("") == "")
        #expect(PseudoLocalizer().translate("  ") == "  ")
    }

    @Test func numbersPlaceholdersMarkupAndAddressesSurvive() {
        let source = "Save 50% on {name}'s plan, %1$@ or %d times: <b>now</b> at https://parla.example/plus or help@parla.example, $(PLAN) 3×, ٥٠٪ [beta]"
        let pseudo = PseudoLocalizer().translate(source)
        for token in ["50%", "{name}'s", "%1$@", "%d", "<b>now</b>", "https://parla.example/plus", "help@parla.example,", "$(PLAN)", "3×", "٥٠٪", "[beta]"] {
            #expect(pseudo.contains(token), "\(token) lost in \(pseudo)")
        }
        #expect(pseudo.contains("Šàṽé") && pseudo.contains("þļàñ,"))
        // The filler adds no digits, so every number in the translation is one of the source's.
        let digits = { (text: String) in text.unicodeScalars.filter { $0.properties.numericType != nil }.map(\.value) }
        #expect(digits(pseudo) == digits(source))
    }

    @Test func rightToLeftRunsTheWordsRightToLeftWithMarksOnly() {
        let pseudo = PseudoLocalizer(isRightToLeft: true).translate("Your streak is waiting for you")
        #expect(pseudo.hasPrefix("[Ýöûŕ\u{200F} šţŕéàķ\u{200F} îš\u{200F} ŵàîţîñĝ\u{200F} ƒöŕ\u{200F} ýöû\u{200F} "))
        // Every space is right-to-left: a mark before each one.
        let scalars = Array(pseudo.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar == " " {
            #expect(index > 0 && scalars[index - 1] == "\u{200F}")
        }
        // No embedding, override or isolate, which msgc's own text rules refuse.
        let forbidden: ClosedRange<UInt32> = 0x202A...0x202E
        let isolates: ClosedRange<UInt32> = 0x2066...0x2069
        #expect(!scalars.contains { forbidden.contains($0.value) || isolates.contains($0.value) })
        // The marks count: the text is still ⌈30 × 1.35⌉ UTF-16 units, and never ends in a mark.
        #expect(pseudo.utf16.count == 41)
        #expect(scalars[scalars.count - 2] != "\u{200F}")
    }

    @Test(arguments: [
        ("en-XA", true), ("ar-XB", true), ("en-Latn-XA", true), ("en-x-pseudo", true), ("fr-XZ", true),
        ("EN-xa", true), ("en-US", false), ("x-pseudo", false), ("en", false), ("ar-SA", false), ("en-x-pseudo-b", false),
        ("en-XAB", false), ("en-X1", false), ("de-DE-x-pseudo", true), ("zh-Hans", false),
    ])
    func recognisesPseudoLocales(tag: String, isPseudo: Bool) {
        #expect(PseudoLocale.isPseudo(tag) == isPseudo)
    }
}
