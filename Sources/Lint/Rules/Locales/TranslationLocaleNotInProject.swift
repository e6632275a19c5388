import Diagnostics
import LanguageTags
import Model

/// Finds XLIFF files whose target language is not one of the project's locales.
///
/// Such a file is never used: the Localizer binds translations only for the project's locales
/// (and for pseudo locales, which are for lint and preview and never ship).
/// A tag with its own problems (malformed, wrong case, …) is left to the rules above, whose fix
/// usually makes it one of the project's locales.
struct TranslationLocaleNotInProject: LintRule {
    static let info = RuleInfo(
        code: "LOC006", name: "translation-locale-not-in-project", severity: .error,
        summary: "An XLIFF file's target language is not in the project's locales.",
        rationale: "A translation file for a locale the project does not list is never shipped. It is usually a file for the wrong project, or a locale someone forgot to add to msgc.yaml.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": ExampleFiles.xliff()]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/fr-FR.xliff": ExampleFiles.xliff(targetLanguage: "⟦fr-FR⟧")]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let projectLocales = Set(context.config.locales.map(\.value))
        let binding = context.localeBinding
        return context.catalog.translationFiles.compactMap { (file: TranslationFile) -> Diagnostic? in
            guard file.isReadable, let tag = file.targetLanguage, !projectLocales.contains(binding.locale(for: tag.value)),
                  !binding.isVariantSpelling(tag.value),
                  tag.value != context.config.sourceLocale.value, !PseudoLocale.isPseudo(tag.value),
                  LanguageTagChecker.check(tag.value, extraLocales: context.config.extraLocales.map(\.value)).isEmpty
            else { return nil }
            return diagnose(
                "'\(file.path)' translates into '\(tag.value)', which is not in the project's locales",
                at: tag.valueSpan, fixIts: [FixIt("add '\(tag.value)' to `locales` in msgc.yaml, or remove the file")])
        }
    }
}
