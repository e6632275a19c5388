/// Why a realtime request was refused, in the order the checks run (docs/realtime.md,
/// "Answering Apple"); an App Store Server Notification's refusals use the same reasons
/// (`NotificationRefusal`). The raw values are kebab-case: a server's logs and metrics label
/// refusals with them.
public enum RealtimeRefusal: String, Error, Sendable, CaseIterable {
    /// The body is larger than `RealtimeResponder.maxBodySize` (`NotificationVerifier.maxBodySize`).
    case bodyTooLarge = "body-too-large"
    /// The body is not a JSON object with a string `signedPayload`.
    case malformedBody = "malformed-body"
    /// `signedPayload` is not a compact JWS: three strict base64url parts, a JSON object
    /// header, within the length cap.
    case malformedJWS = "malformed-jws"
    /// The header's `alg` is not ES256.
    case unsupportedAlgorithm = "unsupported-algorithm"
    /// The header's `x5c` is not exactly three strings.
    case chainLength = "chain-length"
    /// The chain does not lead from the leaf through the intermediate to a trusted root, an
    /// `x5c` entry is not base64 of one DER X.509 certificate, or `x5c`'s third certificate is
    /// not the trusted root the chain leads to.
    case untrustedChain = "untrusted-chain"
    /// A certificate of the chain is not valid at the payload's `signedDate`.
    case certificateExpired = "certificate-expired"
    /// The leaf or the intermediate lacks Apple's extension (1.2.840.113635.100.6.11.1,
    /// 1.2.840.113635.100.6.2.1).
    case missingOID = "missing-oid"
    /// The JWS signature is not the leaf key's.
    case badSignature = "bad-signature"
    /// The signed payload is not a JSON object, or lacks a member of
    /// `DecodedRealtimeRequestBody`, or has one of the wrong type.
    case malformedPayload = "malformed-payload"
    /// `appAppleId` is not the configured app's (for a notification: or its `bundleId`).
    case wrongApp = "wrong-app"
    /// `environment` is not the snapshot's.
    case wrongEnvironment = "wrong-environment"
    /// `signedDate` is older than `maxRequestAge`.
    case stale
    /// `signedDate` is further ahead than `maxClockSkew`.
    case future

    /// The HTTP status a server answers with: 413 too large; 400 what cannot be read; 401 what
    /// is not proven to come from Apple just now; 403 Apple's request for another app or
    /// environment. Apple falls back to its default message on any of them.
    public var status: Int {
        switch self {
        case .bodyTooLarge: 413
        case .malformedBody, .malformedJWS, .unsupportedAlgorithm, .chainLength, .malformedPayload: 400
        case .untrustedChain, .certificateExpired, .missingOID, .badSignature, .stale, .future: 401
        case .wrongApp, .wrongEnvironment: 403
        }
    }
}
