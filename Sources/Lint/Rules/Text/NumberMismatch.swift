import Diagnostics
import Model

/// Finds translations whose numbers and percentages differ from their source's.
///
/// Numbers are compared by value as a multiset, across digit systems and local spacing: `50 %`
/// (with a space, a no-break space or a narrow no-break space), `٥٠٪` and `%50` all equal the
/// source's `50%`, and `1.000` or `1 000` equal `1,000` (see `NumberScanner` for the rules). A
/// number written as a word in the translation ("half") is reported: the offer Apple applies
/// does not change with the language, so its numbers should not either.
///
/// The other way round is how translators write: when the source language is English, its
/// number words zero to twelve and first to twelfth (`NumberWords`) count as the numbers they
/// name, so a translation may write them as digits ("at least one" as `1つ`, "zero fees" as
/// `0 €`) or as words of its own language. They are never required as digits: "a second
/// chance" need not become `2`. A source digit stays a digit in every translation, English
/// ones included, since msgc cannot read number words in the other languages it ships.
struct NumberMismatch: LintRule {
    static let info = RuleInfo(
        code: "TXT012", name: "number-mismatch", severity: .error,
        summary: "A translation's numbers or percentages differ from its source's.",
        rationale: "A retention message's numbers are promises (50% off, 3 months free). A translation that says 40% or drops the number misstates the offer in that language, which no reviewer who does not read it will notice. Numbers are compared by value across digit systems and separators. When the source language is English, a number the source spells out (zero to twelve, first to twelfth, also in compounds such as \"two-factor\") may be written as a digit in the translation, or as a word; a digit must name the same number. Month names (`March` as `3月`), multiplicatives (`once` as `1度`, `single` as `1つ`), `dozen`, `hex` and a unit after \"every\" (`every hour` as `１時間ごと`) count too. Number words are read in English sources only, and never in translations: a source digit must stay a digit. A number the translation has and msgc does not find in the source at all is a warning, not an error: it may be one msgc cannot read there.",
        examples: [
            .valid("header: Stay with Premium", extraFiles: ExampleFiles.german([:])),
            .valid("body: Keep at least one device signed in.", extraFiles: ExampleFiles.german(
                ["body": "Lassen Sie mindestens 1 Gerät angemeldet."], sources: ["body": "Keep at least one device signed in."])),
            .invalid("header: Stay with Premium", extraFiles: ExampleFiles.german([
                "body": "Behalten Sie Ihr Jahresabo und sparen Sie ⟦40 %⟧ bei der nächsten Verlängerung.",
            ])),
            .invalid("body: Keep at least one device signed in.", extraFiles: ExampleFiles.german(
                ["body": "Lassen Sie mindestens ⟦2⟧ Geräte angemeldet."], sources: ["body": "Keep at least one device signed in."])),
        ],
        mayBeLowered: true)

    /// Languages whose dates, counts and frequencies are written with numerals where English
    /// has words (`3月`, `1つ`, `１時間ごと`, `3월`): a number there cannot simply be removed.
    static let writesNumerals: Set<String> = ["ja", "zh", "ko", "yue"]

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let readsWords = NumberWords.reads(locale: context.config.sourceLocale.value)
        for item in context.fieldTexts where !item.isSource {
            // A source's numbers are found once, with its FieldText, not again in every locale.
            var unmatchedSource: [NumberToken]
            if let source = item.source {
                unmatchedSource = source.numbers
            } else if let source = context.sourceText(of: item) {
                unmatchedSource = NumberScanner.numbers(in: source.value)
            } else {
                continue
            }
            var extra: [NumberToken] = []
            for token in item.numbers {
                if let index = unmatchedSource.firstIndex(where: { $0.value == token.value && $0.isPercent == token.isPercent }) {
                    unmatchedSource.remove(at: index)
                } else {
                    extra.append(token)
                }
            }
            // A digit the source's digits leave over may stand for a number word of the source
            // (read only then: nearly every translation has none over).
            // Number words of the source that no digit of the translation stands for: a digit
            // over then names another number than they do, and is an error.
            var leftoverWords: [NumberToken] = []
            if !extra.isEmpty, readsWords, let source = context.sourceText(of: item) {
                var words = NumberWords.numbers(in: source.value)
                defer { leftoverWords = words }
                extra.removeAll { token in
                    guard let index = words.firstIndex(where: { $0.value == token.value && $0.isPercent == token.isPercent }) else { return false }
                    words.remove(at: index)
                    return true
                }
            }
            for token in extra {
                let location = context.location(of: item.text, atScalarOffset: token.scalarOffset, length: token.scalarLength)
                if !unmatchedSource.isEmpty {
                    let expected = unmatchedSource.removeFirst()
                    diagnostics.append(diagnose(
                        "\(item.displayName) has \(token.displayValue) ('\(token.text)') where the source has \(expected.displayValue)",
                        at: location, fixIts: [FixIt("write \(expected.displayValue) as the source does")], subject: item.subject))
                } else if !leftoverWords.isEmpty {
                    diagnostics.append(diagnose(
                        "\(item.displayName) has \(token.displayValue) ('\(token.text)'), which the source does not have",
                        at: location, fixIts: [FixIt("write the number the source's '\(leftoverWords[0].text)' names")], subject: item.subject))
                } else {
                    // A number the source does not have may be one msgc cannot read there (a
                    // counter, a date, a word it does not know): a warning, never a block. Some
                    // languages cannot drop it (Japanese writes "March" as `3月`).
                    let locale = item.subject.locale ?? ""
                    let language = String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
                    let fix = Self.writesNumerals.contains(language)
                        ? "check that it says what the source says; \(locale) may need a numeral where the source has a word"
                        : "remove the number if the source does not say it, or ask for it to be added to the source"
                    diagnostics.append(Diagnostic(
                        code: Self.info.code, severity: .warning, location: location,
                        message: "\(item.displayName) has \(token.displayValue) ('\(token.text)'), which msgc does not find in the source",
                        fixIts: [FixIt(fix)], subject: item.subject))
                }
            }
            for missing in unmatchedSource {
                diagnostics.append(diagnose(
                    "\(item.displayName) lacks the source's \(missing.displayValue)", at: item.text.valueSpan,
                    fixIts: [FixIt("keep \(missing.displayValue) in the translation")], subject: item.subject))
            }
        }
        return diagnostics
    }
}
