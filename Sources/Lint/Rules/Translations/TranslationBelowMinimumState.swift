import Diagnostics
import Model

/// Finds translations whose XLIFF state has not reached the project's `minimumState`.
struct TranslationBelowMinimumState: LintRule {
    static let info = RuleInfo(
        code: "TRN002", name: "translation-below-minimum-state", severity: .warning,
        summary: "A translation's state is below the project's minimumState.",
        rationale: "msgc.yaml's `minimumState` (translated, reviewed or final) says how far through the translation workflow a text must be before it ships. A unit still marked for review is left out in its locale until it gets there.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("header: Stay with Premium", extraFiles: [
                "msgc.yaml": TranslationExamples.reviewedConfig,
                "translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium", mark: .targetText),
            ]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let gaps = context.localization.gaps
        // Each gap's kind is looked at in place: most are of another kind, and a copy of a gap
        // takes a reference to each of its strings and arrays (its unit's among them).
        return gaps.indices.compactMap { index in
            guard case .belowMinimumState(let state, let raw) = gaps[index].reason else { return nil }
            let gap = gaps[index]
            guard let unit = gap.unit else { return nil }
            let written = raw.map { "'\($0)'" } ?? "no state"
            return diagnose(
                "\(gap.field.displayName) translation in \(gap.subject.locale ?? "") is \(state.rawValue) (\(written)); the project ships \(context.config.minimumState.rawValue) or better",
                at: unit.target?.valueSpan ?? unit.location,
                fixIts: [FixIt("finish the translation's review, or lower `minimumState` in msgc.yaml")], subject: gap.subject)
        }
    }
}
