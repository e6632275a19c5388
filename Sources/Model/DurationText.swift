/// A duration as every option of msgc and its realtime server takes it (`--max-wait`,
/// `--shutdown-delay`, `--window`, `--keep`): whole numbers with units `d`, `h`, `m`, `s`, each
/// at most once and largest first (`90s`, `10m`, `1h30m`, `7d`, `1d12h`); and, for an option
/// that has always taken one, a number of seconds (`45`, `2.5`). Each option gives its own
/// range, and every refusal is worded the same way (`read(_:option:in:bareNumber:)`).
///
/// A number without a unit is refused where the option does not take seconds: `--keep 3650`
/// would otherwise keep data an hour, not ten years, and `--window 48` cannot mean 48 seconds.
public enum DurationText {
    /// What a number without a unit means to an option.
    public enum BareNumber: Sendable {
        /// Seconds, possibly with a fraction (`--max-wait 45`, `--shutdown-delay 2.5`).
        case seconds
        /// Not a duration: the option wants a unit.
        case refused
    }

    /// Why an option's text is not a duration it takes, in the one wording every option uses.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// The longest text read: far more than any duration needs, and no work on a huge argument.
    static let maxLength = 64

    private static let units: [(letter: Character, milliseconds: Int64)] = [
        ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]

    /// The duration in milliseconds, or a problem that names the option, the text, the range
    /// and how to write one: `--keep '90' is not a duration from 1h to 3650d: write whole
    /// numbers with d, h, m or s, largest first (90d, 7d, 1d12h)`.
    public static func read(_ text: String, option: String, in range: ClosedRange<Int64>, bareNumber: BareNumber) throws(Problem) -> Int64 {
        if let milliseconds = milliseconds(text, in: range, bareNumber: bareNumber) { return milliseconds }
        let examples = ["90d", "7d", "1d12h", "48h", "1h30m", "10m", "90s", "15s"].filter {
            milliseconds($0, in: range, bareNumber: .refused) != nil
        }.prefix(3)
        let exampleText = examples.isEmpty ? "" : " (\(examples.joined(separator: ", ")))"
        let seconds = bareNumber == .seconds ? ", or a number of seconds" : ""
        let shown = text.count > maxLength ? String(text.prefix(maxLength)) + "…" : text
        throw Problem(
            description: "\(option) '\(shown)' is not a duration from \(Self.text(milliseconds: range.lowerBound)) to "
                + "\(Self.text(milliseconds: range.upperBound)): write whole numbers with d, h, m or s, largest first\(exampleText)\(seconds)")
    }

    /// The duration in milliseconds, if `text` is one and lies in `range`; nil otherwise.
    public static func milliseconds(_ text: String, in range: ClosedRange<Int64>, bareNumber: BareNumber) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= maxLength, let total = parse(Array(text.utf8), bareNumber: bareNumber),
            range.contains(total)
        else { return nil }
        return total
    }

    /// `1d12h`, `10m`, `0s`: a number of milliseconds in the units `read` takes, largest first
    /// (whole seconds; a remainder below a second is left out), as messages show a range.
    public static func text(milliseconds: Int64) -> String {
        var rest = max(milliseconds, 0)
        var text = ""
        for unit in units where rest >= unit.milliseconds {
            text += "\(rest / unit.milliseconds)\(unit.letter)"
            rest %= unit.milliseconds
        }
        return text.isEmpty ? "0s" : text
    }

    private static func parse(_ bytes: [UInt8], bareNumber: BareNumber) -> Int64? {
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if bytes.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }) {
            return bareNumber == .seconds ? seconds(bytes) : nil
        }
        var total: Int64 = 0
        var nextUnit = 0
        var digits: [UInt8] = []
        for byte in bytes {
            if isDigit(byte) {
                // 18 digits always fit in an Int64.
                guard digits.count < 18 else { return nil }
                digits.append(byte)
                continue
            }
            // A unit after its number, each unit once, largest first.
            guard !digits.isEmpty,
                let index = units[nextUnit...].firstIndex(where: { $0.letter.asciiValue == byte })
            else { return nil }
            let value = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            let (product, overflowed) = value.multipliedReportingOverflow(by: units[index].milliseconds)
            let (sum, overflowedSum) = total.addingReportingOverflow(product)
            guard !overflowed, !overflowedSum else { return nil }
            total = sum
            digits = []
            nextUnit = index + 1
        }
        return digits.isEmpty ? total : nil
    }

    /// `45` or `2.5`: whole seconds and up to three decimals (milliseconds); more decimals are
    /// refused rather than rounded away.
    private static func seconds(_ bytes: [UInt8]) -> Int64? {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count < 15, parts.count <= 2 else { return nil }
        var fraction = parts.count == 2 ? Array(parts[1]) : []
        guard parts.count == 1 || (!fraction.isEmpty && fraction.count <= 3) else { return nil }
        while fraction.count < 3 { fraction.append(UInt8(ascii: "0")) }
        return (whole + fraction).reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }
}
