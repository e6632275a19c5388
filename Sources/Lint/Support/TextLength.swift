import Foundation
import Model

/// A text's length in each of the four measures Apple's client libraries use, after NFC.
struct TextLength {
    var graphemes: Int
    var scalars: Int
    var utf16Units: Int
    var utf8Bytes: Int

    /// Measures `text` after normalising it to NFC, as msgc ships it.
    init(_ text: String) {
        let normalized = TextLength.nfc(text)
        graphemes = normalized.count
        scalars = normalized.unicodeScalars.count
        utf16Units = normalized.utf16.count
        utf8Bytes = normalized.utf8.count
    }

    func count(in measure: LengthMeasure) -> Int {
        switch measure {
        case .graphemes: graphemes
        case .scalars: scalars
        case .utf16: utf16Units
        case .utf8: utf8Bytes
        }
    }

    /// "68 graphemes, 70 scalars, 71 UTF-16 units, 80 UTF-8 bytes".
    var allMeasures: String {
        "\(graphemes) grapheme\(graphemes == 1 ? "" : "s"), \(scalars) scalar\(scalars == 1 ? "" : "s"), \(utf16Units) UTF-16 unit\(utf16Units == 1 ? "" : "s"), \(utf8Bytes) UTF-8 byte\(utf8Bytes == 1 ? "" : "s")"
    }

    /// `text` in NFC: the text itself when it already is.
    static func nfc(_ text: String) -> String { text.nfcNormalized }

    static func isNFC(_ text: String) -> Bool { text.isNFC }

    /// The count of `text` in `measure` after NFC, without the other three measures (the
    /// grapheme count, which needs the slowest walk, is only made when a measure asks for it).
    static func count(_ text: String, in measure: LengthMeasure) -> Int {
        measure.count(nfc(text))
    }

    /// The offset, in scalars of `text` as written, of the first character whose NFC form takes
    /// the count in `measure` above `limit`; nil when the whole text stays within it.
    ///
    /// Normalisation never reaches across a grapheme cluster, so counting character by
    /// character gives the same total as counting the normalised whole.
    static func scalarOffset(whereCountExceeds limit: Int, in text: String, measure: LengthMeasure) -> Int? {
        let alreadyNFC = isNFC(text)
        var total = 0
        var offset = 0
        for character in text {
            let piece = alreadyNFC ? String(character) : nfc(String(character))
            total += measure == .graphemes ? 1 : measure.count(piece)
            if total > limit { return offset }
            offset += character.unicodeScalars.count
        }
        return nil
    }
}
