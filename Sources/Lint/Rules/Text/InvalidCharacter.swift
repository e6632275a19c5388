import Diagnostics

/// Finds characters that cannot be shown reliably: private-use characters, U+FFFD REPLACEMENT
/// CHARACTER and noncharacters (U+FDD0–U+FDEF and the last two code points of every plane).
///
/// Unassigned code points are not reported: Swift's Unicode tables lag behind new emoji, and
/// a false error on a new emoji would be worse than the rare unassigned character it catches.
struct InvalidCharacter: LintRule {
    static let info = RuleInfo(
        code: "TXT008", name: "invalid-character", severity: .error,
        summary: "Text contains a private-use character, U+FFFD or a noncharacter.",
        rationale: "U+FFFD marks text damaged by a wrong encoding somewhere upstream. Private-use characters (such as Apple's logo U+F8FF) show as boxes or as something else on other systems, and noncharacters are never meant to be shown.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: Stay with Premium ⟦\u{F8FF}⟧"),
            .invalid("body: Keep reading without limits⟦\u{FFFD}⟧"),
        ])

    static func problem(with scalar: Unicode.Scalar) -> String? {
        // Private use starts at U+E000, the noncharacters at U+FDD0: nothing below can be flagged.
        if scalar.value < 0xE000 { return nil }
        if scalar.value == 0xFFFD { return "the replacement character for undecodable text" }
        if UnicodeName.isNoncharacter(scalar) { return "a noncharacter, never meant to be shown" }
        if scalar.properties.generalCategory == .privateUse { return "a private-use character that other systems show differently or not at all" }
        return nil
    }

    static func isFlagged(_ scalar: Unicode.Scalar) -> Bool { problem(with: scalar) != nil }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.textsWithNotableScalars {
            for (offset, scalar) in item.scalars(where: Self.isFlagged) {
                guard let problem = Self.problem(with: scalar) else { continue }
                diagnostics.append(diagnose(
                    "\(item.displayName) contains \(UnicodeName.describe(scalar)), \(problem)",
                    at: context.location(of: item.text, atScalarOffset: offset),
                    fixIts: [FixIt(scalar.value == 0xFFFD ? "restore the original character from the source document" : "remove it, or replace it with a standard character")],
                    subject: item.subject))
            }
        }
        return diagnostics
    }
}
