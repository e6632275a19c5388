import Diagnostics
import Model

/// Flags a field longer than Apple's limit for it, counted in the project's `lengthMeasure`
/// after normalising to NFC.
///
/// Limits: header 66, body 144, alt text 150, bullet text 66. Apple never says what a
/// "character" is and its client libraries disagree (graphemes in Swift, code points in Python,
/// UTF-16 units in Java), so msgc counts UTF-16 units by default, the strictest of them: a text
/// msgc accepts passes every library. The message gives all four counts, and the diagnostic
/// starts at the character where the limit is crossed. Translations are checked too; a
/// translation that is too long keeps only its own locale from shipping.
struct FieldTooLong: LintRule {
    static let info = RuleInfo(
        code: "LEN001", name: "field-too-long", severity: .error,
        summary: "A header, body, alt text or bullet text is longer than Apple accepts.",
        rationale: "Apple refuses a header over 66 characters, a body over 144, alt text over 150 and bullet text over 66. \"Characters\" is undefined, so msgc counts UTF-16 units after NFC by default (`lengthMeasure` in msgc.yaml changes it): the strictest count of Apple's client libraries, so that no library rejects what msgc accepts.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: Stay with Premium and keep every article, puzzle and podcasts you ⟦love⟧"),
            .invalid("bullets:\n  - { text: \"Unlimited articles, offline reading and the daily puzzle for two ⟦👨‍👩‍👧⟧\", image: images/check.png, alt: Check mark }"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let measure = context.config.lengthMeasure
        return context.fieldTexts.compactMap { (item: FieldText) -> Diagnostic? in
            let limit = item.field.maxLength
            let count = item.count(in: measure)
            guard count > limit, let offset = TextLength.scalarOffset(whereCountExceeds: limit, in: item.text.value, measure: measure) else {
                return nil
            }
            let rest = item.text.value.unicodeScalars.count - offset
            let length = TextLength(item.text.value)
            return diagnose(
                "\(item.displayName) has \(count) \(measure.unitName); Apple's limit is \(limit) (after NFC: \(length.allMeasures))",
                at: context.location(of: item.text, atScalarOffset: offset, length: rest),
                fixIts: [FixIt("shorten it by \(count - limit) \(measure.unitName); the limit is crossed here")],
                subject: item.subject)
        }
    }
}
