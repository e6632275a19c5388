import Diagnostics
import Model

/// Warns when a source text uses more than 80% of its field's limit.
///
/// Translations of English run 20–30% longer in German, French or Portuguese; a source text
/// close to the limit leaves translators no room. Only source texts are checked: a
/// translation close to the limit is fine.
struct FieldNearLimit: LintRule {
    static let info = RuleInfo(
        code: "LEN002", name: "field-near-limit", severity: .warning,
        summary: "A source text uses more than 80% of its field's length limit.",
        rationale: "Translations run longer than English, often by a fifth or more. A source header of 60 of 66 units forces translators to cut meaning to fit, so msgc warns while the wording can still change.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: Stay with Premium and keep every article and puzzle ⟦you love⟧"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let measure = context.config.lengthMeasure
        return context.fieldTexts.compactMap { (item: FieldText) -> Diagnostic? in
            guard item.isSource else { return nil }
            let limit = item.field.maxLength
            let threshold = limit * 4 / 5
            let count = item.count(in: measure)
            guard count > threshold, count <= limit,
                  let offset = TextLength.scalarOffset(whereCountExceeds: threshold, in: item.text.value, measure: measure) else { return nil }
            let rest = item.text.value.unicodeScalars.count - offset
            return diagnose(
                "\(item.displayName) has \(count) \(measure.unitName), \(count * 100 / limit)% of Apple's limit of \(limit); translations often run longer",
                at: context.location(of: item.text, atScalarOffset: offset, length: rest),
                fixIts: [FixIt("keep it under \(threshold + 1) \(measure.unitName) to leave translators room")],
                subject: item.subject)
        }
    }
}
