import Diagnostics
import LanguageTags
import Model

/// Finds locale tags that are not well-formed BCP 47 (RFC 5646's grammar): `en_US`, `en-US-Latn`,
/// `english`.
///
/// Applies to msgc.yaml's `sourceLocale`, `locales`, `extraLocales` and product `locales`, and
/// to every XLIFF file's target language. The fix is given where the intent is clear (`en_US` →
/// `en-US`).
struct MalformedLocaleTag: LintRule {
    static let info = RuleInfo(
        code: "LOC001", name: "malformed-locale-tag", severity: .error,
        summary: "A locale tag is not well-formed BCP 47.",
        rationale: "Apple's default-message path takes an App Store Connect locale code exactly, and every such code is a BCP 47 tag. A tag with `_` (from POSIX or Java locales), a misplaced subtag or a stray character can never match one.",
        examples: [
            .validFile("msgc.yaml", ExampleFiles.config()),
            .invalidFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, de⟦_⟧DE]")),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.localeDiagnostics(self, kinds: [.malformed])
    }
}
