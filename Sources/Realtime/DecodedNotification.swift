import Model

/// A verified App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`) with its
/// verified `signedTransactionInfo` and `signedRenewalInfo`, as far as an experiment needs it.
///
/// Read as Apple's library reads Apple's payloads: every member may be missing, `null` is the
/// same as absent, unknown members are ignored, and a `notificationType` or `subtype` Apple adds
/// later is kept as written (it is `notRelevant`, never refused). A member msgc reads that has
/// another JSON type (a number where a string belongs, a fraction or a string where a whole
/// number belongs, a string where an object belongs) is a malformed payload: Apple's converter
/// would turn `"1234567890"` into a number and `5` into `"5"`; Apple writes neither. Members msgc
/// does not read are not looked at, whatever their type.
public struct DecodedNotification: Hashable, Sendable {
    /// What the notification says about a subscriber's answer to a retention message
    /// (docs/realtime.md, "Verifying Apple's notifications").
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED: the subscriber cancelled.
        case autoRenewDisabled = "auto-renew-disabled"
        /// DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED: a cancellation taken back.
        case autoRenewEnabled = "auto-renew-enabled"
        /// OFFER_REDEEMED (any subtype): the transaction or renewal info names the offer.
        case offerRedeemed = "offer-redeemed"
        /// DID_CHANGE_RENEWAL_PREF (any subtype): the renewal info's `autoRenewProductId` is the
        /// product the subscription renews to.
        case renewalPreferenceChanged = "renewal-preference-changed"
        /// Everything else (TEST, SUBSCRIBED, EXPIRED, a type Apple adds later, a
        /// DID_CHANGE_RENEWAL_STATUS without a known subtype): verified, acknowledged, not counted.
        case notRelevant = "not-relevant"

        public init(notificationType: String?, subtype: String?) {
            switch (notificationType, subtype) {
            case ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"): self = .autoRenewDisabled
            case ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"): self = .autoRenewEnabled
            case ("OFFER_REDEEMED", _): self = .offerRedeemed
            case ("DID_CHANGE_RENEWAL_PREF", _): self = .renewalPreferenceChanged
            default: self = .notRelevant
            }
        }
    }

    /// The verified `signedTransactionInfo` (`JWSTransactionDecodedPayload`), the members read.
    public struct Transaction: Hashable, Sendable {
        public var originalTransactionId: String?
        public var transactionId: String?
        public var productId: String?
        public var offerIdentifier: String?
        /// Apple's `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
        public var offerType: Int?
        /// Milliseconds since 1970.
        public var signedDate: Int64?
        public var bundleId: String?
        public var environment: String?

        public init(
            originalTransactionId: String? = nil, transactionId: String? = nil, productId: String? = nil, offerIdentifier: String? = nil,
            offerType: Int? = nil, signedDate: Int64? = nil, bundleId: String? = nil, environment: String? = nil
        ) {
            self.originalTransactionId = originalTransactionId
            self.transactionId = transactionId
            self.productId = productId
            self.offerIdentifier = offerIdentifier
            self.offerType = offerType
            self.signedDate = signedDate
            self.bundleId = bundleId
            self.environment = environment
        }

        /// A verified `signedTransactionInfo`'s payload, read leniently (Apple's members may be
        /// missing or null; one of the wrong kind is an error).
        public init(payload: JSONDocument.Node) throws(JSONReadError) {
            let root = JSONCursor(payload, file: "signedTransactionInfo", reading: .lenient, naming: .path)
            self.init(
                originalTransactionId: try root.optionalString("originalTransactionId"), transactionId: try root.optionalString("transactionId"),
                productId: try root.optionalString("productId"), offerIdentifier: try root.optionalString("offerIdentifier"),
                offerType: try root.optionalInteger("offerType"), signedDate: try root.optionalInteger("signedDate").map(Int64.init),
                bundleId: try root.optionalString("bundleId"), environment: try root.optionalString("environment"))
        }
    }

    /// The verified `signedRenewalInfo` (`JWSRenewalInfoDecodedPayload`), the members read.
    public struct RenewalInfo: Hashable, Sendable {
        public var originalTransactionId: String?
        public var productId: String?
        /// The product the subscription renews to.
        public var autoRenewProductId: String?
        /// Apple's `autoRenewStatus`: 0 off, 1 on.
        public var autoRenewStatus: Int?
        public var offerIdentifier: String?
        public var offerType: Int?
        /// Milliseconds since 1970.
        public var signedDate: Int64?
        public var environment: String?

        public init(
            originalTransactionId: String? = nil, productId: String? = nil, autoRenewProductId: String? = nil, autoRenewStatus: Int? = nil,
            offerIdentifier: String? = nil, offerType: Int? = nil, signedDate: Int64? = nil, environment: String? = nil
        ) {
            self.originalTransactionId = originalTransactionId
            self.productId = productId
            self.autoRenewProductId = autoRenewProductId
            self.autoRenewStatus = autoRenewStatus
            self.offerIdentifier = offerIdentifier
            self.offerType = offerType
            self.signedDate = signedDate
            self.environment = environment
        }

        /// A verified `signedRenewalInfo`'s payload, read leniently.
        public init(payload: JSONDocument.Node) throws(JSONReadError) {
            let root = JSONCursor(payload, file: "signedRenewalInfo", reading: .lenient, naming: .path)
            self.init(
                originalTransactionId: try root.optionalString("originalTransactionId"), productId: try root.optionalString("productId"),
                autoRenewProductId: try root.optionalString("autoRenewProductId"), autoRenewStatus: try root.optionalInteger("autoRenewStatus"),
                offerIdentifier: try root.optionalString("offerIdentifier"), offerType: try root.optionalInteger("offerType"),
                signedDate: try root.optionalInteger("signedDate").map(Int64.init), environment: try root.optionalString("environment"))
        }
    }

    public var notificationUUID: String?
    /// As Apple writes it (`DID_CHANGE_RENEWAL_STATUS`), known to msgc or not.
    public var notificationType: String?
    public var subtype: String?
    /// Milliseconds since 1970: when Apple signed the notification; a retry keeps it.
    public var signedDate: Int64?
    /// The app and environment, from the first of `data`, `summary`, `externalPurchaseToken` and
    /// `appData` that is there, as Apple's library takes them (an external purchase token's
    /// environment is `Sandbox` when its `externalPurchaseId` starts with `SANDBOX`, else
    /// `Production`).
    public var environment: String?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var transaction: Transaction?
    public var renewalInfo: RenewalInfo?

    public var kind: Kind { Kind(notificationType: notificationType, subtype: subtype) }
    /// The transaction's, else the renewal info's: what links a notification to the subscriber
    /// of a realtime request.
    public var originalTransactionId: String? { transaction?.originalTransactionId ?? renewalInfo?.originalTransactionId }
    /// The offer redeemed: the transaction's, else the renewal info's.
    public var offerIdentifier: String? { transaction?.offerIdentifier ?? renewalInfo?.offerIdentifier }
    /// The product the subscription renews to, from the renewal info.
    public var autoRenewProductId: String? { renewalInfo?.autoRenewProductId }

    public init(
        notificationUUID: String? = nil, notificationType: String? = nil, subtype: String? = nil, signedDate: Int64? = nil,
        environment: String? = nil, bundleId: String? = nil, appAppleId: Int64? = nil, transaction: Transaction? = nil,
        renewalInfo: RenewalInfo? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }

    /// The outer payload, without its nested JWSs (which `NotificationVerifier` verifies and
    /// sets), and the nested JWSs' text. Public for what reads a payload whose signature was
    /// checked elsewhere, and for the fuzz harness (Fuzz/NotificationFuzzer.swift), which reaches
    /// it with payloads no signature covers.
    public static func read(payload: JSONDocument.Node) throws(JSONReadError) -> (notification: DecodedNotification, signedTransactionInfo: String?, signedRenewalInfo: String?) {
        let root = JSONCursor(payload, file: "the notification's payload", reading: .lenient, naming: .path)
        var notification = DecodedNotification(
            notificationUUID: try root.optionalString("notificationUUID"), notificationType: try root.optionalString("notificationType"),
            subtype: try root.optionalString("subtype"), signedDate: try root.optionalInteger("signedDate").map(Int64.init))
        var signedTransactionInfo: String?, signedRenewalInfo: String?
        // Apple's library: data, else summary, else externalPurchaseToken, else appData; an
        // object that is there counts even when it lacks the members (they are then nil).
        if let data = try root.member("data")?.object() {
            try notification.readApp(data)
            notification.environment = try data.optionalString("environment")
            signedTransactionInfo = try data.optionalString("signedTransactionInfo")
            signedRenewalInfo = try data.optionalString("signedRenewalInfo")
        } else if let summary = try root.member("summary")?.object() {
            try notification.readApp(summary)
            notification.environment = try summary.optionalString("environment")
        } else if let token = try root.member("externalPurchaseToken")?.object() {
            try notification.readApp(token)
            let isSandbox = try token.optionalString("externalPurchaseId")?.hasPrefix("SANDBOX") ?? false
            notification.environment = isSandbox ? "Sandbox" : "Production"
        } else if let appData = try root.member("appData")?.object() {
            try notification.readApp(appData)
            notification.environment = try appData.optionalString("environment")
        }
        return (notification, signedTransactionInfo, signedRenewalInfo)
    }

    private mutating func readApp(_ section: JSONCursor) throws(JSONReadError) {
        bundleId = try section.optionalString("bundleId")
        appAppleId = try section.optionalInteger("appAppleId").map(Int64.init)
    }
}
