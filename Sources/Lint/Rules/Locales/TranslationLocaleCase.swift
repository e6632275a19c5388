import Diagnostics
import Model

/// Finds XLIFF target languages that name one of the project's locales in another case.
///
/// BCP 47 tags are case-insensitive (RFC 5646, section 2.1.1), and tools write them in every
/// case: Phrase writes `pt-br`, TYPO3 `DE`, Microsoft's tools `de-de`. msgc binds such a file to
/// the project's locale and uses it; the warning names the canonical spelling, which Apple's
/// locale codes need and which keeps the file's locale obvious to the next tool. In msgc.yaml,
/// where the tags go to Apple, a tag in the wrong case stays an error (LOC003).
struct TranslationLocaleCase: LintRule {
    static let info = RuleInfo(
        code: "LOC008", name: "translation-locale-case", severity: .warning,
        summary: "An XLIFF file's target language is one of the project's locales written in another case.",
        rationale: "BCP 47 tags are case-insensitive, so `pt-br` and `pt-BR` name the same locale, and many tools write lower case. msgc binds the file to the project's locale and uses every unit in it; the warning asks for the canonical spelling, which is what Apple's locale codes and the other files use.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": ExampleFiles.xliff()]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": ExampleFiles.xliff(targetLanguage: "⟦de-de⟧")]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let binding = context.localeBinding
        return context.catalog.translationFiles.compactMap { (file: TranslationFile) -> Diagnostic? in
            guard file.isReadable, let tag = file.targetLanguage, binding.isCaseVariant(tag.value) else { return nil }
            let locale = binding.locale(for: tag.value)
            let edits: [FixIt.Edit] = tag.style == .opaque ? [] : [.init(location: tag.valueSpan, replacement: locale)]
            return diagnose(
                "target language '\(tag.value)' is the project's locale '\(locale)' written in another case; the file is used for \(locale)",
                at: tag.valueSpan, fixIts: [FixIt("write '\(locale)'", edits: edits)])
        }
    }
}
