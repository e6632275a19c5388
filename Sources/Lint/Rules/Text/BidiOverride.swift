import Diagnostics

/// Finds the bidirectional embedding and override controls U+202A–U+202E (LRE, RLE, PDF, LRO,
/// RLO).
///
/// They reorder the text around them for display (the "Trojan Source" trick), and an
/// unterminated one leaks into whatever the system draws next. Use the marks U+200E/U+200F or
/// the isolates U+2066–U+2069 where direction really needs help.
struct BidiOverride: LintRule {
    static let info = RuleInfo(
        code: "TXT003", name: "bidi-override", severity: .error,
        summary: "Text contains a bidirectional embedding or override control (U+202A–U+202E).",
        rationale: "Embeddings and overrides change the order in which characters are shown, so the text users see differs from the text reviewed, and an unclosed one disturbs the rest of the sheet. Apple's review cannot be expected to catch an invisible character.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: Stay with ⟦\u{202E}⟧Premium"),
        ],
        mayBeLowered: true)

    /// U+202A–U+202E: LRE, RLE, PDF, LRO and RLO.
    static func isFlagged(_ scalar: Unicode.Scalar) -> Bool { (0x202A...0x202E).contains(scalar.value) }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.textsWithNotableScalars {
            for (offset, scalar) in item.scalars(where: Self.isFlagged) {
                diagnostics.append(diagnose(
                    "\(item.displayName) contains \(UnicodeName.describe(scalar)), which reorders the text around it",
                    at: context.location(of: item.text, atScalarOffset: offset),
                    fixIts: [FixIt(
                        "remove it; if the direction of a run needs help, use an isolate (U+2066–U+2069) or a mark (U+200E, U+200F)",
                        edits: context.edit(replacing: item.text, atScalarOffset: offset).map { [$0] } ?? [])],
                    subject: item.subject))
            }
        }
        return diagnostics
    }
}
