import ExperimentStore
import Experiments
import Realtime

/// The store's rows as the experiment report reads them: decisions become `Exposure`s and
/// `ExperimentDefinition`s, relevant notifications become `SubscriberEvent`s
/// (docs/experiments.md, "msgc realtime report").
///
/// Which exposure counts for a subscriber (the first) is `Experiments`' business; this only
/// translates, dropping what names no subscriber or no arm. A pure function of its input, in
/// the order given, so the same store content gives the same report.
struct ReportInput: Equatable {
    var exposures: [Exposure]
    var events: [SubscriberEvent]
    var definitions: [ExperimentDefinition]

    /// `decisions` in the store's order (time, then request id), as `ExperimentStore.exposures`
    /// gives them, and the notifications `ExperimentStore.events` gives.
    init(decisions: [Decision], notifications: [StoredNotification]) {
        // An arm's offer and switch-to product are what it answered when it answered itself
        // (first or sticky): a marked or hashed exposure was answered by something else.
        var answers: [ArmKey: (offer: String?, switchTo: String?)] = [:]
        for decision in decisions where decision.assignment == .first || decision.assignment == .sticky {
            guard let arm = decision.arm else { continue }
            let key = ArmKey(product: decision.product, experiment: decision.experimentId, arm: arm)
            guard answers[key] == nil else { continue }
            switch decision.answerKind {
            case "offer": answers[key] = (decision.answer, nil)
            case "product": answers[key] = (nil, decision.answer)
            case "message": answers[key] = (nil, nil)
            default: continue
            }
        }
        var definitions: [ExperimentKey: ExperimentDefinition] = [:]
        var definitionOrder: [ExperimentKey] = []
        var exposures: [Exposure] = []
        for decision in decisions {
            let experimentKey = ExperimentKey(product: decision.product, experiment: decision.experimentId)
            if definitions[experimentKey] == nil, let weights = Self.weights(decision.arms) ?? Self.weights(decision.experimentId) {
                let arms = weights.map { message, weight in
                    let answer = answers[ArmKey(product: decision.product, experiment: decision.experimentId, arm: message)]
                    return ExperimentArm(message: message, weight: weight, offerIdentifier: answer?.offer ?? nil, switchTo: answer?.switchTo ?? nil)
                }
                definitions[experimentKey] = ExperimentDefinition(product: decision.product, experiment: decision.experimentId, arms: arms)
                definitionOrder.append(experimentKey)
            }
            guard let exposure = Self.exposure(decision, answers: answers, definition: definitions[experimentKey]) else { continue }
            exposures.append(exposure)
        }
        self.exposures = exposures
        self.definitions = definitionOrder.compactMap { definitions[$0] }
        self.events = notifications.compactMap(Self.event)
    }

    /// The exposure a decision records, or nil when it names no subscriber or no arm (no
    /// experiment). `marked` and `hashed` decisions are marked exposures: the subscriber was
    /// answered with something other than their settled arm.
    static func exposure(
        _ decision: Decision, answers: [ArmKey: (offer: String?, switchTo: String?)], definition: ExperimentDefinition?
    ) -> Exposure? {
        guard let subject = decision.subject, let arm = decision.arm, decision.assignment != .none else { return nil }
        let answer = answers[ArmKey(product: decision.product, experiment: decision.experimentId, arm: arm)]
        // An arm the recorded arms do not list (a store written by hand, or damaged) still
        // counts, with weight 1: the sample-ratio check then says the split is off.
        let weight = definition?.arms.first { $0.message == arm }?.weight ?? 1
        return Exposure(
            subject: subject.hex, time: decision.timeMilliseconds, product: decision.product, experiment: decision.experimentId,
            arm: arm, weight: weight, offerIdentifier: answer?.offer ?? nil, switchTo: answer?.switchTo ?? nil,
            marked: decision.assignment == .marked || decision.assignment == .hashed)
    }

    /// What a stored notification says a subscriber did, or nil for what the report does not
    /// read: a type that is not relevant, an OFFER_REDEEMED naming no offer, a
    /// DID_CHANGE_RENEWAL_PREF naming no product.
    static func event(_ notification: StoredNotification) -> SubscriberEvent? {
        guard notification.isRelevant else { return nil }
        let kind: SubscriberEvent.Kind
        switch DecodedNotification.Kind(notificationType: notification.type, subtype: notification.subtype) {
        case .autoRenewDisabled: kind = .autoRenewDisabled
        case .autoRenewEnabled: kind = .autoRenewEnabled
        case .offerRedeemed:
            guard let offer = notification.offerIdentifier else { return nil }
            kind = .offerRedeemed(offerIdentifier: offer)
        case .renewalPreferenceChanged:
            guard let product = notification.autoRenewProductId else { return nil }
            kind = .switched(toProduct: product)
        case .notRelevant: return nil
        }
        return SubscriberEvent(
            subject: notification.subject.hex, signedDate: notification.signedDateMilliseconds,
            notificationUUID: notification.notificationUUID, kind: kind)
    }

    /// The arms and weights of `text`, `message=weight` joined by `,` with `%`, `,` and `=` in a
    /// message written `%25`, `%2C` and `%3D` (`ExperimentDefinition.identifier(arms:)`), in
    /// the order written; nil unless every part reads as such, with a positive weight.
    static func weights(_ text: String) -> [(message: String, weight: Int)]? {
        guard !text.isEmpty else { return nil }
        var result: [(message: String, weight: Int)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", omittingEmptySubsequences: false)
            guard pieces.count == 2, let weight = Int(pieces[1]), weight > 0, let message = unescape(pieces[0]), !message.isEmpty,
                !result.contains(where: { $0.message == message })
            else { return nil }
            result.append((message, weight))
        }
        return result
    }

    private static func unescape(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var result = ""
        var rest = text[...]
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let code = rest[percent...].prefix(3)
            switch code.uppercased() {
            case "%25": result += "%"
            case "%2C": result += ","
            case "%3D": result += "="
            default: return nil
            }
            rest = rest[rest.index(percent, offsetBy: 3)...]
        }
        return result + rest
    }

    struct ArmKey: Hashable {
        var product: String
        var experiment: String
        var arm: String
    }

    struct ExperimentKey: Hashable {
        var product: String
        var experiment: String
    }
}
