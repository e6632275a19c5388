import Diagnostics
import LanguageTags
import Model

/// Finds locale tags in non-canonical case: `EN-us`, `zh-hans`, `de-de`.
///
/// BCP 47 itself is case-insensitive, but App Store Connect's locale codes are compared
/// exactly, so `de-de` fails where `de-DE` works.
struct NonCanonicalLocaleCase: LintRule {
    static let info = RuleInfo(
        code: "LOC003", name: "non-canonical-locale-case", severity: .error,
        summary: "A locale tag is not in canonical case (language lower case, script title case, region upper case).",
        rationale: "Apple documents its locale codes as case-sensitive. `de-de` is valid BCP 47 and means the same as `de-DE`, but Apple's default-message path refuses it.",
        examples: [
            .validFile("msgc.yaml", ExampleFiles.config()),
            .invalidFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, ⟦DE-de⟧]")),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.localeDiagnostics(self, kinds: [.nonCanonicalCase])
    }
}
