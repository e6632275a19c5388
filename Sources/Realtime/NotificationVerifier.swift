import Bundle
import Foundation
import Model

/// Verifies and decodes App Store Server Notifications V2 as Apple's library does
/// (`SignedDataVerifier.verify_and_decode_notification`, then `verify_and_decode_signed_transaction`
/// and `verify_and_decode_renewal_info` for the nested JWSs), for one app and environment
/// (docs/realtime.md, "Verifying Apple's notifications").
///
/// In order, stopping at the first refusal:
/// 1. The body is at most `maxBodySize` and a JSON object with a string `signedPayload`.
/// 2. `signedPayload` is verified as every JWS Apple signs (`AppleSignedDataVerifier`: envelope,
///    header, chain to a trusted root at the payload's `signedDate`, Apple's OIDs, signature,
///    registered claims). There is no bound on `signedDate`'s age: Apple retries a notification
///    for days with the signedDate it first had.
/// 3. The payload is read (`DecodedNotification`); its app (`data`, else `summary`, else
///    `externalPurchaseToken`, else `appData`) must have the configured `bundleId` and, in
///    production, `appAppleId` (`wrong-app`), then the configured `environment`
///    (`wrong-environment`).
/// 4. `data.signedTransactionInfo`, when there, is verified the same way (at its own
///    `signedDate`), and must name the configured `bundleId` and `environment`.
/// 5. `data.signedRenewalInfo`, when there, likewise, and must name the configured `environment`
///    (Apple's renewal info carries no bundle id).
///
/// Thread-safe; it keeps only the chains that verified (see `AppleSignedDataVerifier`).
public final class NotificationVerifier: Sendable {
    public struct Configuration: Sendable {
        /// DER bytes of the trusted root certificates (default: Apple Root CA - G3).
        public var trustedRoots: [[UInt8]]
        public var bundleId: String
        public var environment: Environment
        /// The app's Apple ID: required in production (as Apple's library requires it). In
        /// sandbox, where Apple's notifications usually carry none, one that is there must be this
        /// one when it is given (Apple's library does not check it in sandbox).
        public var appAppleId: Int64?

        public init(
            trustedRoots: [[UInt8]] = [RealtimeResponder.Configuration.appleRootCAG3], bundleId: String, environment: Environment,
            appAppleId: Int64?
        ) {
            self.trustedRoots = trustedRoots
            self.bundleId = bundleId
            self.environment = environment
            self.appAppleId = appAppleId
        }
    }

    /// Why a configuration cannot verify anything.
    public struct ConfigurationProblem: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// The largest body read. A notification is three JWSs, each with three certificates (the
    /// nested two base64-encoded once more inside the outer payload): about 12 KB with the test
    /// PKI, a few kilobytes more with Apple's larger certificates.
    public static let maxBodySize = 64 << 10
    /// The longest nested `signedTransactionInfo` or `signedRenewalInfo`: about 6 KB each.
    public static let maxNestedJWSLength = 24 << 10

    public let configuration: Configuration
    private let verifier: AppleSignedDataVerifier
    private let environmentName: String

    public init(configuration: Configuration) throws(ConfigurationProblem) {
        guard let verifier = AppleSignedDataVerifier(trustedRoots: configuration.trustedRoots) else {
            throw ConfigurationProblem(description: "no trusted root certificate could be read (each must be one DER X.509 certificate)")
        }
        if configuration.environment == .production, configuration.appAppleId == nil {
            throw ConfigurationProblem(
                description: "production notifications need the app's Apple ID: Apple's notifications name it, and one for another app must be refused")
        }
        self.configuration = configuration
        self.verifier = verifier
        environmentName = DecodedRealtimeRequest.name(of: configuration.environment)
    }

    /// The notification in the HTTP body Apple posts (`{"signedPayload": …}`), or why it is
    /// refused. `now` is the time of receipt: it stands in for a missing `signedDate` and is
    /// what registered claims (`exp`, `nbf`, `iat`, which Apple does not send) are held to.
    public func verify(body: [UInt8], now: Date) -> Result<DecodedNotification, NotificationRefusal> {
        guard body.count <= Self.maxBodySize else { return .failure(NotificationRefusal(.bodyTooLarge, in: .body)) }
        guard let document = try? JSONDocument.parse(body), case .object = document.value,
            case .string(let signedPayload)? = document.member("signedPayload")?.value
        else { return .failure(NotificationRefusal(.malformedBody, in: .body)) }
        return verify(signedPayload: signedPayload, now: now)
    }

    /// The notification `signedPayload` (a line of `msgc realtime outcomes import`), or why it
    /// is refused.
    public func verify(signedPayload: String, now: Date) -> Result<DecodedNotification, NotificationRefusal> {
        let read: (notification: DecodedNotification, signedTransactionInfo: String?, signedRenewalInfo: String?)
        switch verifier.verify(signedPayload, maxLength: Self.maxBodySize, now: now) {
        case .failure(let refusal): return .failure(NotificationRefusal(refusal, in: .notification))
        case .success(let payload):
            do { read = try DecodedNotification.read(payload: payload) } catch {
                return .failure(NotificationRefusal(.malformedPayload, in: .notification, detail: error.description))
            }
        }
        var notification = read.notification
        if notification.bundleId != configuration.bundleId || !isThisApp(notification.appAppleId) {
            return .failure(NotificationRefusal(.wrongApp, in: .notification))
        }
        if notification.environment != environmentName { return .failure(NotificationRefusal(.wrongEnvironment, in: .notification)) }

        if let signedTransactionInfo = read.signedTransactionInfo {
            let transaction: DecodedNotification.Transaction
            switch verifier.verify(signedTransactionInfo, maxLength: Self.maxNestedJWSLength, now: now) {
            case .failure(let refusal): return .failure(NotificationRefusal(refusal, in: .transaction))
            case .success(let payload):
                do { transaction = try DecodedNotification.Transaction(payload: payload) } catch {
                    return .failure(NotificationRefusal(.malformedPayload, in: .transaction, detail: error.description))
                }
            }
            if transaction.bundleId != configuration.bundleId { return .failure(NotificationRefusal(.wrongApp, in: .transaction)) }
            if transaction.environment != environmentName { return .failure(NotificationRefusal(.wrongEnvironment, in: .transaction)) }
            notification.transaction = transaction
        }
        if let signedRenewalInfo = read.signedRenewalInfo {
            let renewalInfo: DecodedNotification.RenewalInfo
            switch verifier.verify(signedRenewalInfo, maxLength: Self.maxNestedJWSLength, now: now) {
            case .failure(let refusal): return .failure(NotificationRefusal(refusal, in: .renewalInfo))
            case .success(let payload):
                do { renewalInfo = try DecodedNotification.RenewalInfo(payload: payload) } catch {
                    return .failure(NotificationRefusal(.malformedPayload, in: .renewalInfo, detail: error.description))
                }
            }
            if renewalInfo.environment != environmentName { return .failure(NotificationRefusal(.wrongEnvironment, in: .renewalInfo)) }
            notification.renewalInfo = renewalInfo
        }
        return .success(notification)
    }

    /// Apple's rule in production (the app's Apple ID must be the configured one, and be
    /// there); in sandbox, msgc's: one that is there must be the configured one, if any.
    private func isThisApp(_ appAppleId: Int64?) -> Bool {
        switch configuration.environment {
        case .production: appAppleId == configuration.appAppleId
        case .sandbox: appAppleId == nil || configuration.appAppleId == nil || appAppleId == configuration.appAppleId
        }
    }
}
