import Model

/// A number found in text, with its value normalised so that the same quantity written in two
/// languages compares equal: `50 %`, `50 %` (NBSP), `٥٠٪` and `50%` all give 50 per cent.
struct NumberToken: Hashable {
    /// Decimal digits of the value without grouping, leading or trailing zeros: `1000`, `1.5`.
    var value: String
    var isPercent: Bool
    /// Where the token starts, in scalars, and how many scalars it spans as written.
    var scalarOffset: Int
    var scalarLength: Int
    /// The token as written.
    var text: String

    /// The value for people: `50%`, `1.5`.
    var displayValue: String { value + (isPercent ? "%" : "") }
}

/// Finds numbers in text, across digit systems and local conventions.
///
/// - Digits are any characters with Unicode numeric type *decimal*: ASCII, Arabic-Indic
///   (٠–٩), Extended Arabic-Indic (۰–۹), Devanagari, full-width and the rest.
/// - A run of digits may contain separators followed by more digits. `'`, `٬`, U+00A0, U+202F,
///   U+2009 and the ASCII space group thousands (the last three only before exactly three
///   digits); `٫` is a decimal separator. For `.` and `,`: when both appear, the last one is the
///   decimal separator; when one appears several times it groups; when it appears once it groups
///   before exactly three digits (`1,000`, `1.000`) and is decimal otherwise (`1.5`, `1,5`).
/// - A number is a percentage when `%`, `٪`, `％` or `﹪` follows it (after optional spaces, as
///   French and German write `50 %`) or precedes it (Turkish writes `%50`).
enum NumberScanner {
    /// The characters the rules above give a part, as functions rather than sets: each is asked
    /// about every scalar next to a digit.
    static func isPercentSign(_ value: UInt32) -> Bool {
        value == 0x25 || value == 0x066A || value == 0xFF05 || value == 0xFE6A
    }

    static func isSpace(_ value: UInt32) -> Bool {
        value == 0x20 || value == 0xA0 || value == 0x202F || value == 0x2009
    }

    static func isGroupingOnly(_ value: UInt32) -> Bool {
        value == 0x27 || value == 0x066C || value == 0x2019
    }

    /// `.` and `,`: decimal or grouping, as the rules above decide.
    static func isAmbiguous(_ value: UInt32) -> Bool {
        value == 0x2E || value == 0x2C
    }

    static func isDecimalOnly(_ value: UInt32) -> Bool {
        value == 0x066B
    }

    /// Whether `scalar` can be a decimal digit: false for all of the Basic Multilingual Plane
    /// but the 36 sixteen-scalar blocks above ASCII that hold one (`value >> 4`, made from the
    /// standard library's Unicode data). `NumberScannerTests` checks it against that data for
    /// every scalar of the plane.
    static func mayBeDigit(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value < 0x10000 else { return true }
        let block = scalar.value >> 4
        // Most scripts first, in two comparisons: Latin, Greek, Cyrillic and Hebrew below the
        // first block; CJK, kana and Hangul in the gaps.
        if block < 0x66 || (block > 0x1C5 && block < 0xA62) || (block > 0xABF && block < 0xFF1) { return false }
        switch block {
        case 0x66, 0x6F, 0x7C, 0x96, 0x9E, 0xA6, 0xAE, 0xB6, 0xBE, 0xC6, 0xCE, 0xD6, 0xDE, 0xE5, 0xED, 0xF2,
             0x104, 0x109, 0x17E, 0x181, 0x194, 0x19D, 0x1A8, 0x1A9, 0x1B5, 0x1BB, 0x1C4, 0x1C5,
             0xA62, 0xA8D, 0xA90, 0xA9D, 0xA9F, 0xAA5, 0xABF, 0xFF1:
            return true
        default:
            return false
        }
    }

    /// The value of a decimal digit, nil for anything else. Inlined into the loops that ask
    /// about every scalar: ASCII and the chunks of the plane without digits, nearly every
    /// scalar of real text, are answered without Unicode's tables.
    @inline(__always)
    static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        if scalar.isASCII { return scalar.value &- 0x30 < 10 ? Int(scalar.value &- 0x30) : nil }
        guard mayBeDigit(scalar) else { return nil }
        return unicodeDigitValue(scalar)
    }

    /// Unicode's answer. Out of line, because the property lookup sets up type metadata before
    /// anything else, which would cost every caller about a hundred instructions a scalar.
    @inline(never)
    static func unicodeDigitValue(_ scalar: Unicode.Scalar) -> Int? {
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
        return Int(value)
    }

    /// Whether `text` has a decimal digit: one loop over its UTF-8 that asks Unicode's tables
    /// only about scalars in blocks that hold digits. Most texts have none, and then `numbers`
    /// has nothing more to do.
    static func containsDigit(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let value = UTF8Bytes.decodeScalar(bytes, at: &index)
                if value < 0x80 {
                    if value >= 0x30 && value <= 0x39 { return true }
                    continue
                }
                if let scalar = Unicode.Scalar(value), digitValue(scalar) != nil { return true }
            }
            return false
        }
    }

    static func numbers(in text: String) -> [NumberToken] {
        containsDigit(text) ? numbers(inTextWithDigit: text) : []
    }

    /// `numbers(in:)` for a text known to hold a digit (`FieldText` finds that out in its own
    /// pass over the text).
    static func numbers(inTextWithDigit text: String) -> [NumberToken] {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { scalars.append(scalar) }
        var tokens: [NumberToken] = []
        // One number's digits (values 0–9) one after another, where each group of them starts,
        // and the separators between the groups; kept from number to number.
        var digits: [UInt8] = []
        var groupStarts: [Int] = []
        var separators: [UInt32] = []
        var index = 0
        while index < scalars.count {
            guard digitValue(scalars[index]) != nil else { index += 1; continue }
            let start = index
            digits.removeAll(keepingCapacity: true)
            groupStarts.removeAll(keepingCapacity: true)
            groupStarts.append(0)
            separators.removeAll(keepingCapacity: true)
            while index < scalars.count {
                if let digit = digitValue(scalars[index]) {
                    digits.append(UInt8(digit))
                    index += 1
                    continue
                }
                let separator = scalars[index].value
                var following = 0
                while index + 1 + following < scalars.count, digitValue(scalars[index + 1 + following]) != nil { following += 1 }
                let isSeparator: Bool
                if isSpace(separator) {
                    let afterGroup = index + 1 + following
                    isSeparator = following == 3 && (afterGroup >= scalars.count || digitValue(scalars[afterGroup]) == nil)
                        && digits.count - groupStarts[groupStarts.count - 1] <= 3
                } else {
                    isSeparator = following > 0 && (isGroupingOnly(separator) || isAmbiguous(separator) || isDecimalOnly(separator))
                }
                guard isSeparator else { break }
                separators.append(separator)
                groupStarts.append(digits.count)
                index += 1
            }
            var isPercent = false
            var end = index
            var look = index
            while look < scalars.count, isSpace(scalars[look].value) { look += 1 }
            if look < scalars.count, isPercentSign(scalars[look].value) {
                isPercent = true
                end = look + 1
            }
            var begin = start
            if !isPercent {
                var back = start - 1
                while back >= 0, isSpace(scalars[back].value) { back -= 1 }
                if back >= 0, isPercentSign(scalars[back].value) {
                    isPercent = true
                    begin = back
                }
            }
            var text = ""
            for scalar in scalars[begin..<end] { text.unicodeScalars.append(scalar) }
            tokens.append(NumberToken(
                value: value(digits: digits, groupStarts: groupStarts, separators: separators), isPercent: isPercent,
                scalarOffset: begin, scalarLength: end - begin, text: text))
            index = end
        }
        return tokens
    }

    /// Which separator is the decimal one, per the rules above, and the normalised value of the
    /// number whose digit groups start at `groupStarts` in `digits`.
    static func value(digits: [UInt8], groupStarts: [Int], separators: [UInt32]) -> String {
        func groupLength(_ group: Int) -> Int {
            (group + 1 < groupStarts.count ? groupStarts[group + 1] : digits.count) - groupStarts[group]
        }
        var decimalIndex: Int?
        if let index = separators.lastIndex(where: isDecimalOnly) {
            decimalIndex = index
        } else {
            let hasDot = separators.contains(0x2E)
            let hasComma = separators.contains(0x2C)
            if hasDot && hasComma {
                decimalIndex = separators.lastIndex(where: isAmbiguous)
            } else if hasDot || hasComma {
                let kind: UInt32 = hasDot ? 0x2E : 0x2C
                if separators.count(where: { $0 == kind }) == 1, let index = separators.firstIndex(of: kind), groupLength(index + 1) != 3 {
                    decimalIndex = index
                }
            }
        }
        let fractionStart = decimalIndex.map { groupStarts[$0 + 1] } ?? digits.count
        var integer = digits[..<fractionStart].drop { $0 == 0 }.map { $0 + 0x30 }
        if integer.isEmpty { integer = [0x30] }
        var fraction = digits[fractionStart...].map { $0 + 0x30 }
        while fraction.last == 0x30 { fraction.removeLast() }
        if !fraction.isEmpty { integer += [UInt8(ascii: ".")] + fraction }
        return String(decoding: integer, as: UTF8.self)
    }
}
