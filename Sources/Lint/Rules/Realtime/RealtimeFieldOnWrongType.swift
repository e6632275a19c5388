import Diagnostics
import Model

/// Finds `switchTo` or `billingPlanType` on a message that is not a switch-plan message and
/// `offer` on one that is not a promotional-offer message.
struct RealtimeFieldOnWrongType: LintRule {
    static let info = RuleInfo(
        code: "PRJ011", name: "realtime-field-on-wrong-type", severity: .error,
        summary: "`switchTo` or `billingPlanType` is on a message that is not a switch-plan message, or `offer` on one that is not a promotional-offer message.",
        rationale: "A realtime answer uses `switchTo` and `billingPlanType` only for a switch-plan message (`alternateProduct`) and `offer` only for a promotional-offer message (`promotionalOffer`). On any other message the field would be ignored, which usually means the `type` is wrong.",
        examples: [
            .validFile("messages/example.yaml", RealtimeExampleFiles.messages(), extraFiles: ["msgc.yaml": RealtimeExampleFiles.config()]),
            .validFile(
                "messages/example.yaml",
                RealtimeExampleFiles.messages(switchLine: "switchTo: com.example.news.premium.monthly\n    billingPlanType: monthly"),
                extraFiles: ["msgc.yaml": RealtimeExampleFiles.config()]),
            .invalidFile(
                "messages/example.yaml", RealtimeExampleFiles.messages(winbackExtra: "\n    ⟦offer⟧: premium.half_price"),
                extraFiles: ["msgc.yaml": RealtimeExampleFiles.config()]),
            .invalidFile(
                "messages/example.yaml", RealtimeExampleFiles.messages(winbackExtra: "\n    ⟦billingPlanType⟧: billed-upfront"),
                extraFiles: ["msgc.yaml": RealtimeExampleFiles.config()]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for message in context.catalog.messages {
            let type = message.type.value
            if let target = message.switchTo, type != .switchPlan {
                diagnostics.append(finding("switchTo", at: target, message: message, belongsTo: .switchPlan))
            }
            if let plan = message.billingPlanType, type != .switchPlan {
                diagnostics.append(finding("billingPlanType", at: plan.map(\.rawValue), message: message, belongsTo: .switchPlan))
            }
            if let offer = message.offer, type != .promotionalOffer {
                diagnostics.append(finding("offer", at: offer, message: message, belongsTo: .promotionalOffer))
            }
        }
        return diagnostics
    }

    private func finding(_ key: String, at value: Located<String>, message: Message, belongsTo type: MessageType) -> Diagnostic {
        // The key sits before the value: `offer: ID`.
        var location = value.location
        location.column = location.column.map { $0 - key.unicodeScalars.count - 2 }
        return diagnose(
            "'\(key)' belongs to \(type.rawValue) messages; '\(message.key.value)' is a \(message.type.value.rawValue) message",
            at: location.spanning(scalars: key.unicodeScalars.count),
            fixIts: [FixIt("remove '\(key)', or make the message's type \(type.rawValue)")], subject: message.subject)
    }
}
