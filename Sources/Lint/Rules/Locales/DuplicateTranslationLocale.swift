import Diagnostics
import Model

/// Finds two XLIFF files that translate into the same locale.
///
/// The Localizer uses the first one in bytewise path order and ignores the others, so edits a
/// translator makes to the second never ship.
struct DuplicateTranslationLocale: LintRule {
    static let info = RuleInfo(
        code: "LOC007", name: "duplicate-translation-locale", severity: .error,
        summary: "Two XLIFF files translate into the same locale.",
        rationale: "msgc uses one file per locale, the first by path, and ignores the rest. A second file is usually an old copy or a translator's return saved beside the original; its translations would silently never ship.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": ExampleFiles.xliff()]),
            .invalid("header: Stay with Premium", extraFiles: [
                "translations/de-DE.xliff": ExampleFiles.xliff(),
                "translations/old/de-DE.xliff": ExampleFiles.xliff(targetLanguage: "⟦de-DE⟧"),
            ]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        // Tags that differ only in case name one locale (`de-de` and `de-DE`).
        let binding = context.localeBinding
        var first: [String: TranslationFile] = [:]
        var diagnostics: [Diagnostic] = []
        for file in context.catalog.translationFiles where file.isReadable {
            guard let tag = file.targetLanguage else { continue }
            let locale = binding.locale(for: tag.value)
            guard let earlier = first[locale] else {
                first[locale] = file
                continue
            }
            diagnostics.append(diagnose(
                "'\(file.path)' translates into '\(locale)' like '\(earlier.path)'; msgc uses only '\(earlier.path)'",
                at: tag.valueSpan, notes: [Note("the file msgc uses", at: earlier.targetLanguage?.location)],
                fixIts: [FixIt("merge the two files into one, or delete the one that is out of date")]))
        }
        return diagnostics
    }
}
