import Model

/// The one way untrusted text becomes terminal text: file names, translations quoted in
/// messages, states from a state file, fields of a manifest. Every human-facing renderer
/// (diagnostics, the coverage table, `msgc diff`, error messages) writes such text through it.
///
/// It keeps characters that a terminal would act on (controls, escapes) or that reorder or hide
/// text (bidi controls, zero-width characters) from reaching the terminal as themselves:
/// a diagnostic about a right-to-left override must not reorder the report it is in, and one
/// about a zero-width space shows it as `<U+200B>` in its message and in its snippet.
public enum TerminalText {
    /// Message text with such characters written as `<U+202E>`; a zero width joiner inside an
    /// emoji sequence (`👨‍👩‍👧`) is kept, as it shows as part of the one emoji (`isEmojiJoiner`).
    public static func escaped(_ text: String) -> String {
        guard containsHazard(text) else { return text }
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        var scalars = text.unicodeScalars.makeIterator()
        var current = scalars.next()
        while let scalar = current {
            let next = scalars.next()
            if isHazard(scalar) && !isEmojiJoiner(scalar, after: previous, before: next) {
                result.append(contentsOf: codePoint(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
            previous = scalar
            current = next
        }
        return String(result)
    }

    /// Whether `text` has a character `isHazard` picks, decided from its UTF-8: every message
    /// and path of a report is asked, and nearly none has one. Printable ASCII passes eight bytes
    /// at a time; of the other bytes, only those that can lead a hazard's UTF-8 are decoded.
    public static func containsHazard(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                if index + 8 <= bytes.count,
                   UTF8Bytes.isPrintableASCII(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F { return true }
                switch byte {
                case 0xC2, 0xD8, 0xE1, 0xE2, 0xE3, 0xEF, 0xF0...0xF4:
                    var next = index
                    if let scalar = Unicode.Scalar(UTF8Bytes.decodeScalar(bytes, at: &next)), isHazard(scalar) { return true }
                    index = next
                default:
                    index += 1
                }
            }
            return false
        }
    }

    /// A source line as a snippet shows it: each character `isHazard` picks written as
    /// `<U+200B>`, as in messages, and a tab as a space, so that what is invisible or would act
    /// on the terminal shows as what it is. Also, when the line has such a character, where each
    /// of its scalars starts in the shown line (in scalars), and after them where the line ends;
    /// nil when the line is shown as it is.
    ///
    /// Linear in the line's length whatever it holds: the shown length is counted as it grows,
    /// never asked of the growing text (which walks it: a 131,935-character line of tabs, soft
    /// hyphens and joiners once took minutes a snippet).
    public static func snippetLine(_ line: String) -> (text: String, offsets: [Int]?) {
        guard containsHazard(line) else { return (line, nil) }
        var shown = String.UnicodeScalarView()
        var offsets: [Int] = []
        var shownCount = 0
        var previous: Unicode.Scalar?
        var scalars = line.unicodeScalars.makeIterator()
        var current = scalars.next()
        while let scalar = current {
            let next = scalars.next()
            offsets.append(shownCount)
            if scalar == "\t" {
                shown.append(" ")
                shownCount += 1
            } else if isHazard(scalar) && !isEmojiJoiner(scalar, after: previous, before: next) {
                // `<U+…>` is ASCII: as many scalars as UTF-8 bytes.
                let point = codePoint(scalar)
                shown.append(contentsOf: point.unicodeScalars)
                shownCount += point.utf8.count
            } else {
                shown.append(scalar)
                shownCount += 1
            }
            previous = scalar
            current = next
        }
        offsets.append(shownCount)
        return (String(shown), offsets)
    }

    /// Whether `scalar` is a zero width joiner between two parts of one emoji (`👨‍👩‍👧`, `🏳️‍🌈`,
    /// `👩🏽‍💻`): after an emoji, its variation selector or skin tone, and before an emoji. There
    /// it hides nothing and reorders nothing (a terminal draws the sequence as one emoji, or its
    /// parts side by side), and `<U+200D>` would break a correct emoji apart in a report.
    static func isEmojiJoiner(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?) -> Bool {
        guard scalar.value == 0x200D, let previous, let next else { return false }
        func isEmoji(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x7F && scalar.properties.isEmoji }
        return (isEmoji(previous) || previous.value == 0xFE0F) && isEmoji(next)
    }

    /// `<U+200B>`: `U+` and at least four hex digits, in angle brackets.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    /// Whether `scalar` must not reach a terminal as itself: controls (C0, DEL, C1), format
    /// characters (Unicode's Cf: the zero-width ones, the soft hyphen, the bidirectional marks,
    /// embeddings, overrides and isolates, the invisible operators, tags, the BOM), the line
    /// and paragraph separators, the Hangul fillers (letters that show as nothing) and the
    /// noncharacters. Of the format characters, only the prepended concatenation marks (signs
    /// that show, such as U+0600 ARABIC NUMBER SIGN) are left as they are. A test holds this
    /// to the standard library's Unicode data for every scalar.
    public static func isHazard(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B...0x200F, 0x2028...0x202E,
             0x2060...0x2064, 0x2066...0x206F, 0x3164, 0xFDD0...0xFDEF, 0xFEFF, 0xFFA0, 0xFFF9...0xFFFB,
             0x13430...0x1343F, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0001, 0xE0020...0xE007F:
            true
        default:
            scalar.value & 0xFFFE == 0xFFFE
        }
    }
}
