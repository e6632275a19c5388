import Diagnostics
import Model

/// Finds control characters in displayed text: C0 controls (tab, line feed and carriage return
/// included), DEL and C1 controls other than NEL (which `line-separator` reports).
///
/// Every field Apple shows is a single line of text, so a tab or a newline is a mistake
/// (often pasted from a document) whose rendering Apple does not define.
struct ControlCharacter: LintRule {
    static let info = RuleInfo(
        code: "TXT002", name: "control-character", severity: .error,
        summary: "Text contains a control character such as a tab, a newline or an escape.",
        rationale: "Headers, bodies, bullets and alt texts are single lines; Apple does not say how it shows a tab, a line break or any other control character, and some of them corrupt the text on the way.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: \"Stay with⟦\\t⟧Premium\""),
            .invalid("body: \"Keep reading.⟦\\n⟧Without limits.\""),
        ])

    static func isFlagged(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || ((0x80...0x9F).contains(scalar.value) && scalar.value != 0x85)
    }

    /// Whether `scalar` is the line break a YAML block scalar written `|` or `>` keeps at its end.
    static func isBlockScalarEnd(_ text: Located<String>, scalar: Unicode.Scalar, offset: Int) -> Bool {
        guard scalar == "\n", text.style == .opaque, text.value.hasSuffix("\n"),
              text.location.path.hasSuffix(".yaml") || text.location.path.hasSuffix(".yml") else { return false }
        return offset == text.value.unicodeScalars.count - 1
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.textsWithNotableScalars {
            for (offset, scalar) in item.scalars(where: Self.isFlagged) {
                let fix: FixIt
                if scalar == "\t" {
                    fix = FixIt("replace it with a space", edits: context.edit(replacing: item.text, atScalarOffset: offset, with: " ").map { [$0] } ?? [])
                } else if Self.isBlockScalarEnd(item.text, scalar: scalar, offset: offset) {
                    fix = FixIt("write the block as `|-` or `>-`: `|` and `>` keep the final line break")
                } else {
                    fix = FixIt("remove it; Apple shows every field as one line", edits: context.edit(replacing: item.text, atScalarOffset: offset).map { [$0] } ?? [])
                }
                diagnostics.append(diagnose(
                    "\(item.displayName) contains the control character \(UnicodeName.describe(scalar))",
                    at: context.location(of: item.text, atScalarOffset: offset), fixIts: [fix], subject: item.subject))
            }
        }
        return diagnostics
    }
}
