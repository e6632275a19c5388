import Diagnostics
import Model

/// Finds XLIFF target languages that name one of the project's locales with `_` for `-`.
///
/// gettext and POSIX write locales as `de_DE`, and translate-toolkit's `po2xliff` copies a PO
/// file's `Language:` header into `target-language` as it is. BCP 47 has no `_`, so such a tag
/// is not well-formed, but what it means is plain: msgc binds the file to the project's locale
/// and uses it, as it does for a tag in another case (LOC008), and the warning names the
/// canonical spelling. In msgc.yaml, where the tags go to Apple, `_` stays an error (LOC001).
struct TranslationLocaleUnderscore: LintRule {
    static let info = RuleInfo(
        code: "LOC009", name: "translation-locale-underscore", severity: .warning,
        summary: "An XLIFF file's target language is one of the project's locales written with `_` for `-`.",
        rationale: "gettext and POSIX write `de_DE` where BCP 47 writes `de-DE`, and translate-toolkit's `po2xliff` copies a PO file's `Language:` header into `target-language` as it is. The meaning is plain, so msgc binds the file to the project's locale and uses every unit in it rather than leave a whole translation out; the warning asks for the BCP 47 spelling, which Apple's locale codes and the other files use. A tag with `_` that names no project locale is still malformed (LOC001).",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": ExampleFiles.xliff()]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de_DE.xlf": ExampleFiles.xliff(targetLanguage: "⟦de_DE⟧")]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let binding = context.localeBinding
        return context.catalog.translationFiles.compactMap { (file: TranslationFile) -> Diagnostic? in
            guard file.isReadable, let tag = file.targetLanguage, binding.isUnderscoreVariant(tag.value) else { return nil }
            let locale = binding.locale(for: tag.value)
            let edits: [FixIt.Edit] = tag.style == .opaque ? [] : [.init(location: tag.valueSpan, replacement: locale)]
            return diagnose(
                "target language '\(tag.value)' is the project's locale '\(locale)' written with '_' for '-', as gettext writes it; the file is used for \(locale)",
                at: tag.valueSpan, fixIts: [FixIt("write '\(locale)'", edits: edits)])
        }
    }
}
