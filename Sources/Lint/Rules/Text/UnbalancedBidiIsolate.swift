import Diagnostics

/// Finds bidirectional isolates (U+2066 LRI, U+2067 RLI, U+2068 FSI, U+2069 PDI) that do not pair up.
///
/// An isolate opened and closed inside one text is the right tool for a run in another
/// direction (a Latin brand name in Arabic text); an open one without its PDI, or a PDI
/// without an opener, changes the direction of the text that follows on the sheet.
struct UnbalancedBidiIsolate: LintRule {
    static let info = RuleInfo(
        code: "TXT005", name: "unbalanced-bidi-isolate", severity: .warning,
        summary: "A bidirectional isolate (U+2066–U+2068) is not closed by U+2069, or U+2069 closes nothing.",
        rationale: "An unclosed isolate makes the text after it, inside the same paragraph, take the isolate's direction; a stray closer is a sign of text cut in the wrong place.",
        examples: [
            .valid("header: \"Stay with \\u2068Premium\\u2069\""),
            .invalid("header: \"Stay with ⟦\\u2068⟧Premium\""),
        ])

    static let openers: Set<UInt32> = [0x2066, 0x2067, 0x2068]
    static let closer: UInt32 = 0x2069

    /// An opener or the closer.
    static func isIsolate(_ scalar: Unicode.Scalar) -> Bool { (0x2066...0x2069).contains(scalar.value) }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.textsWithNotableScalars {
            var open: [(offset: Int, scalar: Unicode.Scalar)] = []
            for (offset, scalar) in item.scalars(where: Self.isIsolate) {
                if Self.openers.contains(scalar.value) {
                    open.append((offset, scalar))
                } else if scalar.value == Self.closer {
                    if open.popLast() == nil {
                        diagnostics.append(diagnose(
                            "\(item.displayName) has \(UnicodeName.describe(scalar)) with no isolate to close",
                            at: context.location(of: item.text, atScalarOffset: offset),
                            fixIts: [FixIt("remove it, or add the opening isolate before the run")], subject: item.subject))
                    }
                }
            }
            for (offset, scalar) in open {
                diagnostics.append(diagnose(
                    "\(item.displayName) opens \(UnicodeName.describe(scalar)) but never closes it with U+2069 POP DIRECTIONAL ISOLATE",
                    at: context.location(of: item.text, atScalarOffset: offset),
                    fixIts: [FixIt("add U+2069 where the isolated run ends")], subject: item.subject))
            }
        }
        return diagnostics
    }
}
