import Diagnostics

/// Finds U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR and U+0085 NEXT LINE.
struct LineSeparator: LintRule {
    static let info = RuleInfo(
        code: "TXT004", name: "line-separator", severity: .error,
        summary: "Text contains a line or paragraph separator (U+2028, U+2029) or NEL (U+0085).",
        rationale: "These are line breaks that many renderers ignore or draw as a box, and they break JSON read as JavaScript. Every field Apple shows is a single line.",
        examples: [
            .valid("body: Keep reading without limits."),
            .invalid("body: \"Keep reading.⟦\\u2028⟧Without limits.\""),
        ],
        mayBeLowered: true)

    static func isFlagged(_ scalar: Unicode.Scalar) -> Bool { scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0x85 }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.textsWithNotableScalars {
            for (offset, scalar) in item.scalars(where: Self.isFlagged) {
                diagnostics.append(diagnose(
                    "\(item.displayName) contains \(UnicodeName.describe(scalar)), a line break Apple's single-line fields do not show",
                    at: context.location(of: item.text, atScalarOffset: offset),
                    fixIts: [FixIt("replace it with a space")], subject: item.subject))
            }
        }
        return diagnostics
    }
}
