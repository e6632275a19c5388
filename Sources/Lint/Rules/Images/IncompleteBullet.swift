import Diagnostics
import Model

/// Finds bullet points that lack their text, their icon or the icon's alt text.
struct IncompleteBullet: LintRule {
    static let info = RuleInfo(
        code: "IMG009", name: "incomplete-bullet", severity: .error,
        summary: "A bullet point lacks its text, image or alt text.",
        rationale: "Apple's bullet point has three required parts: the text, an icon uploaded at BULLET_POINT size, and the icon's alternative text for VoiceOver.",
        examples: [
            .valid("bullets:\n  - { text: Unlimited articles, image: images/check.png, alt: Check mark }"),
            .invalid("bullets:\n  - { text: Unlimited articles, image: images/check.png, alt: Check mark }\n  - ⟦{⟧ text: Offline reading }"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for message in context.catalog.messages {
            for (index, bullet) in message.bullets.enumerated() {
                var missing: [String] = []
                if bullet.text == nil { missing.append("text") }
                if bullet.image == nil { missing.append("image") }
                if bullet.alt == nil { missing.append("alt") }
                guard !missing.isEmpty else { continue }
                let list = missing.count == 1 ? missing[0] : missing.dropLast().joined(separator: ", ") + " or " + missing.last!
                diagnostics.append(diagnose(
                    "bullet \(index + 1) has no \(list)", at: bullet.location,
                    fixIts: [FixIt("add " + missing.map { "`\($0):`" }.joined(separator: ", "))], subject: message.subject))
            }
        }
        return diagnostics
    }
}
