import Diagnostics
import Model

/// Finds images whose size does not fit the slot they are used in: a full-size image must be
/// exactly 3840 pixels wide and 160 to 2160 high, a bullet icon exactly 1024 × 1024.
///
/// An image used both as a full-size image and as a bullet icon is checked for each use.
struct WrongImageDimensions: LintRule {
    static let fullSizeWidth = 3840
    static let fullSizeHeights = 160...2160
    static let bulletSide = 1024

    static let info = RuleInfo(
        code: "IMG005", name: "wrong-image-dimensions", severity: .error,
        summary: "An image does not have the size Apple requires for its use.",
        rationale: "Apple takes full-size images exactly 3840 pixels wide and 160 to 2160 pixels high, and bullet icons exactly 1024 × 1024 pixels, and refuses any other size at upload.",
        examples: [
            .valid("image: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid(
                "image: { file: ⟦images/hero.png⟧, alt: Readers with the morning edition }",
                images: ["images/hero.png": .png(width: 1920, height: 640)]),
            .invalid(
                "bullets:\n  - { text: Unlimited articles, image: ⟦images/check.png⟧, alt: Check mark }",
                images: ["images/check.png": .png(width: 512, height: 512)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.imageUses.compactMap { (use: ImageUse) -> Diagnostic? in
            guard case .success(let png) = context.png(at: use.file.value) else { return nil }
            let size = "\(png.widthPixels) × \(png.heightPixels) pixels"
            let required: String
            switch use.role {
            case .fullSize:
                guard png.widthPixels != Self.fullSizeWidth || !Self.fullSizeHeights.contains(png.heightPixels) else { return nil }
                required = "exactly \(Self.fullSizeWidth) wide and \(Self.fullSizeHeights.lowerBound) to \(Self.fullSizeHeights.upperBound) high"
            case .bullet:
                guard png.widthPixels != Self.bulletSide || png.heightPixels != Self.bulletSide else { return nil }
                required = "exactly \(Self.bulletSide) × \(Self.bulletSide)"
            }
            return diagnose(
                "\(use.role.displayName) '\(use.file.value)' is \(size); Apple requires \(required)", at: use.file.valueSpan,
                fixIts: [FixIt("export the image at \(required) pixels")], subject: use.subject)
        }
    }
}
