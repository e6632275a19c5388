import Diagnostics
import Model

/// Finds referenced images that are not PNG files, whatever their names say.
///
/// Apple takes PNG only. A JPEG or HEIC renamed `.png` passes every check that looks at the
/// name; msgc reads the first bytes, and names the format it finds when it knows it.
struct ImageNotPNG: LintRule {
    static let info = RuleInfo(
        code: "IMG002", name: "image-not-png", severity: .error,
        summary: "A referenced image is not a PNG file.",
        rationale: "Apple's image upload takes PNG only. A JPEG, HEIC or WebP file renamed to `.png` is still refused, so msgc reads the file's signature rather than trusting its name.",
        examples: [
            .valid("image: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid(
                "image: { file: ⟦images/hero.png⟧, alt: Readers with the morning edition }",
                images: ["images/hero.png": .jpeg]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.imageUses.compactMap { (use: ImageUse) -> Diagnostic? in
            guard case .failure(.notPNG(let format)) = context.png(at: use.file.value) else { return nil }
            let what = format.map { "a \($0) file" } ?? "not a PNG file: it does not start with the PNG signature"
            return diagnose(
                "\(use.role.displayName) '\(use.file.value)' is \(what)\(format == nil ? "" : ", not a PNG")",
                at: use.file.valueSpan, fixIts: [FixIt("export the image as an RGB PNG without transparency")],
                subject: use.subject)
        }
    }
}
