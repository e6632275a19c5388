/// The facts of one verified App Store Server Notification V2 that the report reads: a row of
/// the `notifications` table. Never the signed payload itself, which carries the
/// originalTransactionId in base64.
///
/// Times are milliseconds since 1970 (UTC). `isRelevant` is false for a type the report does
/// not read: it is kept only so that Apple's retries of it are recognised.
public struct StoredNotification: Equatable, Sendable {
    public var notificationUUID: String
    public var subject: SubjectHash
    public var signedDateMilliseconds: Int64
    /// `notificationType`, such as `DID_CHANGE_RENEWAL_STATUS`.
    public var type: String
    /// `subtype`, such as `AUTO_RENEW_DISABLED`; nil when Apple sent none.
    public var subtype: String?
    public var offerIdentifier: String?
    public var autoRenewProductId: String?
    /// The renewal info's `autoRenewStatus` (0 off, 1 on); nil when it had none.
    public var autoRenewStatus: Int?
    public var environment: String
    public var receivedMilliseconds: Int64
    public var isRelevant: Bool

    public init(
        notificationUUID: String, subject: SubjectHash, signedDateMilliseconds: Int64, type: String, subtype: String?,
        offerIdentifier: String?, autoRenewProductId: String?, autoRenewStatus: Int?, environment: String,
        receivedMilliseconds: Int64, isRelevant: Bool
    ) {
        self.notificationUUID = notificationUUID
        self.subject = subject
        self.signedDateMilliseconds = signedDateMilliseconds
        self.type = type
        self.subtype = subtype
        self.offerIdentifier = offerIdentifier
        self.autoRenewProductId = autoRenewProductId
        self.autoRenewStatus = autoRenewStatus
        self.environment = environment
        self.receivedMilliseconds = receivedMilliseconds
        self.isRelevant = isRelevant
    }
}
