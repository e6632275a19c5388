import Diagnostics
import LanguageTags
import Model

/// Finds locale tags that use a deprecated subtag, grandfathered or redundant tag, and names
/// the registry's preferred value: `iw` → `he`, `in` → `id`, `no-bok` → `nb`.
struct DeprecatedLocaleSubtag: LintRule {
    static let info = RuleInfo(
        code: "LOC004", name: "deprecated-locale-subtag", severity: .error,
        summary: "A locale tag uses a deprecated subtag; the registry names its replacement.",
        rationale: "Old Java and Android code still writes Hebrew as `iw` and Indonesian as `in`. The IANA registry deprecated them decades ago, and App Store Connect's codes use only the preferred values.",
        examples: [
            .validFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, he]")),
            .invalidFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, ⟦iw⟧]")),
        ],
        mayBeLowered: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        context.localeDiagnostics(self, kinds: [.deprecatedSubtag])
    }
}
