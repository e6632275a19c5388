import Diagnostics
import Model

/// Finds two messages with the same key for the same product.
///
/// The key, with the product, names a message everywhere: in XLIFF unit ids, in identifiers
/// and in the bundle. Two messages with one name would overwrite each other's translations.
struct DuplicateMessageKey: LintRule {
    static let info = RuleInfo(
        code: "PRJ001", name: "duplicate-message-key", severity: .error,
        summary: "Two messages of one product share a key.",
        rationale: "A message is named by its product and key in XLIFF unit ids, identifiers and the bundle; two messages with one name would take each other's translations.",
        examples: [
            .valid("key: winback"),
            .invalidFile("messages/example.yaml", """
                messages:
                  - key: winback
                    product: com.example.news.premium.yearly
                    type: text
                    default: true
                    header: Stay with Premium
                    body: Keep reading without limits.
                  - key: ⟦winback⟧
                    product: com.example.news.premium.yearly
                    type: text
                    header: Before you go
                    body: Your saved articles stay here.
                """),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        // The index of each id's first message: a dictionary holding whole messages takes
        // their size again with every growth.
        let messages = context.catalog.messages
        var first: [String: Int] = [:]
        first.reserveCapacity(messages.count)
        var diagnostics: [Diagnostic] = []
        for (index, message) in messages.enumerated() {
            if let earlierIndex = first[message.id] {
                let earlier = messages[earlierIndex]
                diagnostics.append(diagnose(
                    "product '\(message.product.value)' already has a message with key '\(message.key.value)'",
                    at: message.key.valueSpan, notes: [Note("first defined here", at: earlier.key.valueSpan)],
                    fixIts: [FixIt("give this message a key of its own")], subject: message.subject))
            } else {
                first[message.id] = index
            }
        }
        return diagnostics
    }
}
