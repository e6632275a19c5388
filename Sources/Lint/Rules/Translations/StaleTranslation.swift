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
        // The first message of each product and key, made once: a source rewrite can leave
        // thousands of stale translations, each asking for its message.
        var messages: [Subject: Message]?
        return context.localization.gaps.compactMap { gap in
            guard case .stale(let recorded) = gap.reason, let unit = gap.unit else { return nil }
            if messages == nil {
                var first: [Subject: Message] = [:]
                for message in context.catalog.messages where first[message.subject] == nil { first[message.subject] = message }
                messages = first
            }
            let key = Subject(product: gap.subject.product, key: gap.subject.key, locale: nil)
            let current = messages![key]?.text(of: gap.field)?.value ?? ""
            return diagnose(
                "\(gap.field.displayName) translation in \(gap.subject.locale ?? "") is stale: it translates '\(recorded)', but the source is now '\(current)'",
                at: unit.source.valueSpan, notes: unit.target.map { [Note("the translation: '\($0.value)'", at: $0.location)] } ?? [],
                fixIts: [FixIt("run `msgc extract --locale \(gap.subject.locale ?? "")` and have the translation updated")],
                subject: gap.subject)
        }
    }
}
