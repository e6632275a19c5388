import Diagnostics
import Model

/// Finds white space at the start or end of a text.
///
/// Apple lays out the text itself, so leading or trailing spaces only shift it off centre or
/// make lines wrap early. Control characters and line separators have their own rules and are
/// not counted here; text that is only white space is `empty-text`.
struct SurroundingWhitespace: LintRule {
    static let info = RuleInfo(
        code: "TXT010", name: "surrounding-whitespace", severity: .warning,
        summary: "Text starts or ends with white space.",
        rationale: "Leading or trailing spaces (often a no-break space pasted with the text) shift the text in Apple's layout and are invisible in review. msgc never trims text it ships, so it asks for the source to be fixed.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: \"⟦ ⟧Stay with Premium\""),
            .invalid("body: \"Keep reading without limits.⟦\u{00A0}⟧\""),
        ])

    static func isReported(_ scalar: Unicode.Scalar) -> Bool {
        // The only ASCII white space that is not a control character is the space itself;
        // this spares Unicode's tables for nearly every first and last character.
        if scalar.isASCII { return scalar == " " }
        // Nor is a letter of the common scripts (a text in Japanese ends in one).
        if FieldText.isPlainLetter(scalar.value) { return false }
        guard scalar.properties.isWhitespace else { return false }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.fieldTexts {
            // Most texts neither start nor end with white space: look no further at those. Their
            // first and last bytes settle it for nearly all (visible ASCII at both ends).
            let utf8 = item.text.value.utf8
            if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { continue }
            guard let first = item.text.value.unicodeScalars.first, let last = item.text.value.unicodeScalars.last,
                  Self.isReported(first) || Self.isReported(last) else { continue }
            let scalars = Array(item.text.value.unicodeScalars)
            guard !scalars.allSatisfy({ $0.properties.isWhitespace }) else { continue }
            let leading = scalars.prefix(while: Self.isReported).count
            let trailing = scalars.reversed().prefix(while: Self.isReported).count
            for (edge, offset, count) in [("starts", 0, leading), ("ends", scalars.count - trailing, trailing)] where count > 0 {
                let run = scalars[offset..<(offset + count)]
                let what = run.allSatisfy({ $0 == " " })
                    ? "\(count) space\(count == 1 ? "" : "s")"
                    : run.map(UnicodeName.describe).joined(separator: ", ")
                let location = context.location(of: item.text, atScalarOffset: offset, length: count)
                let edits = context.edit(replacing: item.text, atScalarOffset: offset, length: count).map { [$0] } ?? []
                diagnostics.append(diagnose(
                    "\(item.displayName) \(edge) with \(what)", at: location,
                    fixIts: [FixIt("remove the white space", edits: edits)], subject: item.subject))
            }
        }
        return diagnostics
    }
}
