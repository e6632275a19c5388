import Bundle
import CCrypto
import Foundation
import Model
import Synchronization

/// The checks Apple's libraries make of every JWS the App Store signs (`SignedDataVerifier.
/// _decode_signed_object` and its `_ChainVerifier`), shared by the realtime request
/// (`RealtimeRequestVerifier`) and the App Store Server Notification with its nested
/// transaction and renewal info (`NotificationVerifier`): one envelope, one chain, one
/// signature, one set of registered claims, in Apple's order (docs/realtime.md,
/// "Verification, in the order Apple's library checks").
///
/// 1. The JWS is compact: at most `maxLength` bytes, three parts of strict base64url, a JSON
///    object as header, which PyJWT would take (`headerRefusal`).
/// 2. The header has a non-empty `x5c`, `alg` is ES256, and `x5c` holds exactly three strings
///    of at most `maxCertificateLength` characters, each base64 of one DER certificate.
/// 3. libcrypto's X.509 verification (strict, like Apple's) leads from the leaf through the
///    intermediate (given as untrusted) to one of the trusted roots, with every certificate
///    valid at the payload's `signedDate` (now, when it has none, as Apple does). The `x5c` root
///    is not trusted for being there: only a root of the configuration is, and `x5c`'s third
///    certificate must be that root (Apple's library ignores it: msgc is stricter here).
/// 4. The leaf of the verified chain has Apple's extension 1.2.840.113635.100.6.11.1, the next
///    certificate 1.2.840.113635.100.6.2.1.
/// 5. The signature is the leaf key's ES256 signature of the first two parts; the leaf's key
///    must be on P-256 (`ES256.isP256`).
/// 6. The payload is a JSON object whose registered claims hold as PyJWT checks them
///    (`claimsRefusal`). What the payload must say is the caller's to judge.
///
/// Every length is capped before anything is decoded, so hostile input costs bounded work.
final class AppleSignedDataVerifier: @unchecked Sendable {
    // @unchecked for libcrypto's pointers alone: set in init, never changed, only read (each check has its own X509_STORE_CTX).
    private let store: OpaquePointer
    private let leafOID: OpaquePointer
    private let intermediateOID: OpaquePointer

    /// The longest base64 certificate in `x5c`.
    static let maxCertificateLength = 6 << 10

    /// A chain that verified, and the times at which it does: Apple signs with the same few
    /// certificates, so the next JWS with the same `x5c` costs one signature check instead of
    /// three certificates read and a chain built (Apple's library keeps 32 such chains when it
    /// checks revocation online). Only chains that verified are kept, so hostile input cannot
    /// fill it.
    struct VerifiedChain {
        var key: ES256.PublicKey
        var validFrom: Int64
        var validUntil: Int64
    }

    private let verifiedChains = Mutex<[String: VerifiedChain]>([:])
    static let maxVerifiedChains = 32

    static let leafExtension = "1.2.840.113635.100.6.11.1"
    static let intermediateExtension = "1.2.840.113635.100.6.2.1"

    /// Nil when a root is not a DER X.509 certificate, or there is none.
    init?(trustedRoots: [[UInt8]]) {
        guard !trustedRoots.isEmpty, let store = X509_STORE_new() else { return nil }
        for der in trustedRoots {
            guard let root = Self.certificate(der), X509_STORE_add_cert(store, root) == 1 else {
                ERR_clear_error()
                X509_STORE_free(store)
                return nil
            }
            X509_free(root)
        }
        // X509_STRICT, as Apple's library sets it: certificates that break RFC 5280's rules
        // (an encoding OpenSSL would otherwise tolerate) are refused.
        X509_STORE_set_flags(store, UInt(X509_V_FLAG_X509_STRICT))
        guard let leafOID = OBJ_txt2obj(Self.leafExtension, 1), let intermediateOID = OBJ_txt2obj(Self.intermediateExtension, 1) else {
            X509_STORE_free(store)
            return nil
        }
        self.store = store
        self.leafOID = leafOID
        self.intermediateOID = intermediateOID
    }

    deinit {
        X509_STORE_free(store)
        ASN1_OBJECT_free(leafOID)
        ASN1_OBJECT_free(intermediateOID)
    }

    /// The verified payload of `jws`, a JSON object whose registered claims hold at `now`, or
    /// why it is refused. `now` also stands in for a missing `signedDate` when the chain's
    /// validity is checked.
    func verify(_ jws: String, maxLength: Int, now: Date) -> Result<JSONDocument.Node, RealtimeRefusal> {
        let jws = jws.utf8
        guard jws.count <= maxLength else { return .failure(.malformedJWS) }
        let parts = jws.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = try? JSONDocument.parse(headerBytes), case .object = header.value
        else { return .failure(.malformedJWS) }
        // A payload that is not JSON is refused once its signature is checked (step 6): Apple
        // signed it, or it is a forgery, and the signature tells which.
        let payload = try? JSONDocument.parse(payloadBytes)

        if let refusal = Self.headerRefusal(header) { return .failure(refusal) }

        // Apple's order: an empty x5c, then the algorithm, then the chain's length.
        let chain: [JSONDocument.Node]
        switch header.member("x5c")?.value {
        case .array(let entries) where !entries.isEmpty: chain = entries
        default: return .failure(.chainLength)
        }
        guard case .string("ES256")? = header.member("alg")?.value else { return .failure(.unsupportedAlgorithm) }
        guard chain.count == 3 else { return .failure(.chainLength) }
        var texts: [String] = []
        for entry in chain {
            guard case .string(let text) = entry.value, text.utf8.count <= Self.maxCertificateLength else { return .failure(.untrustedChain) }
            texts.append(text)
        }

        let signedDate: Int64? = if case .number(let text)? = payload?.member("signedDate")?.value { JSONCursor.integer(text).map(Int64.init) } else { nil }
        let checkedAt = signedDate.map { $0 / 1000 } ?? Int64(now.timeIntervalSince1970)
        let leafKey: ES256.PublicKey
        let cacheKey = texts.joined(separator: "\n")
        if let cached = verifiedChains.withLock({ $0[cacheKey] }), cached.validFrom <= checkedAt, checkedAt <= cached.validUntil {
            leafKey = cached.key
        } else {
            var certificates: [OpaquePointer] = []
            defer { certificates.forEach { X509_free($0) } }
            for text in texts {
                guard let der = Data(base64Encoded: text).map(Array.init), let certificate = Self.certificate(der) else {
                    return .failure(.untrustedChain)
                }
                certificates.append(certificate)
            }
            switch verifyChain(certificates, at: checkedAt) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let verified):
                leafKey = verified.key
                verifiedChains.withLock { verifiedChains in
                    if verifiedChains.count >= Self.maxVerifiedChains { verifiedChains.removeAll() }
                    verifiedChains[cacheKey] = verified
                }
            }
        }
        let signed = Array(jws[parts[0].startIndex..<parts[1].endIndex])
        guard leafKey.verify(signature: signature, of: signed) else { return .failure(.badSignature) }
        guard let payload, case .object = payload.value else { return .failure(.malformedPayload) }
        if let refusal = Self.claimsRefusal(payload, now: now) { return .failure(refusal) }
        return .success(payload)
    }

    /// What PyJWT (which Apple's library decodes with) refuses in a JWS header, and a little
    /// more: a `kid` that is not a string; any `crit` (PyJWT takes only `["b64"]` with `b64`
    /// present; Apple sends none, so msgc refuses every one); a `b64` other than `true` (PyJWT
    /// refuses `false`, for which Apple's library passes no detached payload; msgc refuses any
    /// other value too).
    static func headerRefusal(_ header: JSONDocument.Node) -> RealtimeRefusal? {
        if let kid = header.member("kid") {
            guard case .string = kid.value else { return .malformedJWS }
        }
        if header.member("crit") != nil { return .malformedJWS }
        if let b64 = header.member("b64") {
            guard case .bool(true) = b64.value else { return .malformedJWS }
        }
        return nil
    }

    /// The registered claims PyJWT's `decode` checks with Apple's library's options (no
    /// audience, issuer or subject expected, no leeway), in its order, against `now`:
    /// `iat` or `nbf` after now is `future`; `exp` at or before now is `stale`; any of the three
    /// not a JSON number, an `aud` at all, a `sub` or `jti` that is not a string is
    /// `malformedPayload`. Stricter than PyJWT, which reads `"123"` or `true` as a time with
    /// Python's `int()` and lets an empty `aud` (`""`, `[]`, `0`, `false`) through.
    static func claimsRefusal(_ payload: JSONDocument.Node, now: Date) -> RealtimeRefusal? {
        let seconds = now.timeIntervalSince1970
        /// The claim as Python's `int()` reads a number: truncated toward zero.
        func time(_ key: String) -> Double?? {
            guard let node = payload.member(key) else { return .some(nil) }
            guard case .number(let text) = node.value, let value = Double(text), value.isFinite else { return nil }
            return .some(value.rounded(.towardZero))
        }
        for key in ["iat", "nbf"] {
            guard let value = time(key) else { return .malformedPayload }
            if let value, value > seconds { return .future }
        }
        guard let expiry = time("exp") else { return .malformedPayload }
        if let expiry, expiry <= seconds { return .stale }
        if payload.member("aud") != nil { return .malformedPayload }
        for key in ["sub", "jti"] {
            if let node = payload.member(key) {
                guard case .string = node.value else { return .malformedPayload }
            }
        }
        return nil
    }

    /// The leaf's key once the chain (`x5c`: leaf, intermediate, root) leads to a trusted root at
    /// `time` (seconds since 1970) and carries Apple's extensions.
    private func verifyChain(_ certificates: [OpaquePointer], at time: Int64) -> Result<VerifiedChain, RealtimeRefusal> {
        let (leaf, intermediate, claimedRoot) = (certificates[0], certificates[1], certificates[2])
        guard let context = X509_STORE_CTX_new() else { return .failure(.untrustedChain) }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else { return .failure(.untrustedChain) }
        defer { OPENSSL_sk_free(untrusted) }
        guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate)) > 0,
            X509_STORE_CTX_init(context, store, leaf, untrusted) == 1
        else {
            ERR_clear_error()
            return .failure(.untrustedChain)
        }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(clamping: time))
        guard X509_verify_cert(context) == 1 else {
            let error = X509_STORE_CTX_get_error(context)
            ERR_clear_error()
            let expired = [X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID].contains(error)
            return .failure(expired ? .certificateExpired : .untrustedChain)
        }
        // Apple's library reads the OIDs from the verified chain: its first and second certificate.
        // It never reads x5c's third certificate; msgc holds it to be the root the chain ends in,
        // as the header claims (a request naming another root is not one Apple made).
        guard let verified = X509_STORE_CTX_get0_chain(context), OPENSSL_sk_num(verified) >= 2,
            let first = OPENSSL_sk_value(verified, 0), let second = OPENSSL_sk_value(verified, 1),
            let root = OPENSSL_sk_value(verified, OPENSSL_sk_num(verified) - 1),
            X509_cmp(OpaquePointer(root), claimedRoot) == 0
        else { return .failure(.untrustedChain) }
        guard X509_get_ext_by_OBJ(OpaquePointer(first), leafOID, -1) >= 0,
            X509_get_ext_by_OBJ(OpaquePointer(second), intermediateOID, -1) >= 0
        else { return .failure(.missingOID) }
        guard let key = X509_get_pubkey(leaf), let leafKey = ES256.PublicKey.adopting(key) else {
            ERR_clear_error()
            return .failure(.badSignature)
        }
        // The times at which every certificate of the verified chain is valid, a second inside
        // OpenSSL's bounds at each end (it takes notBefore <= t < notAfter): within them, the
        // same x5c verifies the same way.
        var validFrom = Int64.min, validUntil = Int64.max
        for index in 0..<OPENSSL_sk_num(verified) {
            guard let certificate = OPENSSL_sk_value(verified, index).map(OpaquePointer.init),
                let notBefore = Self.seconds(X509_get0_notBefore(certificate)), let notAfter = Self.seconds(X509_get0_notAfter(certificate))
            else { return .success(VerifiedChain(key: leafKey, validFrom: time, validUntil: time)) }
            validFrom = max(validFrom, notBefore + 1)
            validUntil = min(validUntil, notAfter - 1)
        }
        return .success(VerifiedChain(key: leafKey, validFrom: validFrom, validUntil: validUntil))
    }

    /// An ASN.1 time as seconds since 1970.
    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Int64(timegm(&parts))
    }

    /// One DER certificate that takes all of `der` (trailing bytes are refused).
    private static func certificate(_ der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else {
                ERR_clear_error()
                return nil
            }
            guard cursor == start + buffer.count else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
    }
}
