import Foundation

/// The report's numbers as text, one way everywhere (verdicts and every renderer): fixed
/// decimals from `String(format:)`, which rounds the same on every machine.
enum ReportText {
    /// A fraction as a percentage with one decimal: `81.2 %`.
    static func percent(_ fraction: Double) -> String { String(format: "%.1f %%", fraction * 100) }

    /// A difference of fractions in percentage points, signed: `-4.8 pts`, `+0.0 pts`.
    static func signedPoints(_ fraction: Double) -> String { String(format: "%+.1f pts", fraction * 100) }

    /// A difference of fractions in percentage points: `5 points`, `2.5 points`.
    static func points(_ fraction: Double) -> String {
        let value = fraction * 100
        return value == value.rounded() ? "\(Int(value)) points" : String(format: "%.1f points", value)
    }

    /// A p-value: `= 0.0312`, or `< 0.0001` below that.
    static func pValue(_ value: Double) -> String {
        value < 0.0001 ? "< 0.0001" : "= " + String(format: "%.4f", value)
    }

    /// A p-value without its relation: `0.0312`, `<0.0001`.
    static func pValueCell(_ value: Double) -> String {
        value < 0.0001 ? "<0.0001" : String(format: "%.4f", value)
    }

    static func decimal(_ value: Double, digits: Int) -> String { String(format: "%.\(digits)f", value) }

    /// A count with thousands separated by commas: `12,345`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// A window in the `--window` units that fit it: `48h`, `7d`, `90m`, `1500ms`.
    static func duration(_ milliseconds: Int64) -> String {
        // Hours up to 48 (`48h`, as the flag's default reads), days beyond when they fit.
        if milliseconds > 48 * 3_600_000, milliseconds % 86_400_000 == 0 { return "\(milliseconds / 86_400_000)d" }
        if milliseconds > 0, milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds > 0, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds > 0, milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    }

    /// Milliseconds since 1970 as an ISO 8601 UTC time: `2025-06-01T12:00:00Z` (seconds; the
    /// milliseconds are dropped when zero).
    static func timestamp(_ milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let remainder = milliseconds - seconds * 1000
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970 (Howard Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text = String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld", year, month, day,
                          secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
        if remainder != 0 { text += String(format: ".%03lld", remainder) }
        return text + "Z"
    }
}
