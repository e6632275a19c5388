import Diagnostics
import Model

/// Finds the directional marks U+200E LRM, U+200F RLM and U+061C ALM in texts of locales
/// that are not written right to left.
///
/// In Arabic, Hebrew, Persian or Urdu text the marks are legitimate (they place punctuation
/// next to a Latin run correctly). In a left-to-right locale they do nothing useful and are
/// usually debris from copying text out of an RTL document.
struct BidiMarkOutsideRTL: LintRule {
    static let info = RuleInfo(
        code: "TXT006", name: "bidi-mark-outside-rtl", severity: .warning,
        summary: "A directional mark (U+200E, U+200F, U+061C) appears in text of a left-to-right locale.",
        rationale: "Directional marks are invisible. They belong in right-to-left text; in a left-to-right locale they are copy-and-paste debris that can move punctuation around unexpectedly.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: Stay with Premium⟦\u{200F}⟧"),
        ])

    static func isRightToLeft(_ locale: String) -> Bool { LocaleDirection.isRightToLeft(locale) }

    /// U+200E LEFT-TO-RIGHT MARK, U+200F RIGHT-TO-LEFT MARK and U+061C ARABIC LETTER MARK.
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        // The marks first: they are rare, and the locale's language allocates.
        for item in context.textsWithNotableScalars {
            let marks = item.scalars(where: Self.isMark)
            guard !marks.isEmpty, !Self.isRightToLeft(item.locale) else { continue }
            for (offset, scalar) in marks {
                diagnostics.append(diagnose(
                    "\(item.displayName) contains \(UnicodeName.describe(scalar)), but \(item.locale) is written left to right",
                    at: context.location(of: item.text, atScalarOffset: offset),
                    fixIts: [FixIt("remove the invisible mark", edits: context.edit(replacing: item.text, atScalarOffset: offset).map { [$0] } ?? [])],
                    subject: item.subject))
            }
        }
        return diagnostics
    }
}
