import Diagnostics
import Model

/// Finds XLIFF units that belong to no message field of the project.
///
/// Usually the message was removed or renamed, or a bullet was dropped. The unit is ignored;
/// the warning keeps translators from spending time on it. A unit whose message is in a
/// source with errors (a misspelt `type`, broken YAML) is no orphan: it waits for the
/// writer's fix (`WaitingUnits`), and `msgc lint` on the translation file says so (TRN007).
struct OrphanTranslationUnit: LintRule {
    static let info = RuleInfo(
        code: "TRN003", name: "orphan-translation-unit", severity: .warning,
        summary: "An XLIFF unit matches no message field.",
        rationale: "A unit whose id names no current message field (the message was removed, renamed or lost a bullet) is never used. Reporting it keeps stale work out of translators' files; re-running `msgc extract` drops it. A unit of a message that exists but could not be read (its source has an error, such as `type: txt` or broken YAML) is not reported: it waits for the writer's fix, and deleting it would lose good work.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium", unitKey: "retired", mark: .unitID)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        // The units the localizer found for a field are no orphans; only the others are
        // looked up among every field's id, made once and only if there is such a unit.
        // A file that cannot be used at all says so once (XLF011, TRN005), whatever its units.
        let unusable = Set(context.catalog.unusableTranslationFiles.map(\.path))
        let waiting = WaitingUnits(context.catalog)
        var fields: Set<String>?
        var diagnostics: [Diagnostic] = []
        for file in context.catalog.translationFiles where file.isReadable && !unusable.contains(file.path) {
            let bound = context.localization.boundUnits[file.path]
            for index in file.units.indices where bound?[index] != true {
                let unit = file.units[index]
                if fields == nil { fields = Self.fieldIDs(context.catalog) }
                guard !fields!.contains(unit.id.value), waiting.sources(for: unit).isEmpty else { continue }
                diagnostics.append(diagnose(
                    "unit '\(unit.id.value)' matches no message field of the project", at: unit.id.valueSpan,
                    fixIts: [FixIt("re-run `msgc extract` for this locale; the unit can be deleted")]))
            }
        }
        return diagnostics
    }

    /// The unit id of every field of every message.
    private static func fieldIDs(_ catalog: Catalog) -> Set<String> {
        var fields = Set<String>()
        for message in catalog.messages {
            for (field, _) in message.fields { fields.insert(message.unitID(of: field)) }
        }
        return fields
    }
}
