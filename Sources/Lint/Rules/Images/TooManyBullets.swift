import Diagnostics
import Model

/// Finds messages with more than five bullet points.
struct TooManyBullets: LintRule {
    static let maxBullets = 5

    static let info = RuleInfo(
        code: "IMG008", name: "too-many-bullets", severity: .error,
        summary: "A message has more than five bullet points.",
        rationale: "Apple's client libraries and server refuse a sixth bullet point (BadRequestTooManyBulletPointsError).",
        examples: [
            .valid("bullets:\n  - { text: Unlimited articles, image: images/check.png, alt: Check mark }"),
            .invalid("""
                bullets:
                  - { text: Unlimited articles, image: images/check.png, alt: Check mark }
                  - { text: Offline reading, image: images/check.png, alt: Check mark }
                  - { text: The daily puzzle, image: images/check.png, alt: Check mark }
                  - { text: Audio editions, image: images/check.png, alt: Check mark }
                  - { text: No advertising, image: images/check.png, alt: Check mark }
                  - ⟦{⟧ text: Share with family, image: images/check.png, alt: Check mark }
                """),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.catalog.messages.compactMap { (message: Message) -> Diagnostic? in
            guard message.bullets.count > Self.maxBullets else { return nil }
            let excess = message.bullets.count - Self.maxBullets
            return diagnose(
                "message has \(message.bullets.count) bullet points; Apple allows at most \(Self.maxBullets)",
                at: message.bullets[Self.maxBullets].location,
                fixIts: [FixIt("remove \(excess) bullet point\(excess == 1 ? "" : "s")")], subject: message.subject)
        }
    }
}
