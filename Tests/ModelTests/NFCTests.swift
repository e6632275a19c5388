import Foundation
import Model
import Testing

/// `isNFC` and `nfcNormalized` give Foundation's verdict and Foundation's normal form, also
/// for the texts the quick check cannot prove: those the standard library checks in full.
struct NFCTests {
    static let texts = [
        "Plain ASCII",
        "Café crème", // precomposed
        "Cafe\u{301} cre\u{300}me", // decomposed
        "Tiếng Việt có dấu", // Vietnamese, precomposed
        "Tie\u{302}\u{301}ng Vie\u{323}\u{302}t", // Vietnamese, decomposed
        "한국어 메시지", // Hangul syllables
        "\u{1112}\u{1161}\u{11AB}", // Hangul jamo that compose to 한
        "हिन्दी क़", // Devanagari with a precomposed nukta letter (excluded from composition)
        "\u{915}\u{93C}", // क + nukta, stays decomposed in NFC
        "বাংলা ভাষা", // Bengali vowel signs (NFC_QC=Maybe)
        "\u{9C7}\u{9BE}", // two Bengali signs that compose
        "ஒன்று \u{B92}\u{BD7}", // Tamil
        "a\u{327}\u{301}", "a\u{301}\u{327}", // combining marks in and out of canonical order
        "Ω Å", "\u{2126} \u{212B}", // Ohm and Angstrom signs, singletons
        "🙂 Emoji and ZWJ 👩‍💻",
    ]

    @Test(arguments: texts)
    func agreesWithFoundation(_ text: String) {
        let normalized = text.precomposedStringWithCanonicalMapping
        #expect(text.isNFC == normalized.unicodeScalars.elementsEqual(text.unicodeScalars))
        #expect(text.nfcNormalized.unicodeScalars.elementsEqual(normalized.unicodeScalars))
        if text.passesNFCQuickCheck { #expect(text.isNFC) }
    }
}
