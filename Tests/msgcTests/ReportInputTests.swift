import ExperimentStore
import Experiments
@testable import msgc_realtime
import Testing

/// The store's rows as the report reads them (`ReportInput`): which decisions are exposures,
/// which are marked, where an arm's offer, switch-to product and weight come from, and which
/// notifications are events.
struct ReportInputTests {
    static let key = try! SubjectKey(bytes: Array(repeating: 7, count: 32))
    static let alice = key.hash(originalTransactionId: "1000")
    static let bob = key.hash(originalTransactionId: "1001")
    static let product = "com.example.plus.yearly"
    static let experiment = "go-monthly=1,half-price=2"

    static func decision(
        _ time: Int64, _ subject: SubjectHash?, arm: String?, kind: String = "message", answer: String? = nil,
        assignment: Decision.Assignment = .first, arms: String = experiment
    ) -> Decision {
        Decision(
            timeMilliseconds: time, environment: "Production", requestId: "r\(time)", product: product, deviceLocale: "en-US",
            answeringLocale: "en-US", experimentId: experiment, arms: arms, bundleDigest: "sha256:0", arm: arm, answerKind: kind,
            answer: answer ?? arm, snapshotGeneration: 1, subject: subject, assignment: assignment)
    }

    static func notification(
        _ uuid: String, _ subject: SubjectHash, _ date: Int64, type: String, subtype: String? = nil, offer: String? = nil,
        product: String? = nil, relevant: Bool = true
    ) -> StoredNotification {
        StoredNotification(
            notificationUUID: uuid, subject: subject, signedDateMilliseconds: date, type: type, subtype: subtype, offerIdentifier: offer,
            autoRenewProductId: product, autoRenewStatus: nil, environment: "Production", receivedMilliseconds: date, isRelevant: relevant)
    }

    @Test func decisionsBecomeExposuresWithTheirArmsOfferAndSwitch() {
        let decisions = [
            // Alice's first exposure is marked: her arm's offer comes from Bob's unmarked one.
            Self.decision(1, Self.alice, arm: "half-price", kind: "message", answer: "plain", assignment: .marked),
            Self.decision(2, Self.bob, arm: "half-price", kind: "offer", answer: "plus.half"),
            Self.decision(3, Self.bob, arm: "half-price", kind: "message", answer: "plain", assignment: .hashed),
            Self.decision(4, Self.alice, arm: "go-monthly", kind: "product", answer: "com.example.plus.monthly", assignment: .sticky),
            Self.decision(5, Self.alice, arm: nil, kind: "declined", answer: nil, assignment: .none),
            Self.decision(6, nil, arm: "half-price", kind: "offer", answer: "plus.half", assignment: .first),
            Self.decision(7, Self.bob, arm: "half-price", kind: "offer", answer: "plus.half", assignment: .none),
        ]
        let input = ReportInput(decisions: decisions, notifications: [])
        let half = (offer: "plus.half" as String?, switchTo: nil as String?)
        #expect(input.exposures == [
            Exposure(subject: Self.alice.hex, time: 1, product: Self.product, experiment: Self.experiment, arm: "half-price", weight: 2,
                     offerIdentifier: half.offer, switchTo: half.switchTo, marked: true),
            Exposure(subject: Self.bob.hex, time: 2, product: Self.product, experiment: Self.experiment, arm: "half-price", weight: 2,
                     offerIdentifier: half.offer, marked: false),
            Exposure(subject: Self.bob.hex, time: 3, product: Self.product, experiment: Self.experiment, arm: "half-price", weight: 2,
                     offerIdentifier: half.offer, marked: true),
            Exposure(subject: Self.alice.hex, time: 4, product: Self.product, experiment: Self.experiment, arm: "go-monthly", weight: 1,
                     switchTo: "com.example.plus.monthly", marked: false),
        ])
        #expect(input.definitions == [
            ExperimentDefinition(product: Self.product, experiment: Self.experiment, arms: [
                ExperimentArm(message: "go-monthly", weight: 1, switchTo: "com.example.plus.monthly"),
                ExperimentArm(message: "half-price", weight: 2, offerIdentifier: "plus.half"),
            ])
        ])
    }

    @Test func anArmNobodySawIsStillDefinedAndAnArmNotListedWeighsOne() {
        let input = ReportInput(
            decisions: [Self.decision(1, Self.alice, arm: "stray", arms: "a=3,b%2Cc=1")], notifications: [])
        #expect(input.definitions.map(\.arms) == [[ExperimentArm(message: "a", weight: 3), ExperimentArm(message: "b,c", weight: 1)]])
        #expect(input.exposures.map(\.weight) == [1])
    }

    @Test(arguments: [
        ("a=1,b=2", [("a", 1), ("b", 2)]),
        ("x%3Dy=1,%25=4", [("x=y", 1), ("%", 4)]),
        ("a=1,", nil), ("a=0", nil), ("a", nil), ("=1", nil), ("a=1,a=2", nil), ("a%2=1", nil), ("a%41=1", nil), ("", nil), ("a=1=2", nil),
    ] as [(String, [(String, Int)]?)])
    func armsTextIsReadAsTheIdentifierWritesIt(text: String, expected: [(String, Int)]?) {
        let read = ReportInput.weights(text)
        #expect(read?.map(\.message) == expected?.map(\.0))
        #expect(read?.map(\.weight) == expected?.map(\.1))
    }

    @Test func relevantNotificationsBecomeEvents() {
        let notifications = [
            Self.notification("u1", Self.alice, 10, type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED"),
            Self.notification("u2", Self.alice, 11, type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED"),
            Self.notification("u3", Self.bob, 12, type: "OFFER_REDEEMED", subtype: "UPGRADE", offer: "plus.half"),
            Self.notification("u4", Self.bob, 13, type: "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", product: "monthly"),
            // Nothing the report can read: an offer or a switch that names nothing, another type.
            Self.notification("u5", Self.bob, 14, type: "OFFER_REDEEMED"),
            Self.notification("u6", Self.bob, 15, type: "DID_CHANGE_RENEWAL_PREF"),
            Self.notification("u7", Self.bob, 16, type: "EXPIRED", subtype: "VOLUNTARY", relevant: false),
            Self.notification("u8", Self.bob, 17, type: "DID_CHANGE_RENEWAL_STATUS", subtype: "SOMETHING_NEW"),
            Self.notification("u9", Self.bob, 18, type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", relevant: false),
        ]
        let events = ReportInput(decisions: [], notifications: notifications).events
        #expect(events == [
            SubscriberEvent(subject: Self.alice.hex, signedDate: 10, notificationUUID: "u1", kind: .autoRenewDisabled),
            SubscriberEvent(subject: Self.alice.hex, signedDate: 11, notificationUUID: "u2", kind: .autoRenewEnabled),
            SubscriberEvent(subject: Self.bob.hex, signedDate: 12, notificationUUID: "u3", kind: .offerRedeemed(offerIdentifier: "plus.half")),
            SubscriberEvent(subject: Self.bob.hex, signedDate: 13, notificationUUID: "u4", kind: .switched(toProduct: "monthly")),
        ])
    }

    /// `--window` through `DurationText` (ModelTests has the grammar): one minute to 90 days,
    /// never a bare number.
    @Test(arguments: [
        ("48h", 48 * 3_600_000), ("7d", 7 * 86_400_000), ("1d12h", 36 * 3_600_000), ("90m", 90 * 60_000), ("90d", 90 * 86_400_000),
        ("59s", nil), ("91d", nil), ("", nil), ("48", nil), ("h", nil), ("2w", nil), ("-1h", nil),
    ] as [(String, Int64?)])
    func windowsAreDurations(text: String, expected: Int64?) {
        #expect((try? ReportOptions.windowMilliseconds(text)) == expected)
    }

    @Test(arguments: [
        ("2026-11-01", 1_793_491_200_000), ("2026-11-01T12:00:00Z", 1_793_534_400_000), ("2026-11-01T12:00:00", 1_793_534_400_000),
        ("2026-11-01T14:00:00+02:00", 1_793_534_400_000), ("2026-11-01T12:00:00.250Z", 1_793_534_400_250),
        ("yesterday", nil), ("2026-13-01", nil), ("", nil), ("1793491200000", nil),
    ] as [(String, Int64?)])
    func datesAreISO8601InUTC(text: String, expected: Int64?) {
        #expect(ReportOptions.milliseconds(date: text) == expected)
    }
}
