import Diagnostics
import Model

/// Finds `realtime:` entries whose message a realtime answer cannot carry: a switch-plan
/// message without `switchTo`, a promotional-offer message without `offer`.
struct RealtimeMessageCannotAnswer: LintRule {
    static let info = RuleInfo(
        code: "PRJ013", name: "realtime-message-cannot-answer", severity: .warning,
        summary: "A product's `realtime:` lists a switch-plan message without `switchTo` or a promotional-offer message without `offer`.",
        rationale: "Apple's answer for a switch-plan message names the product it offers, and the answer for a promotional-offer message carries a signature for an offer of App Store Connect. Without `switchTo` or `offer` the realtime snapshot leaves the message out (and says so), so a server never answers with it, although `realtime:` lists it.",
        examples: [
            .validFile("msgc.yaml", RealtimeExampleFiles.config(yearlyExtra: "    realtime: [half-price, winback]\n"), extraFiles: ["messages/example.yaml": RealtimeExampleFiles.messages()]),
            .invalidFile(
                "msgc.yaml", RealtimeExampleFiles.config(yearlyExtra: "    realtime: [⟦half-price⟧, winback]\n"),
                extraFiles: ["messages/example.yaml": RealtimeExampleFiles.messages(offerLine: "note: The offer is not set up yet.")]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var messages: [String: Message] = [:]
        for message in context.catalog.messages { messages["\(message.product.value)/\(message.key.value)"] = messages["\(message.product.value)/\(message.key.value)"] ?? message }
        var diagnostics: [Diagnostic] = []
        for product in context.config.products {
            for arm in product.realtime?.arms ?? [] {
                guard let message = messages["\(product.id.value)/\(arm.message.value)"] else { continue }
                let missing: String
                switch message.type.value {
                case .switchPlan where message.switchTo == nil: missing = "switchTo"
                case .promotionalOffer where message.offer == nil: missing = "offer"
                default: continue
                }
                diagnostics.append(diagnose(
                    "realtime lists '\(arm.message.value)', a \(message.type.value.rawValue) message without '\(missing)'; no realtime answer can carry it",
                    at: arm.message.valueSpan,
                    fixIts: [FixIt(missing == "offer" ? "add `offer: OFFER_ID` (the promotional offer's identifier in App Store Connect) to the message" : "add `switchTo: PRODUCT_ID` (another product of the same group) to the message")]))
            }
        }
        return diagnostics
    }
}
