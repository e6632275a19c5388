import Diagnostics
import Model

/// Finds text that is not in Unicode Normalization Form C.
///
/// macOS file names, some keyboards and copying from PDFs give decomposed text (`e` + U+0301
/// instead of `é`). It looks the same but counts differently, and msgc ships NFC, so the text
/// that ships is not byte for byte the text in the source. The warning points at the first
/// character that changes.
struct NotNFC: LintRule {
    static let info = RuleInfo(
        code: "TXT009", name: "not-nfc", severity: .warning,
        summary: "Text is not in Unicode Normalization Form C; msgc ships it normalised.",
        rationale: "Decomposed text looks identical but counts more scalars and UTF-16 units, compares unequal in tools that do not normalise, and is shipped in NFC, so the source is not what users get. Save the text in NFC to keep them the same.",
        examples: [
            .valid("header: Café Premium"),
            .invalid("header: Caf⟦e\u{0301}⟧ Premium"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.fieldTexts.compactMap { (item: FieldText) -> Diagnostic? in
            guard !item.isNFC else { return nil }
            var offset = 0
            for character in item.text.value {
                let scalars = Array(character.unicodeScalars)
                let normalized = Array(TextLength.nfc(String(character)).unicodeScalars)
                if scalars != normalized {
                    let written = scalars.map(UnicodeName.codePoint).joined(separator: " ")
                    let nfc = normalized.map(UnicodeName.codePoint).joined(separator: " ")
                    return diagnose(
                        "\(item.displayName) is not in NFC: '\(character)' is written as \(written) instead of \(nfc); msgc ships the NFC form",
                        at: context.location(of: item.text, atScalarOffset: offset, length: scalars.count),
                        fixIts: [FixIt("save the text in NFC (composed) form")], subject: item.subject)
                }
                offset += scalars.count
            }
            return nil
        }
    }
}
