import Bundle
import Foundation
import Model
import Realtime

/// libFuzzer entry point for App Store Server Notifications V2: any bytes as the body Apple
/// posts, through `NotificationVerifier.verify(body:now:)` (the body's JSON, the outer JWS, its
/// chain and signature, the payload, the app and environment, then the nested
/// `signedTransactionInfo` and `signedRenewalInfo` the same way); the same bytes as a line of
/// `msgc realtime outcomes import` (`verify(signedPayload:now:)`); and every JWS payload in
/// them, unverified, straight to the readers (`DecodedNotification.read`, `Transaction`,
/// `RenewalInfo`), so mutations reach the readers a broken signature stops before.
///
/// The verifier trusts the test PKI's root (`TestPKI`), for com.example.parla (1234567890) in
/// production, so the seeds in Fuzz/Seeds/notifications, scripts/realtime-notifications.py's
/// valid and hostile bodies for `--now 1764100000000`, are accepted or refused as its manifest
/// says and their mutations explore every refusal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotification(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let verifier = NotificationHarness.verifier
    let bodyResult = verifier.verify(body: bytes, now: TestPKI.now)
    NotificationHarness.check(bodyResult, fromBody: true)
    var signedPayload: String?
    if let document = try? JSONDocument.parse(bytes), case .string(let text)? = document.member("signedPayload")?.value {
        signedPayload = text
    }
    if case .success(let notification) = bodyResult {
        // The body adds nothing to what its signedPayload says.
        guard let signedPayload else { preconditionFailure("accepted a body without a string signedPayload") }
        precondition(verifier.verify(signedPayload: signedPayload, now: TestPKI.now) == .success(notification), "the body and its signedPayload differ")
    }
    if let line = String(validating: bytes, as: UTF8.self) {
        NotificationHarness.check(verifier.verify(signedPayload: line, now: TestPKI.now), fromBody: false)
        NotificationHarness.readUnverified(line)
    }
    if let signedPayload { NotificationHarness.readUnverified(signedPayload) }
    if let payload = try? JSONDocument.parse(bytes) { NotificationHarness.read(payload) }
    return 0
}

enum NotificationHarness {
    static let bundleId = "com.example.parla"
    static let appAppleId: Int64 = 1_234_567_890

    static let verifier: NotificationVerifier = {
        do {
            return try NotificationVerifier(
                configuration: .init(trustedRoots: [TestPKI.root], bundleId: bundleId, environment: .production, appAppleId: appAppleId))
        } catch {
            preconditionFailure("the harness's verifier: \(error)")
        }
    }()

    /// What holds of every verdict: an accepted notification is this app's, in production, and
    /// so are its nested parts; a refusal is a 4xx whose part fits its reason.
    static func check(_ result: Result<DecodedNotification, NotificationRefusal>, fromBody: Bool) {
        switch result {
        case .success(let notification):
            precondition(notification.bundleId == bundleId && notification.appAppleId == appAppleId, "another app's notification accepted")
            precondition(notification.environment == "Production", "another environment's notification accepted")
            if let transaction = notification.transaction {
                precondition(transaction.bundleId == bundleId && transaction.environment == "Production", "another app's transaction accepted")
            }
            if let renewalInfo = notification.renewalInfo { precondition(renewalInfo.environment == "Production", "another environment's renewal info accepted") }
        case .failure(let refusal):
            precondition([400, 401, 403, 413].contains(refusal.status), "refused with \(refusal.status)")
            let aboutTheBody = refusal.reason == .bodyTooLarge || refusal.reason == .malformedBody
            precondition(aboutTheBody == (refusal.part == .body), "\(refusal) names the wrong part")
            precondition(fromBody || refusal.part != .body, "a signedPayload refused for its body")
            precondition(refusal.detail == nil || refusal.reason == .malformedPayload, "\(refusal) has a detail")
        }
    }

    /// The payload of a JWS, without checking its signature, to the notification's reader, and
    /// the payloads of the nested JWSs it names to theirs.
    static func readUnverified(_ jws: String) {
        guard let payload = payload(of: jws) else { return }
        read(payload)
    }

    static func read(_ payload: JSONDocument.Node) {
        if let read = try? DecodedNotification.read(payload: payload) {
            if let nested = read.signedTransactionInfo.flatMap(Self.payload(of:)) { _ = try? DecodedNotification.Transaction(payload: nested) }
            if let nested = read.signedRenewalInfo.flatMap(Self.payload(of:)) { _ = try? DecodedNotification.RenewalInfo(payload: nested) }
        }
        _ = try? DecodedNotification.Transaction(payload: payload)
        _ = try? DecodedNotification.RenewalInfo(payload: payload)
    }

    static func payload(of jws: String) -> JSONDocument.Node? {
        let parts = jws.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let decoded = Base64URL.decode(parts[1]) else { return nil }
        return try? JSONDocument.parse(decoded)
    }
}
