import Diagnostics
import Model

/// Finds translations whose numbers and percentages differ from their source's.
///
/// Numbers are compared by value as a multiset, across digit systems and local spacing: `50 %`
/// (with a space, a no-break space or a narrow no-break space), `٥٠٪` and `%50` all equal the
/// source's `50%`, and `1.000` or `1 000` equal `1,000` (see `NumberScanner` for the rules). A
/// number written as a word in the translation ("half") is reported: the offer Apple applies
/// does not change with the language, so its numbers should not either.
struct NumberMismatch: LintRule {
    static let info = RuleInfo(
        code: "TXT012", name: "number-mismatch", severity: .error,
        summary: "A translation's numbers or percentages differ from its source's.",
        rationale: "A retention message's numbers are promises (50% off, 3 months free). A translation that says 40% or drops the number misstates the offer in that language, which no reviewer who does not read it will notice.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ExampleFiles.german([:])),
            .invalid("header: Stay with Premium", extraFiles: ExampleFiles.german([
                "body": "Behalten Sie Ihr Jahresabo und sparen Sie ⟦40 %⟧ bei der nächsten Verlängerung.",
            ])),
        ],
        mayBeLowered: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.fieldTexts where !item.isSource {
            // A source's numbers are found once, with its FieldText, not again in every locale.
            var unmatchedSource: [NumberToken]
            if let source = item.source {
                unmatchedSource = source.numbers
            } else if let source = context.sourceText(of: item) {
                unmatchedSource = NumberScanner.numbers(in: source.value)
            } else {
                continue
            }
            var extra: [NumberToken] = []
            for token in item.numbers {
                if let index = unmatchedSource.firstIndex(where: { $0.value == token.value && $0.isPercent == token.isPercent }) {
                    unmatchedSource.remove(at: index)
                } else {
                    extra.append(token)
                }
            }
            for token in extra {
                let location = context.location(of: item.text, atScalarOffset: token.scalarOffset, length: token.scalarLength)
                if !unmatchedSource.isEmpty {
                    let expected = unmatchedSource.removeFirst()
                    diagnostics.append(diagnose(
                        "\(item.displayName) has \(token.displayValue) ('\(token.text)') where the source has \(expected.displayValue)",
                        at: location, fixIts: [FixIt("write \(expected.displayValue) as the source does")], subject: item.subject))
                } else {
                    diagnostics.append(diagnose(
                        "\(item.displayName) has \(token.displayValue) ('\(token.text)'), which the source does not have",
                        at: location, fixIts: [FixIt("remove the number, or ask for it to be added to the source")], subject: item.subject))
                }
            }
            for missing in unmatchedSource {
                diagnostics.append(diagnose(
                    "\(item.displayName) lacks the source's \(missing.displayValue)", at: item.text.valueSpan,
                    fixIts: [FixIt("keep \(missing.displayValue) in the translation")], subject: item.subject))
            }
        }
        return diagnostics
    }
}
