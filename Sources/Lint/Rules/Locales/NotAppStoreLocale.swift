import Diagnostics
import LanguageTags
import Model

/// Finds valid BCP 47 tags that are not App Store Connect locale codes, with the nearest code:
/// `ja-JP` → `ja`, `fr` → `fr-FR`, `zh-CN` → `zh-Hans`. Private-use tags (`x-pirate`) are
/// reported here too, as no code has one.
///
/// `extraLocales` in msgc.yaml admits codes Apple adds after msgc's list was written (its
/// entries need only be valid BCP 47 in canonical case).
struct NotAppStoreLocale: LintRule {
    static let info = RuleInfo(
        code: "LOC005", name: "not-app-store-locale", severity: .error,
        summary: "A locale is valid BCP 47 but not one of App Store Connect's locale codes.",
        rationale: "Apple's default-message path takes App Store Connect's locale short codes exactly, and they are not plain language-region tags: Japanese is `ja`, French `fr-FR`, simplified Chinese `zh-Hans`. List a code Apple added later under `extraLocales`.",
        examples: [
            .validFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, ja, bn]", extra: "[bn]")),
            .invalidFile("msgc.yaml", ExampleFiles.config(locales: "[en-US, ⟦ja-JP⟧, ⟦zh-CN⟧]")),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.localeDiagnostics(self, kinds: [.notAppStoreCode, .privateUse])
    }
}
