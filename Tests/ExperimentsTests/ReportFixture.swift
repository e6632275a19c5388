@testable import Experiments

/// Planted experiments: so many subscribers of each arm with each outcome, as exposures and
/// notifications, and the report made from them.
enum ReportFixture {
    static let hour: Int64 = 3_600_000
    static let start: Int64 = 1_750_000_000_000
    static let now = start + 30 * 24 * hour

    struct Plant {
        var arm: ExperimentArm
        var stayed = 0, cancelled = 0, offerRedeemed = 0, switched = 0, pending = 0, marked = 0
    }

    /// Exposures and events for `plants` in one experiment of `product`; subjects are
    /// `<product>/<arm>/<n>`, exposed an hour apart from `start` (pending ones an hour before `now`).
    static func plant(product: String, _ plants: [Plant]) -> (definition: ExperimentDefinition, exposures: [Exposure], events: [SubscriberEvent]) {
        let definition = ExperimentDefinition(product: product, arms: plants.map(\.arm))
        var exposures: [Exposure] = []
        var events: [SubscriberEvent] = []
        for plant in plants {
            var number = 0
            func expose(_ outcome: Outcome) {
                number += 1
                let subject = "\(product)/\(plant.arm.message)/\(number)"
                let time = outcome == .pending ? now - hour : start + Int64(number) * 60_000
                exposures.append(Exposure(
                    subject: subject, time: time, product: product, experiment: definition.experiment, arm: plant.arm.message,
                    weight: plant.arm.weight, offerIdentifier: plant.arm.offerIdentifier, switchTo: plant.arm.switchTo,
                    marked: number <= plant.marked))
                let uuid = "\(subject)/n"
                switch outcome {
                case .cancelled:
                    events.append(SubscriberEvent(subject: subject, signedDate: time + hour, notificationUUID: uuid, kind: .autoRenewDisabled))
                case .offerRedeemed:
                    events.append(SubscriberEvent(subject: subject, signedDate: time + 1000, notificationUUID: uuid,
                                                  kind: .offerRedeemed(offerIdentifier: plant.arm.offerIdentifier ?? "")))
                case .switched:
                    events.append(SubscriberEvent(subject: subject, signedDate: time + 1000, notificationUUID: uuid,
                                                  kind: .switched(toProduct: plant.arm.switchTo ?? "")))
                case .stayed, .pending: break
                }
            }
            for (outcome, count) in [(Outcome.stayed, plant.stayed), (.cancelled, plant.cancelled), (.offerRedeemed, plant.offerRedeemed),
                                     (.switched, plant.switched), (.pending, plant.pending)] {
                for _ in 0..<count { expose(outcome) }
            }
        }
        return (definition, exposures, events)
    }

    static func report(_ experiments: [(definition: ExperimentDefinition, exposures: [Exposure], events: [SubscriberEvent])]) -> ExperimentReport {
        ExperimentReport.make(
            exposures: experiments.flatMap(\.exposures), events: experiments.flatMap(\.events),
            definitions: experiments.map(\.definition), settings: ReportSettings(now: now))
    }

    /// The report the renderers' golden files show: a two-arm experiment with every outcome,
    /// pending and marked subscribers, and one whose product and keys need escaping in every
    /// format, with an arm nobody was exposed to.
    static let golden: ExperimentReport = report([
        plant(product: "com.example.yearly", [
            Plant(arm: ExperimentArm(message: "offer-half-price", weight: 1, offerIdentifier: "half-price-3m"),
                  stayed: 70, cancelled: 20, offerRedeemed: 30, pending: 5, marked: 3),
            Plant(arm: ExperimentArm(message: "winback", weight: 1, switchTo: "com.example.monthly"),
                  stayed: 70, cancelled: 30, switched: 10, pending: 4),
        ]),
        plant(product: "<b>odd & \"product\" | *x*", [
            Plant(arm: ExperimentArm(message: "a|b<i>", weight: 2), stayed: 9, cancelled: 3),
            Plant(arm: ExperimentArm(message: "c*d&e", weight: 1), stayed: 2, cancelled: 4),
            Plant(arm: ExperimentArm(message: "unused", weight: 1)),
        ]),
    ])
}
