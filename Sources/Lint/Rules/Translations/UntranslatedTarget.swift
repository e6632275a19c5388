import Diagnostics
import Model

/// Finds targets with text whose state says they are not translated yet.
///
/// XLIFF 1.2 `new`, `needs-translation`, `needs-adaptation`, `needs-l10n` and `x-…` states, and
/// XLIFF 2.0 `initial`, mark a target as work not done: a CAT tool may have filled it from
/// translation memory, machine translation or the source. msgc does not ship it, and says so,
/// so that a translator who forgot to confirm a segment learns why it is missing. A state the
/// file's XLIFF version does not define (`Translated`) is not reported here but by the reader
/// (XLF014), which names the state it is closest to.
struct UntranslatedTarget: LintRule {
    static let info = RuleInfo(
        code: "TRN004", name: "untranslated-target", severity: .warning,
        summary: "A target has text, but its state says it is not translated yet.",
        rationale: "A CAT tool fills targets from translation memory or machine translation and marks them `new` or `needs-translation` (XLIFF 1.2) or `initial` (2.0) until a translator confirms them. msgc never ships such a target; the warning says why its message is not ready in that locale. A target with no state counts as translated. A tool's own 1.2 state (`x-…`) is read as not translated too, since msgc cannot tell what it means; a value that is no state at all, such as `Translated`, is XLF014's.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(
                source: "Stay with Premium", target: "Bleiben Sie bei Premium", state: "needs-translation", mark: .targetText)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let gaps = context.localization.gaps
        var versions: [String: TranslationFile.Version]?
        // Each gap's kind is looked at in place: most are of another kind, and a copy of a gap
        // takes a reference to each of its strings and arrays (its unit's among them).
        return gaps.indices.compactMap { index in
            guard case .notTranslated(let raw) = gaps[index].reason else { return nil }
            let gap = gaps[index]
            guard let unit = gap.unit, let target = unit.target else { return nil }
            let explanation: String
            if let raw {
                if versions == nil {
                    versions = Dictionary(context.catalog.translationFiles.compactMap { file in file.version.map { (file.path, $0) } },
                                          uniquingKeysWith: { first, _ in first })
                }
                let version = gap.translationPath.flatMap { versions?[$0] }
                // A value the version does not define has its own finding (XLF014).
                if let version, !version.defines(state: raw) { return nil }
                explanation = raw.hasPrefix("x-")
                    ? "state '\(raw)' is a tool's own state, which msgc reads as not translated yet"
                    : "state '\(raw)' says it is not translated yet"
            } else {
                explanation = "its state says it is not translated yet"
            }
            return diagnose(
                "\(gap.field.displayName) target in \(gap.subject.locale ?? "") is not used: \(explanation)",
                at: target.valueSpan,
                fixIts: [FixIt("confirm the translation in your translation tool (state 'translated' or later), or empty the target")],
                subject: gap.subject)
        }
    }
}
