import Diagnostics
import Model

/// Finds referenced PNG files that can be transparent: colour types with an alpha channel
/// (greyscale + alpha, RGBA) or any file with a `tRNS` chunk.
///
/// The rule looks at the format, not the pixels: an RGBA file whose pixels are all opaque is
/// still refused, as Apple's check is not documented to look closer.
struct ImageHasTransparency: LintRule {
    static let info = RuleInfo(
        code: "IMG004", name: "image-has-transparency", severity: .error,
        summary: "A referenced PNG has an alpha channel or a transparency (tRNS) chunk.",
        rationale: "Apple refuses images with transparency: the sheet's background differs between light and dark mode, so transparent pixels would show whatever lies behind. Flatten the image onto its background and export RGB.",
        examples: [
            .valid("image: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid(
                "image: { file: ⟦images/hero.png⟧, alt: Readers with the morning edition }",
                images: ["images/hero.png": .png(width: 3840, height: 160, colorType: 6)]),
            .invalid(
                "image: { file: ⟦images/hero.png⟧, alt: Readers with the morning edition }",
                images: ["images/hero.png": .png(width: 3840, height: 160, hasTransparencyChunk: true)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.imageUses.compactMap { (use: ImageUse) -> Diagnostic? in
            guard case .success(let png) = context.png(at: use.file.value) else { return nil }
            let what: String
            if png.hasAlphaChannel {
                what = "is a \(png.colorTypeName) PNG with an alpha channel"
            } else if png.hasTransparencyChunk {
                what = "has a tRNS chunk that makes part of it transparent"
            } else {
                return nil
            }
            return diagnose(
                "\(use.role.displayName) '\(use.file.value)' \(what); Apple accepts no transparency", at: use.file.valueSpan,
                fixIts: [FixIt("flatten the image onto its background and export it as an RGB PNG")],
                subject: use.subject)
        }
    }
}
