import Model

/// Finds XLIFF units that belong to no message field of the project.
///
/// Usually the message was removed or renamed, or a bullet was dropped. The unit is ignored;
/// the warning keeps translators from spending time on it.
struct OrphanTranslationUnit: LintRule {
    static let info = RuleInfo(
        code: "TRN003", name: "orphan-translation-unit", severity: .warning,
        summary: "An XLIFF unit matches no message field.",
        rationale: "A unit whose id names no current message field (the message was removed, renamed or lost a bullet) is never used. Reporting it keeps stale work out of translators' files; re-running `msgc extract` drops it.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium", unitKey: "retired", mark: .unitID)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var fields = Set<String>()
        for message in context.catalog.messages {
            for (field, _) in message.fields { fields.insert("\(message.id)/\(field)") }
        }
        var diagnostics: [Diagnostic] = []
        for file in context.catalog.translationFiles where file.isReadable {
            for unit in file.units where !fields.contains(unit.id.value) {
                diagnostics.append(diagnose(
                    "unit '\(unit.id.value)' matches no message field of the project", at: unit.id.valueSpan,
                    fixIts: [FixIt("re-run `msgc extract` for this locale; the unit can be deleted")]))
            }
        }
        return diagnostics
    }
}
