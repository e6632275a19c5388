import Foundation
import Model

/// Checks Apple's signed realtime request the way Apple's own libraries do
/// (`SignedDataVerifier.verify_and_decode_realtime_request`), in the same order, and gives the
/// verified payload or the first reason to refuse it (docs/realtime.md, "Answering Apple").
///
/// The JWS, its chain, signature and registered claims are checked as every JWS Apple signs
/// (`AppleSignedDataVerifier`, which App Store Server Notifications share); then the payload
/// must have every member of `DecodedRealtimeRequestBody` (`DecodedRealtimeRequest`).
///
/// Whether the request is for this app, environment and time is `RealtimeResponder`'s to judge.
public final class RealtimeRequestVerifier: Sendable {
    private let verifier: AppleSignedDataVerifier

    /// The longest `signedPayload` read: Apple's requests (a payload of seven members and a header
    /// with three certificates) are about 4 KB.
    public static let maxJWSLength = 24 << 10
    /// The longest base64 certificate in `x5c`.
    public static let maxCertificateLength = AppleSignedDataVerifier.maxCertificateLength

    public static let leafExtension = AppleSignedDataVerifier.leafExtension
    public static let intermediateExtension = AppleSignedDataVerifier.intermediateExtension

    /// Nil when a root is not a DER X.509 certificate, or there is none.
    public init?(trustedRoots: [[UInt8]]) {
        guard let verifier = AppleSignedDataVerifier(trustedRoots: trustedRoots) else { return nil }
        self.verifier = verifier
    }

    /// The verified payload of `signedPayload`, or why it is refused. `now` stands in for a
    /// missing `signedDate` (whose absence the payload's reading then refuses).
    public func verify(signedPayload: String, now: Date) -> Result<DecodedRealtimeRequest, RealtimeRefusal> {
        switch verifier.verify(signedPayload, maxLength: Self.maxJWSLength, now: now) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let payload):
            guard let request = DecodedRealtimeRequest(payload: payload) else { return .failure(.malformedPayload) }
            return .success(request)
        }
    }
}
