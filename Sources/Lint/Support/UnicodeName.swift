/// Names characters the way the Unicode Standard does, for diagnostics: `U+202E RIGHT-TO-LEFT OVERRIDE`.
enum UnicodeName {
    /// `U+` and at least four hex digits, then the character's name or, for a character without
    /// one (controls, private use, noncharacters), its alias or kind.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        "\(codePoint(scalar)) \(name(of: scalar))"
    }

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func name(of scalar: Unicode.Scalar) -> String {
        if let name = scalar.properties.name { return name }
        if scalar.value < 0x20 { return c0Names[Int(scalar.value)] }
        if scalar.value == 0x7F { return "DELETE" }
        if (0x80...0x9F).contains(scalar.value) { return c1Names[Int(scalar.value - 0x80)] }
        if isNoncharacter(scalar) { return "<noncharacter>" }
        if scalar.properties.generalCategory == .privateUse { return "<private use>" }
        return "<unassigned>"
    }

    /// U+FDD0–U+FDEF and the last two code points of every plane.
    static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }

    /// The control aliases of Unicode's NameAliases.txt.
    private static let c0Names = [
        "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE",
        "ALERT", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION", "FORM FEED", "CARRIAGE RETURN",
        "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
        "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK", "CANCEL",
        "END OF MEDIUM", "SUBSTITUTE", "ESCAPE", "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE",
        "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
    ]

    private static let c1Names = [
        "PADDING CHARACTER", "HIGH OCTET PRESET", "BREAK PERMITTED HERE", "NO BREAK HERE", "INDEX", "NEXT LINE",
        "START OF SELECTED AREA", "END OF SELECTED AREA", "CHARACTER TABULATION SET",
        "CHARACTER TABULATION WITH JUSTIFICATION", "LINE TABULATION SET", "PARTIAL LINE FORWARD", "PARTIAL LINE BACKWARD",
        "REVERSE LINE FEED", "SINGLE SHIFT TWO", "SINGLE SHIFT THREE", "DEVICE CONTROL STRING", "PRIVATE USE ONE",
        "PRIVATE USE TWO", "SET TRANSMIT STATE", "CANCEL CHARACTER", "MESSAGE WAITING", "START OF GUARDED AREA",
        "END OF GUARDED AREA", "START OF STRING", "SINGLE GRAPHIC CHARACTER INTRODUCER", "SINGLE CHARACTER INTRODUCER",
        "CONTROL SEQUENCE INTRODUCER", "STRING TERMINATOR", "OPERATING SYSTEM COMMAND", "PRIVACY MESSAGE",
        "APPLICATION PROGRAM COMMAND",
    ]
}
