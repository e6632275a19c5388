import Diagnostics
import Model

/// Finds XLIFF files whose target language is the project's source locale.
///
/// The source locale's text is the message itself, written in the YAML sources; a translation
/// into it is never used. Such a file is usually an export for the wrong locale, or a
/// translator's tool that wrote the source language into `target-language`.
struct TranslationOfSourceLocale: LintRule {
    static let info = RuleInfo(
        code: "TRN005", name: "translation-of-source-locale", severity: .warning,
        summary: "An XLIFF file translates into the source locale, so none of its units is used.",
        rationale: "Messages in the source locale are the YAML sources themselves: msgc never reads a translation into that locale. A file that claims it is usually has the wrong target language, and the translator's work in it would silently go nowhere.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": ExampleFiles.xliff()]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/en.xliff": ExampleFiles.xliff(targetLanguage: "⟦en-US⟧")]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let sourceLocale = context.config.sourceLocale.value
        let binding = context.localeBinding
        return context.catalog.translationFiles.compactMap { (file: TranslationFile) -> Diagnostic? in
            guard file.isReadable, let tag = file.targetLanguage, binding.locale(for: tag.value) == sourceLocale else { return nil }
            let count = file.units.count
            return diagnose(
                "'\(file.path)' translates into the source locale '\(sourceLocale)'; its \(count) unit\(count == 1 ? " is" : "s are") not used",
                at: tag.valueSpan,
                fixIts: [FixIt("set the file's target language to the locale it translates into, or remove the file")])
        }
    }
}
