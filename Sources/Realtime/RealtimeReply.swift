/// What a server sends back for one realtime request, and what its log line and metrics say.
public struct RealtimeReply: Sendable {
    public enum Outcome: Sendable, Hashable {
        /// 200 with Apple's `RealtimeResponseBody` carrying this kind of answer.
        case answered(RealtimeSnapshot.Answer.Kind)
        /// Verified, but the snapshot has nothing usable for the product and locale: a fast
        /// `RealtimeReply.unansweredStatus`, and Apple falls back to its default message.
        case unanswered
        case refused(RealtimeRefusal)
    }

    /// Why a verified request got no answer: the `reason` of its log line and of
    /// `msgc_realtime_unanswered_total`.
    public enum Unanswered: String, Sendable, CaseIterable {
        /// The snapshot has no such product.
        case unknownProduct = "unknown-product"
        /// None of the product's locales answers the device's `userLocale`.
        case noLocale = "no-locale"
        /// The locale has messages, but none the choice can use (an offer without the key, a
        /// switch without its product).
        case nothingUsable = "nothing-usable"
    }

    /// The status of a verified request with nothing to answer: 404 (no message for this
    /// product and locale). Apple takes only a 200 as an answer and shows its default otherwise.
    public static let unansweredStatus = 404

    /// 200 answered; `unansweredStatus`; a refusal's `status`.
    public var status: Int
    /// The bytes to send: JSON (`application/json`), empty when not answered.
    public var body: [UInt8]
    public var outcome: Outcome
    // For the log line: never the payload, a token or a key. Nil where the request did not get
    // that far (a refused request has none of them before its payload is verified).
    public var requestIdentifier: String?
    public var productId: String?
    public var userLocale: String?
    /// The snapshot's locale that answered `userLocale`.
    public var locale: String?
    public var messageKey: String?
    public var messageIdentifier: String?
    /// Set when `outcome` is `unanswered`.
    public var unansweredReason: Unanswered?

    public init(
        status: Int, body: [UInt8], outcome: Outcome, requestIdentifier: String? = nil, productId: String? = nil,
        userLocale: String? = nil, locale: String? = nil, messageKey: String? = nil, messageIdentifier: String? = nil
    ) {
        self.status = status
        self.body = body
        self.outcome = outcome
        self.requestIdentifier = requestIdentifier
        self.productId = productId
        self.userLocale = userLocale
        self.locale = locale
        self.messageKey = messageKey
        self.messageIdentifier = messageIdentifier
    }

    static func refused(_ reason: RealtimeRefusal) -> RealtimeReply {
        RealtimeReply(status: reason.status, body: [], outcome: .refused(reason))
    }
}
