import Diagnostics
import Model

/// Finds full-size images without alternative text.
struct MissingAltText: LintRule {
    static let info = RuleInfo(
        code: "IMG010", name: "missing-alt-text", severity: .error,
        summary: "A message's image has no alt text.",
        rationale: "Apple requires `altText` with every image: VoiceOver reads it to people who cannot see the image.",
        examples: [
            .valid("image: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid("image: ⟦{⟧ file: images/hero.png }"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.catalog.messages.compactMap { (message: Message) -> Diagnostic? in
            guard let image = message.image, image.alt == nil else { return nil }
            return diagnose(
                "image has no alt text", at: image.location,
                fixIts: [FixIt("add `alt:` with a short description of the image for VoiceOver")], subject: message.subject)
        }
    }
}
