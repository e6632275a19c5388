import Diagnostics
import LanguageTags

/// Finds locale tags with a subtag that is not in the IANA Language Subtag Registry (`en-UK`:
/// the United Kingdom's region subtag is `GB`), or with a variant or extension given twice.
struct UnknownLocaleSubtag: LintRule {
    static let info = RuleInfo(
        code: "LOC002", name: "unknown-locale-subtag", severity: .error,
        summary: "A locale tag has a subtag that is not in the IANA Language Subtag Registry.",
        rationale: "A well-formed tag can still name nothing: `en-UK` reads naturally but UK is not a region subtag (the United Kingdom is GB). msgc checks each subtag against the registry (see scripts/data for its date) instead of guessing what was meant.",
        examples: [
            .validFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, en-GB]")),
            .invalidFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, en-⟦UK⟧]")),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.localeDiagnostics(self, kinds: [.unknownSubtag, .duplicateSubtag])
    }
}
