/// What an App Store Server Notification V2 said a subscriber did, as the report reads it (the
/// store makes these from verified notifications; notification types that do not matter here
/// never become events).
///
/// Apple retries a notification with the same `notificationUUID` and `signedDate`: events with
/// a `notificationUUID` already seen are counted once (the one that sorts first by signed date,
/// kind and subject, should two ever differ). Events signed before a subscriber's first
/// exposure, or after the report's `now`, are left out.
public struct SubscriberEvent: Hashable, Sendable {
    /// What the notification says happened.
    public enum Kind: Hashable, Sendable {
        /// DID_CHANGE_RENEWAL_STATUS with subtype AUTO_RENEW_DISABLED.
        case autoRenewDisabled
        /// DID_CHANGE_RENEWAL_STATUS with subtype AUTO_RENEW_ENABLED.
        case autoRenewEnabled
        /// OFFER_REDEEMED; the transaction or renewal info's offerIdentifier.
        case offerRedeemed(offerIdentifier: String)
        /// DID_CHANGE_RENEWAL_PREF; the renewal info's autoRenewProductId.
        case switched(toProduct: String)

        /// The order of kinds at one signed date: a disable before an enable (so a subscriber who
        /// did both in one instant ends re-enabled), then offers, then switches.
        var rank: Int {
            switch self {
            case .autoRenewDisabled: 0
            case .autoRenewEnabled: 1
            case .offerRedeemed: 2
            case .switched: 3
            }
        }

        /// The kind's text (offer identifier or product), for ordering within a rank.
        var detail: String {
            switch self {
            case .autoRenewDisabled, .autoRenewEnabled: ""
            case .offerRedeemed(let offer): offer
            case .switched(let product): product
            }
        }
    }

    /// The subscriber: the same keyed hash of the originalTransactionId as `Exposure.subject`.
    public var subject: String
    /// The notification's signedDate, in milliseconds since 1970-01-01T00:00:00Z.
    public var signedDate: Int64
    /// The notification's notificationUUID.
    public var notificationUUID: String
    public var kind: Kind

    public init(subject: String, signedDate: Int64, notificationUUID: String, kind: Kind) {
        self.subject = subject
        self.signedDate = signedDate
        self.notificationUUID = notificationUUID
        self.kind = kind
    }

    /// The order events are read in: signed date, then kind (`Kind.rank`), its text, the
    /// notificationUUID and the subject, all compared bytewise, so ties never depend on input order.
    static func precedes(_ lhs: SubscriberEvent, _ rhs: SubscriberEvent) -> Bool {
        if lhs.signedDate != rhs.signedDate { return lhs.signedDate < rhs.signedDate }
        if lhs.kind.rank != rhs.kind.rank { return lhs.kind.rank < rhs.kind.rank }
        for (left, right) in [(lhs.kind.detail, rhs.kind.detail), (lhs.notificationUUID, rhs.notificationUUID), (lhs.subject, rhs.subject)]
        where left != right {
            return Array(left.utf8).lexicographicallyPrecedes(right.utf8)
        }
        return false
    }
}
