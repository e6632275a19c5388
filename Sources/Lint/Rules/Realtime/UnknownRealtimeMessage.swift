import Diagnostics
import Model

/// Finds `realtime:` entries that name no message of their product.
struct UnknownRealtimeMessage: LintRule {
    static let info = RuleInfo(
        code: "PRJ012", name: "unknown-realtime-message", severity: .error,
        summary: "A product's `realtime:` names a message key that no message of that product has.",
        rationale: "`realtime:` lists the messages a realtime server answers with for the product. A key no message of the product has (often a typo, or a message of another product) could never be answered with, and the list would silently mean less than it says.",
        examples: [
            .validFile("msgc.yaml", RealtimeExampleFiles.config(yearlyExtra: "    realtime: [half-price, go-monthly, winback]\n"), extraFiles: ["messages/example.yaml": RealtimeExampleFiles.messages()]),
            .invalidFile("msgc.yaml", RealtimeExampleFiles.config(yearlyExtra: "    realtime: [⟦half-prize⟧, winback]\n"), extraFiles: ["messages/example.yaml": RealtimeExampleFiles.messages()]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var keys: [String: Set<String>] = [:]
        for message in context.catalog.messages { keys[message.product.value, default: []].insert(message.key.value) }
        var diagnostics: [Diagnostic] = []
        let broken = BrokenSourceShadow(context.catalog)
        for product in context.config.products {
            let known = keys[product.id.value] ?? []
            for arm in product.realtime?.arms ?? [] where !known.contains(arm.message.value) {
                // A source with errors may hold the message: its own error says what to fix.
                if broken.mayHold(product: product.id.value, key: arm.message.value) { continue }
                let nearest = known.min { editDistance($0, arm.message.value) < editDistance($1, arm.message.value) }
                let fixIts = nearest.flatMap { editDistance($0, arm.message.value) <= 3 ? $0 : nil }.map {
                    [FixIt("did you mean '\($0)'?", edits: [.init(location: arm.message.valueSpan, replacement: $0)])]
                } ?? [FixIt("name a message key of product '\(product.id.value)'")]
                diagnostics.append(diagnose(
                    "realtime names '\(arm.message.value)', which no message of '\(product.id.value)' has", at: arm.message.valueSpan,
                    fixIts: fixIts))
            }
        }
        return diagnostics
    }
}
