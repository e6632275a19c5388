import Diagnostics
import Model

/// Finds referenced PNG files whose structure is broken: truncated, a chunk with a bad CRC,
/// no IHDR chunk first, no image data or no IEND chunk.
///
/// msgc checks the CRC of every chunk but never inflates the image data.
struct CorruptPNG: LintRule {
    static let info = RuleInfo(
        code: "IMG003", name: "corrupt-png", severity: .error,
        summary: "A referenced PNG file is corrupt: truncated, a bad CRC or a broken chunk structure.",
        rationale: "A damaged file is usually a failed download or copy. Apple would refuse it, or worse, show a broken image; a CRC or length mismatch is caught here before upload.",
        examples: [
            .valid("image: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid(
                "image: { file: ⟦images/hero.png⟧, alt: Readers with the morning edition }",
                images: ["images/hero.png": .truncatedPNG(width: 3840, height: 160)]),
            .invalid(
                "image: { file: ⟦images/hero.png⟧, alt: Readers with the morning edition }",
                images: ["images/hero.png": .pngWithBadCRC(width: 3840, height: 160)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.imageUses.compactMap { (use: ImageUse) -> Diagnostic? in
            guard case .failure(.corrupt(let reason)) = context.png(at: use.file.value) else { return nil }
            return diagnose(
                "\(use.role.displayName) '\(use.file.value)' is a corrupt PNG: \(reason)", at: use.file.valueSpan,
                fixIts: [FixIt("export the image again from its original")], subject: use.subject)
        }
    }
}
