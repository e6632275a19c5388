import Diagnostics
import Model

/// Finds a header, body, bullet text or alt text that is empty or only white space.
///
/// A field with no value at all is the parser's `missing-required-field`; this rule finds the
/// ones that are present but say nothing: `header: ""`, `body: "   "`, or a translation made of
/// white space.
struct EmptyText: LintRule {
    static let info = RuleInfo(
        code: "TXT001", name: "empty-text", severity: .error,
        summary: "A header, body, bullet text or alt text is empty or only white space.",
        rationale: "Apple requires a header and a body for every message, and an empty bullet or alt text shows nothing or reads nothing to VoiceOver. Whether Apple refuses an empty string is undocumented, so msgc does.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: ⟦\"\"⟧"),
            .invalid("body: ⟦\"   \"⟧"),
        ])

    /// Unicode's White_Space, with ASCII (tab to carriage return, and space) answered without
    /// its tables: nearly every text starts with a letter, and that is all this rule looks at.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        context.fieldTexts.compactMap { (item: FieldText) -> Diagnostic? in
            // A first byte of visible ASCII settles nearly every text.
            if let first = item.text.value.utf8.first, first > 0x20, first < 0x7F { return nil }
            guard item.text.value.unicodeScalars.allSatisfy(Self.isWhitespace) else { return nil }
            var location = item.text.location
            if case .quoted = item.text.style, item.text.location.column != nil {
                location = location.spanning(scalars: item.text.value.unicodeScalars.count + 2)
            } else if !item.text.value.isEmpty {
                location = item.text.valueSpan
            }
            let what = item.text.value.isEmpty ? "is empty" : "is only white space"
            return diagnose("\(item.displayName) \(what)", at: location, fixIts: [FixIt("write the text: the field is required")], subject: item.subject)
        }
    }
}
