/// Why an App Store Server Notification was refused, and in which of its signed parts: the
/// reasons (and their HTTP statuses) are a realtime request's (`RealtimeRefusal`), so that a
/// server's logs and metrics label both alike. A notification is never `stale` or `future`:
/// Apple retries it with the signedDate it first had.
public struct NotificationRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The part refused.
    public enum Part: String, Hashable, Sendable, CaseIterable {
        /// The HTTP body around `signedPayload` (`body-too-large`, `malformed-body`).
        case body
        /// The notification's own JWS and payload.
        case notification
        /// `data.signedTransactionInfo`.
        case transaction = "signed-transaction-info"
        /// `data.signedRenewalInfo`.
        case renewalInfo = "signed-renewal-info"
    }

    public var reason: RealtimeRefusal
    public var part: Part
    /// What was wrong with a malformed payload, where it is (`"data.appAppleId" must be a whole
    /// number`); nil for the other reasons.
    public var detail: String?

    public init(_ reason: RealtimeRefusal, in part: Part, detail: String? = nil) {
        self.reason = reason
        self.part = part
        self.detail = detail
    }

    /// 413 too large; 400 what cannot be read; 401 what is not shown to be Apple's (the chain,
    /// its OIDs, the signature, of the notification or a nested JWS); 403 Apple's notification
    /// for another app or environment.
    public var status: Int { reason.status }

    public var description: String {
        "\(part.rawValue): \(reason.rawValue)" + (detail.map { " (\($0))" } ?? "")
    }
}
