import Diagnostics
import Model

/// Finds translations of a source text that has changed since the translator saw it.
///
/// The unit's recorded `<source>` no longer equals the message's current text, so the
/// translation may say something the source no longer says. It is not shipped in that
/// locale until the translator updates it; re-running `msgc extract` gives them the new source
/// with their old translation to start from.
struct StaleTranslation: LintRule {
    static let info = RuleInfo(
        code: "TRN001", name: "stale-translation", severity: .warning,
        summary: "A translation was made for a source text that has since changed.",
        rationale: "When the source changes, a translation of the old text may no longer say the same thing. msgc ships only translations whose recorded source equals the current source; the stale one is left out in its locale until the translator updates it.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Plus", target: "Bleiben Sie bei Plus", mark: .sourceText)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        // The gap holds the source it was judged against: the text of the message that was
        // bound, which is not always the first with its product and key (PRJ001).
        let gaps = context.localization.gaps
        // Each gap's kind is looked at in place: most are of another kind, and a copy of a gap
        // takes a reference to each of its strings and arrays (its unit's among them).
        return gaps.indices.compactMap { index in
            guard case .stale(let recorded, let current) = gaps[index].reason else { return nil }
            let gap = gaps[index]
            guard let unit = gap.unit else { return nil }
            return diagnose(
                "\(gap.field.displayName) translation in \(gap.subject.locale ?? "") is stale: it translates '\(recorded)', but the source is now '\(current)'",
                at: unit.source.valueSpan, notes: unit.target.map { [Note("the translation: '\($0.value)'", at: $0.location)] } ?? [],
                fixIts: [FixIt("run `msgc extract --locale \(gap.subject.locale ?? "")` and have the translation updated")],
                subject: gap.subject)
        }
    }
}
