import Diagnostics
import Model

/// Finds messages for a product that `msgc.yaml` does not list.
struct UnknownProduct: LintRule {
    static let info = RuleInfo(
        code: "PRJ002", name: "unknown-product", severity: .error,
        summary: "A message names a product that msgc.yaml does not list.",
        rationale: "The product list decides which locales a message ships in and where its default configuration goes; a message for an unlisted product (often a typo in the identifier) would never ship.",
        examples: [
            .valid("product: com.example.news.premium.yearly"),
            .invalidFile("messages/offers.yaml", """
                messages:
                  - key: last-chance
                    product: ⟦com.example.news.premium.yaerly⟧
                    type: text
                    header: Before you go
                    body: Your saved articles stay here.
                """),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let known = context.config.products.map(\.id.value)
        let isKnown = Set(known)
        return context.catalog.messages.compactMap { (message: Message) -> Diagnostic? in
            let product = message.product.value
            guard !isKnown.contains(product) else { return nil }
            let nearest = known.min { editDistance($0, product) < editDistance($1, product) }
            var fixIts: [FixIt] = []
            if let nearest, editDistance(nearest, product) <= 3 {
                fixIts.append(FixIt("did you mean '\(nearest)'?", edits: [.init(location: message.product.valueSpan, replacement: nearest)]))
            } else {
                fixIts.append(FixIt("add '\(product)' to `products` in msgc.yaml"))
            }
            return diagnose(
                "product '\(product)' is not listed in msgc.yaml", at: message.product.valueSpan, fixIts: fixIts,
                subject: message.subject)
        }
    }
}
