import Diagnostics
import Model

/// Finds XLIFF units that belong to no message field of the project.
///
/// Usually the message was removed or renamed, or a bullet was dropped. The unit is ignored;
/// the warning keeps translators from spending time on it. A unit whose message is in a
/// source with errors (a misspelt `type`, broken YAML, a product msgc.yaml does not list) is
/// no orphan: it waits for the writer's fix (`WaitingUnits`), and `msgc lint` on the
/// translation file says so (TRN007). A unit whose message was renamed (a message of the same
/// product has a field with the same source text, and no unit of its own) is named as such,
/// with the new id as its fix, never as one to delete. A file none of whose units belongs to
/// the project is one error (TRN008), not a warning per unit.
struct OrphanTranslationUnit: LintRule {
    static let info = RuleInfo(
        code: "TRN003", name: "orphan-translation-unit", severity: .warning,
        summary: "An XLIFF unit matches no message field.",
        rationale: "A unit whose id names no current message field (the message was removed, renamed or lost a bullet) is never used. Reporting it keeps stale work out of translators' files; re-running `msgc extract` drops it. When a message of the same product has a field with the unit's source text and no unit of its own, the message was probably renamed: the finding says so and offers the new id, which keeps the translation. A unit of a message that exists but could not be read (its source has an error, such as `type: txt`, broken YAML or a product msgc.yaml does not list) is not reported: it waits for the writer's fix, and deleting it would lose good work.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Before you go", target: "Bevor Sie gehen", unitKey: "retired", mark: .unitID)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        // The units the localizer found for a field are no orphans; only the others are
        // looked up among every field's id, made once and only if there is such a unit.
        // A file that cannot be used at all says so once (XLF011, TRN005, TRN008), whatever its units.
        var skipped = Set(context.catalog.unusableTranslationFiles.map(\.path))
        skipped.formUnion(ForeignTranslationFiles.paths(in: context.catalog, localization: context.localization))
        let waiting = WaitingUnits(context.catalog)
        var renames: RenamedMessages?
        var diagnostics: [Diagnostic] = []
        for file in context.catalog.translationFiles where file.isReadable && !skipped.contains(file.path) {
            let bound = context.localization.boundUnits[file.path]
            var present: Set<String>?
            for index in file.units.indices where bound?[index] != true {
                let unit = file.units[index]
                if renames == nil { renames = RenamedMessages(context.catalog) }
                guard !renames!.fieldIDs.contains(unit.id.value), waiting.sources(for: unit).isEmpty else { continue }
                if present == nil { present = Set(file.units.map(\.id.value)) }
                if let renamed = renames!.newID(of: unit, present: present!) {
                    // Only a 1.2 id is the written PRODUCT/KEY/FIELD; a 2.0 unit's name is.
                    let edits: [FixIt.Edit] = file.version == .v1_2 ? [.init(location: unit.id.valueSpan, replacement: renamed.id)] : []
                    diagnostics.append(diagnose(
                        "unit '\(unit.id.value)' matches no message field of the project; renamed? message '\(renamed.key)' of the same product has the same source text and no unit in this file",
                        at: unit.id.valueSpan,
                        fixIts: [FixIt("rename the unit to '\(renamed.id)' to keep the translation, or re-run `msgc extract` for this locale, which offers it as a candidate", edits: edits)]))
                    continue
                }
                diagnostics.append(diagnose(
                    "unit '\(unit.id.value)' matches no message field of the project", at: unit.id.valueSpan,
                    fixIts: [FixIt("re-run `msgc extract` for this locale; the unit can be deleted")]))
            }
        }
        return diagnostics
    }
}

/// Units whose message was renamed: the unit's id names no message, but a message of the same
/// product has a field of the same kind with the same source text, and no unit of that id in
/// the file. `msgc extract` offers such a unit's target as a candidate for the new message;
/// the rules name the rename (TRN003) and the default messages it costs (TRN009).
struct RenamedMessages {
    /// The unit id of every field of every message.
    let fieldIDs: Set<String>
    /// Messages by product, field and source text: the new ids a renamed unit may have.
    private let fieldsBySource: [String: [(key: String, id: String)]]

    init(_ catalog: Catalog) {
        var fieldIDs = Set<String>()
        var fieldsBySource: [String: [(key: String, id: String)]] = [:]
        for message in catalog.messages {
            for (field, text) in message.fields {
                let id = message.unitID(of: field)
                fieldIDs.insert(id)
                fieldsBySource[Self.lookup(message.product.value, field, text.value), default: []].append((message.key.value, id))
            }
        }
        self.fieldIDs = fieldIDs
        self.fieldsBySource = fieldsBySource
    }

    private static func lookup(_ product: String, _ field: MessageField, _ source: String) -> String {
        "\(product)\u{0}\(field.description)\u{0}\(source)"
    }

    /// The message `unit` (which matches no field) was probably renamed to: one whose field has
    /// the unit's source text and no unit among the file's unit ids, `present`.
    func newID(of unit: TranslationUnit, present: Set<String>) -> (key: String, id: String)? {
        guard let parsed = unit.parsedID, !unit.source.value.isEmpty else { return nil }
        let candidates = fieldsBySource[Self.lookup(parsed.product, parsed.field, unit.source.value)] ?? []
        return candidates.first { !present.contains($0.id) && $0.key != parsed.key }
    }
}
