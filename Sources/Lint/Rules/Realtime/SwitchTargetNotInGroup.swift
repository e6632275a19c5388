import Diagnostics
import Model

/// Finds switch-plan messages whose `switchTo` is not another product of the same subscription group.
struct SwitchTargetNotInGroup: LintRule {
    static let info = RuleInfo(
        code: "PRJ010", name: "switch-target-not-in-group", severity: .error,
        summary: "A switch-plan message's `switchTo` is not another product of its product's subscription group.",
        rationale: "A realtime answer that offers another plan (`alternateProduct`) must name another subscription of the same subscription group; Apple ignores any other answer and falls back. msgc knows the groups from `group:` of each product in msgc.yaml, so `switchTo` must name a listed product other than the message's own, and both must give the same `group`.",
        examples: [
            .validFile("messages/example.yaml", RealtimeExampleFiles.messages(), extraFiles: ["msgc.yaml": RealtimeExampleFiles.config()]),
            .invalidFile(
                "messages/example.yaml", RealtimeExampleFiles.messages(switchLine: "switchTo: ⟦com.example.news.premium.monthly⟧"),
                extraFiles: ["msgc.yaml": RealtimeExampleFiles.config(monthlyGroup: "basic")]),
            .invalidFile(
                "messages/example.yaml", RealtimeExampleFiles.messages(switchLine: "switchTo: ⟦com.example.news.premium.yearly⟧"),
                extraFiles: ["msgc.yaml": RealtimeExampleFiles.config()]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var groups: [String: Located<String>?] = [:]
        for product in context.config.products where groups[product.id.value] == nil { groups[product.id.value] = product.group }
        return context.catalog.messages.compactMap { (message: Message) -> Diagnostic? in
            guard message.type.value == .switchPlan, let target = message.switchTo else { return nil }
            let own = message.product.value
            let problem: String
            let fix: String
            if target.value == own {
                problem = "switchTo names the message's own product '\(own)'"
                fix = "name another product of the same subscription group"
            } else if groups[target.value] == nil {
                problem = "switchTo names '\(target.value)', which msgc.yaml does not list"
                fix = "add '\(target.value)' to `products` in msgc.yaml with its `group`, or name a listed product"
            } else if let ownGroup = groups[own] ?? nil, let targetGroup = groups[target.value] ?? nil {
                guard ownGroup.value != targetGroup.value else { return nil }
                problem = "switchTo names '\(target.value)' of group '\(targetGroup.value)', but '\(own)' is in group '\(ownGroup.value)'"
                fix = "name a product of group '\(ownGroup.value)'; Apple offers only plans of the same subscription group"
            } else {
                let missing = [own, target.value].filter { (groups[$0] ?? nil) == nil }
                problem = "switchTo needs both products' subscription group, and msgc.yaml gives \(missing.map { "'\($0)'" }.joined(separator: " and ")) no `group`"
                fix = "add `group: NAME` to each product in msgc.yaml, as in App Store Connect"
            }
            return diagnose(problem, at: target.valueSpan, fixIts: [FixIt(fix)], subject: message.subject)
        }
    }
}
