import Diagnostics
import LanguageTags
import Model

/// Finds locale tags that are not well-formed BCP 47 (RFC 5646's grammar): `en_US`, `en-US-Latn`,
/// `english`.
///
/// Applies to msgc.yaml's `sourceLocale`, `locales`, `extraLocales` and product `locales`, and
/// to every XLIFF file's target language but one that names a project locale with `_` for `-`
/// (LOC009); on a target language the message says how many units the file leaves unused.
/// The fix is given where the intent is clear (`en_US` → `en-US`).
struct MalformedLocaleTag: LintRule {
    static let info = RuleInfo(
        code: "LOC001", name: "malformed-locale-tag", severity: .error,
        summary: "A locale tag is not well-formed BCP 47.",
        rationale: "Apple's default-message path takes an App Store Connect locale code exactly, and every such code is a BCP 47 tag. A tag with `_` (from POSIX or Java locales), a misplaced subtag or a stray character can never match one. On an XLIFF file's target language the finding says how many units the file leaves unused, since none of them can ship; a target language that is a project locale written with `_` for `-` (`de_DE`, as po2xliff writes it) is used for that locale, with a warning (LOC009) instead.",
        examples: [
            .validFile("msgc.yaml", ExampleFiles.config()),
            .invalidFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, de⟦_⟧DE]")),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.localeDiagnostics(self, kinds: [.malformed])
    }
}
