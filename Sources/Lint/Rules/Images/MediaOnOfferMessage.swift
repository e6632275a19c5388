import Diagnostics
import Model

/// Finds promotional-offer and switch-plan messages that carry an image or bullet points.
struct MediaOnOfferMessage: LintRule {
    static let info = RuleInfo(
        code: "IMG006", name: "media-on-offer-message", severity: .error,
        summary: "A promotional-offer or switch-plan message has an image or bullet points.",
        rationale: "Apple uploads promotional-offer and switch-plan messages without `image` and without `bulletPoints`, and a realtime offer must reference a message with no image: Apple shows the offer or plan details in that space.",
        examples: [
            .validFile("messages/example.yaml", twoMessages(offerExtra: "")),
            .invalidFile("messages/example.yaml", twoMessages(offerExtra: """

                    image: ⟦{⟧ file: images/hero.png, alt: Readers with the morning edition }
                    bullets:
                      - ⟦{⟧ text: Unlimited articles, image: images/check.png, alt: Check mark }
                """)),
        ])

    private static func twoMessages(offerExtra: String) -> String {
        """
        messages:
          - key: winback
            product: com.example.news.premium.yearly
            type: text
            default: true
            header: Stay with Premium
            body: Keep reading without limits.
            image: { file: images/hero.png, alt: Readers with the morning edition }
            bullets:
              - { text: Unlimited articles, image: images/check.png, alt: Check mark }
          - key: half-price
            product: com.example.news.premium.yearly
            type: promotional-offer
            header: Half price for a year
            body: Stay and pay half as much for your next year.
        """ + offerExtra + "\n"
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for message in context.catalog.messages where message.type.value != .text {
            let kind = message.type.value.rawValue
            if let image = message.image {
                diagnostics.append(diagnose(
                    "a \(kind) message cannot have an image; Apple shows the offer in its place", at: image.location,
                    fixIts: [FixIt("remove `image`, or make this a text message")], subject: message.subject))
            }
            if let first = message.bullets.first {
                diagnostics.append(diagnose(
                    "a \(kind) message cannot have bullet points; it has \(message.bullets.count)", at: first.location,
                    fixIts: [FixIt("remove `bullets`, or make this a text message")], subject: message.subject))
            }
        }
        return diagnostics
    }
}
