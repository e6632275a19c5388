import Model

/// The one way untrusted text becomes terminal text: file names, translations quoted in
/// messages, states from a state file, fields of a manifest. Every human-facing renderer
/// (diagnostics, the coverage table, `msgc diff`, error messages) writes such text through it.
///
/// It keeps characters that a terminal would act on (controls, escapes) or that reorder or hide
/// text (bidi controls, zero-width characters) from reaching the terminal as themselves:
/// a diagnostic about a right-to-left override must not reorder the report it is in.
public enum TerminalText {
    /// Message text with such characters written as `<U+202E>`.
    public static func escaped(_ text: String) -> String {
        guard containsHazard(text) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isHazard(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` has a character `isHazard` picks, decided from its UTF-8 without decoding
    /// it: every message and path of a report is asked, and nearly none has one. Printable ASCII
    /// passes eight bytes at a time; of the other bytes, only the four that can lead a hazard's
    /// UTF-8 look further.
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
                case 0xC2, 0xD8, 0xE2, 0xEF:
                    let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                    let third = index + 2 < bytes.count ? bytes[index + 2] : 0
                    switch byte {
                    case 0xC2 where next >= 0x80 && next <= 0x9F: return true  // C1 controls
                    case 0xD8 where next == 0x9C: return true  // U+061C
                    case 0xE2 where next == 0x80 && ((0x8B...0x8F).contains(third) || (0xA8...0xAE).contains(third)): return true
                    case 0xE2 where next == 0x81 && (0xA0...0xA9).contains(third): return true
                    case 0xEF where next == 0xBB && third == 0xBF: return true  // U+FEFF
                    default: break
                    }
                default:
                    break
                }
                index += 1
            }
            return false
        }
    }

    /// A source line with each such character replaced by one visible U+FFFD, and tabs by a
    /// space, so that scalar columns and markers stay aligned.
    public static func placeholders(_ line: String) -> String {
        guard containsHazard(line) else { return line }
        return String(String.UnicodeScalarView(line.unicodeScalars.map { scalar in
            if scalar == "\t" { return " " }
            return isHazard(scalar) ? "\u{FFFD}" : scalar
        }))
    }

    public static func isHazard(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0x061C, 0xFEFF: true
        default: false
        }
    }
}
