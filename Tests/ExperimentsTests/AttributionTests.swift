@testable import Experiments
import Testing

/// The outcome definition of docs/experiments.md, edge by edge: one subscriber (or two), one
/// experiment, a 48-hour window from a first exposure at t₀ = 1,000,000,000 ms.
struct AttributionTests {
    static let hour: Int64 = 3_600_000
    static let window = 48 * hour
    static let t0: Int64 = 1_000_000_000
    static let later = t0 + 1000 * hour

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var exposures: [Exposure]
        var events: [SubscriberEvent]
        var now: Int64 = AttributionTests.later
        /// (subject, arm, outcome) in the attribution's order.
        var expected: [String]
        var testDescription: String { name }
    }

    static func exposure(_ subject: String = "s1", at time: Int64 = t0, arm: String = "half-price", marked: Bool = false) -> Exposure {
        Exposure(subject: subject, time: time, product: "yearly", experiment: "half-price=1,winback=1", arm: arm, weight: 1,
                 offerIdentifier: arm == "half-price" ? "half" : nil, switchTo: arm == "winback" ? "monthly" : nil, marked: marked)
    }

    static func event(_ kind: SubscriberEvent.Kind, at offset: Int64, uuid: String, subject: String = "s1") -> SubscriberEvent {
        SubscriberEvent(subject: subject, signedDate: t0 + offset, notificationUUID: uuid, kind: kind)
    }

    static let cases: [Case] = [
        Case(name: "no notification: stayed", exposures: [exposure()], events: [], expected: ["s1 half-price stayed"]),
        Case(name: "disabled within the window: cancelled", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1")], expected: ["s1 half-price cancelled"]),
        Case(name: "disabled then re-enabled within the window: stayed", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1"), event(.autoRenewEnabled, at: 2 * hour, uuid: "n2")],
             expected: ["s1 half-price stayed"]),
        Case(name: "re-enabled after the window's end: still cancelled", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1"), event(.autoRenewEnabled, at: window + hour, uuid: "n2")],
             expected: ["s1 half-price cancelled"]),
        Case(name: "disabled, enabled, disabled again within the window: cancelled", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1"), event(.autoRenewEnabled, at: 2 * hour, uuid: "n2"),
                      event(.autoRenewDisabled, at: 3 * hour, uuid: "n3")],
             expected: ["s1 half-price cancelled"]),
        Case(name: "disabled after the window: stayed", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: window + 1, uuid: "n1")], expected: ["s1 half-price stayed"]),
        Case(name: "disabled at the first exposure's millisecond: cancelled", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: 0, uuid: "n1")], expected: ["s1 half-price cancelled"]),
        Case(name: "disabled at the window's end exactly: outside it, stayed", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: window, uuid: "n1")], expected: ["s1 half-price stayed"]),
        Case(name: "disabled before the first exposure: ignored", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: -1, uuid: "n1")], expected: ["s1 half-price stayed"]),
        Case(name: "the arm's offer redeemed beats a cancellation", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1"), event(.offerRedeemed(offerIdentifier: "half"), at: 2 * hour, uuid: "n2")],
             expected: ["s1 half-price offerRedeemed"]),
        Case(name: "the arm's offer redeemed after the window still counts", exposures: [exposure()],
             events: [event(.offerRedeemed(offerIdentifier: "half"), at: window + hour, uuid: "n2")],
             expected: ["s1 half-price offerRedeemed"]),
        Case(name: "another offer redeemed is not the arm's", exposures: [exposure()],
             events: [event(.offerRedeemed(offerIdentifier: "other"), at: hour, uuid: "n1"), event(.autoRenewDisabled, at: 2 * hour, uuid: "n2")],
             expected: ["s1 half-price cancelled"]),
        Case(name: "the offer redeemed before the first exposure: ignored", exposures: [exposure()],
             events: [event(.offerRedeemed(offerIdentifier: "half"), at: -hour, uuid: "n1")], expected: ["s1 half-price stayed"]),
        Case(name: "switched to the arm's product beats a cancellation", exposures: [exposure(arm: "winback")],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1"), event(.switched(toProduct: "monthly"), at: 2 * hour, uuid: "n2")],
             expected: ["s1 winback switched"]),
        Case(name: "switched to another product: not the arm's doing", exposures: [exposure(arm: "winback")],
             events: [event(.switched(toProduct: "weekly"), at: hour, uuid: "n1")], expected: ["s1 winback stayed"]),
        Case(name: "an offer beats a switch", exposures: [exposure()],
             events: [event(.switched(toProduct: "monthly"), at: hour, uuid: "n1"), event(.offerRedeemed(offerIdentifier: "half"), at: 2 * hour, uuid: "n2")],
             expected: ["s1 half-price offerRedeemed"]),
        Case(name: "an arm without an offer never counts one", exposures: [exposure(arm: "winback")],
             events: [event(.offerRedeemed(offerIdentifier: "half"), at: hour, uuid: "n1")], expected: ["s1 winback stayed"]),
        Case(name: "window not ended: pending, whatever happened", exposures: [exposure()],
             events: [event(.offerRedeemed(offerIdentifier: "half"), at: hour, uuid: "n1")], now: t0 + window - 1,
             expected: ["s1 half-price pending"]),
        Case(name: "window ended at now exactly: decided", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1")], now: t0 + window, expected: ["s1 half-price cancelled"]),
        Case(name: "events after now are left out", exposures: [exposure()],
             events: [event(.offerRedeemed(offerIdentifier: "half"), at: window + 2 * hour, uuid: "n1")], now: t0 + window + hour,
             expected: ["s1 half-price stayed"]),
        Case(name: "a disable and an enable at one signed date read as re-enabled", exposures: [exposure()],
             events: [event(.autoRenewEnabled, at: hour, uuid: "a"), event(.autoRenewDisabled, at: hour, uuid: "b")],
             expected: ["s1 half-price stayed"]),
        Case(name: "the same tie in the other input order", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "b"), event(.autoRenewEnabled, at: hour, uuid: "a")],
             expected: ["s1 half-price stayed"]),
        Case(name: "a retried notification counts once", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1"), event(.autoRenewEnabled, at: 2 * hour, uuid: "n2"),
                      event(.autoRenewDisabled, at: hour, uuid: "n1")],
             expected: ["s1 half-price stayed"]),
        Case(name: "a notificationUUID seen twice with different dates keeps the earlier", exposures: [exposure()],
             events: [event(.autoRenewDisabled, at: 3 * hour, uuid: "n1"), event(.autoRenewEnabled, at: 2 * hour, uuid: "n2"),
                      event(.autoRenewDisabled, at: hour, uuid: "n1")],
             expected: ["s1 half-price stayed"]),
        Case(name: "the first exposure's arm counts, whatever came later", exposures: [exposure(at: t0 + hour, arm: "winback"), exposure()],
             events: [event(.switched(toProduct: "monthly"), at: 2 * hour, uuid: "n1")], expected: ["s1 half-price stayed"]),
        Case(name: "a marked first exposure still names the subscriber's arm", exposures: [exposure(marked: true), exposure(at: t0 + hour, arm: "winback")],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1")], expected: ["s1 half-price cancelled"]),
        Case(name: "two first exposures at one time: the arm that sorts first", exposures: [exposure(arm: "winback"), exposure()],
             events: [], expected: ["s1 half-price stayed"]),
        Case(name: "another subscriber's notifications do not count", exposures: [exposure(), exposure("s2")],
             events: [event(.autoRenewDisabled, at: hour, uuid: "n1", subject: "s2")],
             expected: ["s1 half-price stayed", "s2 half-price cancelled"]),
        Case(name: "an exposure after now is left out", exposures: [exposure(at: later + 1)], events: [], expected: []),
        Case(name: "a first exposure near the end of time never overflows", exposures: [exposure(at: Int64.max - 5)], events: [], now: Int64.max,
             expected: ["s1 half-price pending"]),
    ]

    @Test(arguments: cases)
    func outcome(_ item: Case) {
        let attributions = Attribution.attribute(exposures: item.exposures, events: item.events, now: item.now, windowMilliseconds: Self.window)
        #expect(attributions.map { "\($0.subject) \($0.arm) \($0.outcome.rawValue)" } == item.expected)
    }

    @Test func aSubscriberCountsOncePerExperiment() {
        let other = Exposure(subject: "s1", time: Self.t0, product: "yearly", experiment: "half-price=1", arm: "half-price", weight: 1, offerIdentifier: "half")
        let attributions = Attribution.attribute(
            exposures: [Self.exposure(), Self.exposure(at: Self.t0 + 5), other], events: [], now: Self.later, windowMilliseconds: Self.window)
        #expect(attributions.map(\.experiment) == ["half-price=1", "half-price=1,winback=1"])
    }
}
