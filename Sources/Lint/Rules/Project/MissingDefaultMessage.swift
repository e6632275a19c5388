import Diagnostics
import Model

/// Finds products without a default message.
///
/// Apple falls back to the default message when the realtime server does not answer and no
/// message is set up in App Store Connect; a product without one shows nothing in that case.
struct MissingDefaultMessage: LintRule {
    static let info = RuleInfo(
        code: "PRJ003", name: "missing-default-message", severity: .error,
        summary: "A product has no default message.",
        rationale: "Apple's fallback order is: the realtime server's answer; if it fails, times out or returns nothing usable, a retention message set up in App Store Connect for the subscription; only then the default message configured through the API. Without a default, a cancelling subscriber of that product sees no message at all when the first two are missing. A message set up in App Store Connect for a subscription hides every default configured for it.",
        examples: [
            .valid("default: true"),
            .invalidFile("msgc.yaml", """
                bundleId: com.example.news
                sourceLocale: en-US
                locales: [en-US]
                namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
                products:
                  - id: com.example.news.premium.yearly
                  - ⟦id⟧: com.example.news.premium.monthly
                """),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let productsWithDefault = Set(context.catalog.messages.filter(\.isDefaultMessage).map(\.product.value))
        let broken = BrokenSourceShadow(context.catalog)
        return context.config.products.compactMap { product in
            // A source with errors may hold the default: its own error says what to fix.
            guard !productsWithDefault.contains(product.id.value), !broken.mayHoldMessage(of: product.id.value) else { return nil }
            var location = product.id.location
            location.column = location.column.map { $0 - 4 }  // point at `id:`
            location = location.spanning(scalars: 2)
            return diagnose(
                "product '\(product.id.value)' has no default message", at: location,
                fixIts: [FixIt("mark one text message of this product `default: true`")])
        }
    }
}
