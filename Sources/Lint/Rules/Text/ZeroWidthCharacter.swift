import Diagnostics
import Model

/// Finds invisible zero-width characters: U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER,
/// U+FEFF ZERO WIDTH NO-BREAK SPACE, U+00AD SOFT HYPHEN, U+180E MONGOLIAN VOWEL SEPARATOR, and
/// U+200C ZWNJ / U+200D ZWJ where no script needs them.
///
/// ZWJ is fine inside an emoji sequence (👨‍👩‍👧), and ZWNJ and ZWJ are fine between two
/// characters of scripts that use them to control joining and conjuncts: Arabic (and so
/// Persian and Urdu), Syriac, N'Ko, Mongolian, the Indic scripts from Devanagari to Sinhala,
/// Myanmar and Khmer.
struct ZeroWidthCharacter: LintRule {
    static let alwaysFlagged: Set<UInt32> = [0x200B, 0x2060, 0xFEFF, 0x00AD, 0x180E]
    static let joiners: Set<UInt32> = [0x200C, 0x200D]

    static let info = RuleInfo(
        code: "TXT007", name: "zero-width-character", severity: .warning,
        summary: "Text contains an invisible zero-width character where no script needs it.",
        rationale: "Zero-width characters cannot be seen in review, break search and copying, and can change line breaking. Joiners inside emoji sequences and in Arabic, Persian or Indic words are part of the writing and are not reported.",
        examples: [
            .valid("header: \"Stay with the family 👨‍👩‍👧\""),
            .invalid("header: Stay with⟦\u{200B}⟧ Premium"),
        ])

    /// Scripts in which ZWNJ and ZWJ are part of correct spelling.
    static func isJoiningScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0600...0x08FF, 0x0900...0x0DFF, 0x1000...0x109F, 0x1780...0x18AF, 0xA8E0...0xA8FF, 0xA9E0...0xA9FF,
             0xAA60...0xAA7F, 0xFB50...0xFDFF, 0xFE70...0xFEFE, 0x11000...0x111FF:
            true
        default:
            false
        }
    }

    static func isEmojiPart(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.properties.isEmoji && !scalar.isASCII) || scalar.value == 0xFE0F || scalar.properties.isEmojiModifier
    }

    /// Whether the joiner at `index` sits where its script or an emoji sequence needs it.
    static func isJoinerNeeded(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard index > 0, index + 1 < scalars.count else { return false }
        let before = scalars[index - 1]
        let after = scalars[index + 1]
        if scalars[index].value == 0x200D, isEmojiPart(before), isEmojiPart(after) { return true }
        return isJoiningScript(before) && isJoiningScript(after)
    }

    /// Whether a scalar may be in `alwaysFlagged` or `joiners`: a range test that spares the
    /// two set lookups for nearly every scalar of real text.
    static func mayBeInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x180E, 0x200B...0x200D, 0x2060, 0xFEFF: true
        default: false
        }
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for item in context.textsWithNotableScalars where !item.scalars(where: Self.mayBeInvisible).isEmpty {
            let scalars = Array(item.text.value.unicodeScalars)
            for (offset, scalar) in scalars.enumerated() {
                if Self.alwaysFlagged.contains(scalar.value)
                    || (Self.joiners.contains(scalar.value) && !Self.isJoinerNeeded(at: offset, in: scalars)) {
                    diagnostics.append(diagnose(
                        "\(item.displayName) contains the invisible character \(UnicodeName.describe(scalar))",
                        at: context.location(of: item.text, atScalarOffset: offset),
                        fixIts: [FixIt("remove it", edits: context.edit(replacing: item.text, atScalarOffset: offset).map { [$0] } ?? [])],
                        subject: item.subject))
                }
            }
        }
        return diagnostics
    }
}
