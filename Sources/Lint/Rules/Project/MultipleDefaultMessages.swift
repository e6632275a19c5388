import Diagnostics
import Model

/// Finds products with more than one default message.
struct MultipleDefaultMessages: LintRule {
    static let info = RuleInfo(
        code: "PRJ004", name: "multiple-default-messages", severity: .error,
        summary: "A product has more than one default message.",
        rationale: "Apple keeps one default message per product and locale; configuring a second replaces the first, so which one users see would depend on upload order.",
        examples: [
            .valid("default: true"),
            .invalidFile("messages/example.yaml", """
                messages:
                  - key: winback
                    product: com.example.news.premium.yearly
                    type: text
                    default: true
                    header: Stay with Premium
                    body: Keep reading without limits.
                  - key: last-chance
                    product: com.example.news.premium.yearly
                    type: text
                    default: ⟦true⟧
                    header: Before you go
                    body: Your saved articles stay here.
                """),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        // The index of each product's first default, as in `DuplicateMessageKey`.
        let messages = context.catalog.messages
        var first: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        for (index, message) in messages.enumerated() where message.isDefaultMessage {
            guard let earlierIndex = first[message.product.value] else {
                first[message.product.value] = index
                continue
            }
            let earlier = messages[earlierIndex]
            let location = message.isDefault.map { $0.location.spanning(scalars: 4) } ?? message.location
            diagnostics.append(diagnose(
                "product '\(message.product.value)' already has a default message, '\(earlier.key.value)'",
                at: location, notes: [Note("the first default is here", at: earlier.isDefault?.location ?? earlier.location)],
                fixIts: [FixIt("keep `default: true` on one message of the product")], subject: message.subject))
        }
        return diagnostics
    }
}
