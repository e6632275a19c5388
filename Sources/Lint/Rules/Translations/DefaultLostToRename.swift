import Diagnostics
import Model

/// Finds default messages that lost their translations to a rename: in some locales the
/// default has no unit of its own, while the locale's file holds units of the same product
/// under an old key with the same source text (`winback` renamed `come-back`). The build then
/// writes no default configuration for the product in those locales, which would otherwise
/// happen without a word; the warning names the product, the locales and why.
struct DefaultLostToRename: LintRule {
    static let info = RuleInfo(
        code: "TRN009", name: "default-lost-to-rename", severity: .warning,
        summary: "A default message has no translation in some locales because its key was renamed.",
        rationale: """
            A product's default configuration is written for each locale where its default message \
            is translated. When the message's key changes (`winback` to `come-back`) and its text \
            does not, the translations stay under the old key: every unit matches no field (TRN003 \
            says "renamed?"), and the build silently writes the product's default in fewer locales \
            than before. This warning names the product, the message and the locales that lose it. \
            Renaming the units to the new key (TRN003's fix) or re-running `msgc extract`, which \
            offers the old translations as candidates, brings the defaults back.
            """,
        examples: [
            .valid("default: true\nheader: Stay with Premium\nbody: Keep reading", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("key: ⟦come-back⟧", extraFiles: [
                "msgc.yaml": TranslationExamples.config + "rules:\n  orphan-translation-unit: off\n",
                "translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium"),
            ]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let defaults = context.catalog.messages.filter(\.isDefaultMessage)
        guard !defaults.isEmpty else { return [] }
        var renames: RenamedMessages?
        // The fields each default message lacks in each locale: a renamed unit must supply one.
        var lacking: [String: [String: Set<String>]] = [:]
        let defaultIDs = Set(defaults.map(\.id))
        for gap in context.localization.gaps {
            let id = "\(gap.subject.product)/\(gap.subject.key)"
            guard defaultIDs.contains(id), let locale = gap.subject.locale, gap.unit == nil else { continue }
            lacking[id, default: [:]][locale, default: []].insert("\(id)/\(gap.field)")
        }
        guard !lacking.isEmpty else { return [] }
        var diagnostics: [Diagnostic] = []
        for message in defaults {
            guard let byLocale = lacking[message.id] else { continue }
            var lost: [(locale: String, oldKey: String)] = []
            for (locale, fields) in byLocale {
                guard let path = context.localization.fileForLocale[locale],
                      let file = context.catalog.translationFiles.first(where: { $0.path == path }) else { continue }
                if renames == nil { renames = RenamedMessages(context.catalog) }
                let known = renames!
                let present = Set(file.units.map(\.id.value))
                for unit in file.units where !known.fieldIDs.contains(unit.id.value) {
                    guard let new = known.newID(of: unit, present: present), fields.contains(new.id),
                          let oldKey = unit.parsedID?.key else { continue }
                    lost.append((locale, oldKey))
                    break
                }
            }
            guard !lost.isEmpty else { continue }
            lost.sort { $0.locale.utf8.lexicographicallyPrecedes($1.locale.utf8) }
            let oldKeys = Array(Set(lost.map(\.oldKey))).sorted().map { "'\($0)'" }.joined(separator: ", ")
            let locales = lost.map(\.locale).joined(separator: ", ")
            diagnostics.append(diagnose(
                "default message '\(message.key.value)' of '\(message.product.value)' has no translation in \(lost.count) locale\(lost.count == 1 ? "" : "s") (\(locales)), whose files translate the same text under the old key \(oldKeys); the build writes no default configuration for the product there",
                at: message.key.valueSpan,
                fixIts: [FixIt("rename the units to key '\(message.key.value)' (`msgc lint translations/` offers each), or re-run `msgc extract` for those locales, which offers the old translations as candidates")],
                subject: message.subject))
        }
        return diagnostics
    }
}
