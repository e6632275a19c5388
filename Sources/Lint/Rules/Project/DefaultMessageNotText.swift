import Diagnostics
import Model

/// Finds default messages that are promotional-offer or switch-plan messages.
struct DefaultMessageNotText: LintRule {
    static let info = RuleInfo(
        code: "PRJ005", name: "default-message-not-text", severity: .error,
        summary: "A default message is not of type `text`.",
        rationale: "Apple accepts only text-based messages (with or without an image) as defaults; promotional-offer and switch-plan messages need the realtime server to supply the offer or the plan.",
        examples: [
            .valid("type: text\ndefault: true"),
            .invalid("type: ⟦promotional-offer⟧\ndefault: true\nimage:\nbullets:"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.catalog.messages.compactMap { (message: Message) -> Diagnostic? in
            guard message.isDefaultMessage, message.type.value != .text else { return nil }
            return diagnose(
                "default message '\(message.key.value)' is a \(message.type.value.rawValue) message; defaults must be text messages",
                at: message.type.location.spanning(scalars: message.type.value.rawValue.unicodeScalars.count),
                fixIts: [FixIt("make a text message the product's default")], subject: message.subject)
        }
    }
}
