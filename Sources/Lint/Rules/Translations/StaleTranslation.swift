import Diagnostics
import Model

/// Finds translations of a source text that has changed since the translator saw it.
///
/// The unit's recorded `<source>` no longer equals the message's current text, so the
/// translation may say something the source no longer says. By default the locale keeps
/// shipping that previous translation (the same text, so the same upload) until the translator
/// updates it; with `staleTranslations: withhold` (msgc.yaml or the message) it does not ship
/// the message at all until then. Re-running `msgc extract` gives the translator the new source
/// with their old translation to start from.
struct StaleTranslation: LintRule {
    static let info = RuleInfo(
        code: "TRN001", name: "stale-translation", severity: .warning,
        summary: "A translation was made for a source text that has since changed.",
        rationale: "When the source changes, a translation of the old text may no longer say the same thing. Until the translator updates it, the locale keeps shipping its previous translation (the same text, so the same upload and nothing new for Apple to review): a source edit never takes a message away from translated locales. Where the old wording must not be shown any more (a price, a legal text), `staleTranslations: withhold` in msgc.yaml or on the message leaves the message out in that locale instead: Apple keeps showing its current default there, and realtime answers omit it.",
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
        let withheld = gaps.indices.filter {
            guard case .stale = gaps[$0].reason else { return false }
            return gaps[$0].unit != nil
        }
        let shipping = context.localization.previousTranslations
        guard !withheld.isEmpty || !shipping.isEmpty else { return [] }
        var result: [Diagnostic] = []
        for gap in shipping {
            guard let unit = gap.unit, case .stale(let recorded, let current) = gap.reason else { continue }
            let locale = gap.subject.locale ?? ""
            result.append(diagnose(
                "\(gap.field.displayName) translation in \(locale) is stale: it translates '\(recorded)', but the source is now '\(current)'; "
                    + "\(locale) keeps showing its previous translation of '\(gap.subject.key)' until the translation is updated",
                at: unit.source.valueSpan, notes: unit.target.map { [Note("the translation still shipped: '\($0.value)'", at: $0.location)] } ?? [],
                fixIts: [FixIt("run `msgc extract --locale \(locale)` and have the translation updated; if the old wording must not be shown any more, set `staleTranslations: withhold` on the message")],
                subject: gap.subject))
        }
        let policies = Self.policies(context)
        for index in withheld {
            let gap = gaps[index]
            guard let unit = gap.unit, case .stale(let recorded, let current) = gap.reason else { continue }
            let locale = gap.subject.locale ?? ""
            let isWithheld = unit.state >= context.config.minimumState
                && (policies[Subject(product: gap.subject.product, key: gap.subject.key)] ?? context.config.staleTranslations) == .withhold
            let waits = isWithheld
                ? "staleTranslations: withhold, so \(locale) does not ship '\(gap.subject.key)' until the translation is updated"
                    + " (Apple keeps its current default there; realtime answers omit it)"
                : "\(locale) does not ship '\(gap.subject.key)' until the translation is updated"
            result.append(diagnose(
                "\(gap.field.displayName) translation in \(locale) is stale: it translates '\(recorded)', but the source is now '\(current)'; \(waits)",
                at: unit.source.valueSpan, notes: unit.target.map { [Note("the translation: '\($0.value)'", at: $0.location)] } ?? [],
                fixIts: [FixIt("run `msgc extract --locale \(locale)` and have the translation updated")],
                subject: gap.subject))
        }
        return result
    }

    /// Each message's own `staleTranslations`, by product and key (the first message with them).
    private static func policies(_ context: LintContext) -> [Subject: StaleTranslationPolicy] {
        var result: [Subject: StaleTranslationPolicy] = [:]
        for message in context.catalog.messages {
            guard let policy = message.staleTranslations?.value else { continue }
            let subject = Subject(product: message.product.value, key: message.key.value)
            if result[subject] == nil { result[subject] = policy }
        }
        return result
    }
}
