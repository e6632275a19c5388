import Diagnostics
import Model

/// Warns when a translation is exactly its source text, which usually means it was not translated.
///
/// Not reported, because such texts are often the same in every language:
/// - texts without letters (numbers, prices, punctuation, emoji);
/// - single words without white space (brand and product names such as "Premium" or "iPhone");
/// - translations into another variety of the source language (`en-GB` for an `en-US` source).
/// Texts are compared after NFC.
struct TranslationIdenticalToSource: LintRule {
    static let info = RuleInfo(
        code: "TXT011", name: "translation-identical-to-source", severity: .warning,
        summary: "A translation is identical to its source text.",
        rationale: "A target equal to its source is most often a unit copied over and never translated, which CAT tools do when pre-filling. Texts with no letters, single words such as brand names, and translations into another variety of the source language are left alone.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ExampleFiles.german([:])),
            .invalid("header: Stay with Premium", extraFiles: ExampleFiles.german(["header": "⟦Stay with Premium⟧"])),
        ])

    static func isSameByNature(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        if !scalars.contains(where: { $0.properties.isAlphabetic }) { return true }
        let trimmed = text.trimmingWhitespace
        return !trimmed.unicodeScalars.contains(where: { $0.properties.isWhitespace })
    }

    static func language(of locale: String) -> String {
        locale.split(separator: "-").first.map { $0.lowercased() } ?? locale.lowercased()
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        let sourceLanguage = Self.language(of: context.config.sourceLocale.value)
        // The text comparison comes before the locale's language, which allocates.
        return context.fieldTexts.compactMap { (item: FieldText) -> Diagnostic? in
            guard !item.isSource else { return nil }
            let sourceText: String
            if let source = item.source {
                // The source's FieldText knows whether it is NFC: two NFC texts compare by bytes.
                guard item.isSameAfterNFC(as: source) else { return nil }
                sourceText = source.text.value
            } else {
                guard let source = context.sourceText(of: item), TextLength.nfc(item.text.value) == TextLength.nfc(source.value) else {
                    return nil
                }
                sourceText = source.value
            }
            guard Self.language(of: item.locale) != sourceLanguage, !Self.isSameByNature(sourceText) else { return nil }
            return diagnose(
                "\(item.displayName) is identical to the source text; it may not be translated",
                at: item.text.valueSpan, fixIts: [FixIt("translate the text, or confirm that it stays the same in \(item.locale)")],
                subject: item.subject)
        }
    }
}

extension String {
    /// The text without white space at either end.
    var trimmingWhitespace: Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return Substring(scalars[first...last])
    }
}
