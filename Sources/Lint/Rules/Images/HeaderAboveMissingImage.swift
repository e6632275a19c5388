import Diagnostics
import Model

/// Finds messages that place the header above an image they do not have.
struct HeaderAboveMissingImage: LintRule {
    static let info = RuleInfo(
        code: "IMG007", name: "header-above-missing-image", severity: .error,
        summary: "`headerPosition: above-image` is set on a message without an image.",
        rationale: "Apple accepts `ABOVE_IMAGE` only together with an image; without one the upload is refused.",
        examples: [
            .valid("headerPosition: above-image\nimage: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid("headerPosition: ⟦above-image⟧\nimage:"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.catalog.messages.compactMap { (message: Message) -> Diagnostic? in
            guard let position = message.headerPosition, position.value == .aboveImage, message.image == nil else { return nil }
            let span = position.map(\.rawValue).valueSpan
            return diagnose(
                "the header is placed above an image, but the message has none", at: span,
                fixIts: [FixIt("use `headerPosition: above-body`, or add an image", edits: [.init(location: span, replacement: "above-body")])],
                subject: message.subject)
        }
    }
}
