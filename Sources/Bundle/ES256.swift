import CCrypto
import Foundation
import Model

/// ES256 (ECDSA over P-256 with SHA-256) as JSON Web Signatures use it, through the system's
/// libcrypto like every other hash and signature in msgc (docs/architecture.md): the tokens
/// `msgc apply` signs for Apple's API, the promotional-offer signatures a realtime server mints,
/// and the check of the requests Apple signs.
public enum ES256 {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// A P-256 private key, read once and kept only inside libcrypto: no description of this
    /// type, no error and no log line holds the key.
    public final class PrivateKey: @unchecked Sendable {
        // @unchecked: libcrypto's EVP_PKEY, never changed after init; each signing has its own EVP_MD_CTX.
        private let key: OpaquePointer

        /// Reads a PKCS #8 PEM P-256 private key: the `.p8` file App Store Connect gives for an
        /// In-App Purchase key. `pem` larger than 64 KiB is refused before libcrypto sees it.
        public init(pem: [UInt8]) throws(Failure) {
            guard pem.count < 64 << 10 else { throw Failure(description: "it is too large") }
            let parsed: OpaquePointer? = pem.withUnsafeBytes { bytes in
                guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
                defer { BIO_free(bio) }
                return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
            }
            ERR_clear_error()
            guard let parsed else { throw Failure(description: "no PEM private key in it") }
            guard ES256.isP256(parsed) else {
                let found = ES256.curveName(parsed)
                EVP_PKEY_free(parsed)
                throw Failure(description: "it is \(found), but Apple's keys and ES256 are P-256 (prime256v1) EC keys")
            }
            key = parsed
        }

        deinit { EVP_PKEY_free(key) }

        /// The JWS signature of `message`: r ‖ s, 32 bytes each, from libcrypto's DER.
        public func sign(_ message: [UInt8]) throws(Failure) -> [UInt8] {
            let failure = Failure(description: "libcrypto could not sign")
            guard let context = EVP_MD_CTX_new() else { throw failure }
            defer { EVP_MD_CTX_free(context) }
            var length = 0
            var der = [UInt8](repeating: 0, count: 80)
            let signed = message.withUnsafeBufferPointer { input in
                EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1
                    && { length = der.count; return EVP_DigestSign(context, &der, &length, input.baseAddress, input.count) == 1 }()
            }
            guard signed, let raw = ES256.rawSignature(Array(der[..<length])) else {
                ERR_clear_error()
                throw failure
            }
            return raw
        }

        /// The compact JWS (JWT) of `header` and `claims`, each written as msgc's compact JSON:
        /// `base64url(header).base64url(claims).base64url(r ‖ s)`.
        public func compactJWS(header: JSONValue, claims: JSONValue) throws(Failure) -> String {
            let input = Base64URL.encode(header.compactBytes) + "." + Base64URL.encode(claims.compactBytes)
            return input + "." + Base64URL.encode(try sign(Array(input.utf8)))
        }

        /// The public half, for checking what this key signed.
        public func publicKey() -> PublicKey? {
            guard EVP_PKEY_up_ref(key) == 1 else { return nil }
            return PublicKey(owning: key)
        }
    }

    /// A P-256 public key (from a certificate or a SubjectPublicKeyInfo), for checking ES256
    /// signatures.
    public final class PublicKey: @unchecked Sendable {
        // @unchecked: libcrypto's EVP_PKEY, never changed after init; each check has its own EVP_MD_CTX.
        private let key: OpaquePointer

        init(owning key: OpaquePointer) { self.key = key }

        /// Takes `key` (an EVP_PKEY the caller got from libcrypto and no longer uses) if it is a
        /// P-256 key: the owner of the pointer passes it on.
        public static func adopting(_ key: OpaquePointer) -> PublicKey? {
            guard ES256.isP256(key) else {
                EVP_PKEY_free(key)
                return nil
            }
            return PublicKey(owning: key)
        }

        /// Reads a DER SubjectPublicKeyInfo holding a P-256 key.
        public convenience init(subjectPublicKeyInfo der: [UInt8]) throws(Failure) {
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            }
            ERR_clear_error()
            guard let parsed else { throw Failure(description: "not a DER SubjectPublicKeyInfo") }
            guard ES256.isP256(parsed) else {
                let found = ES256.curveName(parsed)
                EVP_PKEY_free(parsed)
                throw Failure(description: "\(found), not a P-256 (prime256v1) key")
            }
            self.init(owning: parsed)
        }

        deinit { EVP_PKEY_free(key) }

        /// The key of the DER X.509 certificate `der`, when it is a P-256 key.
        public convenience init(certificate der: [UInt8]) throws(Failure) {
            let certificate: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
            guard let certificate else {
                ERR_clear_error()
                throw Failure(description: "not a DER X.509 certificate")
            }
            defer { X509_free(certificate) }
            guard let parsed = X509_get_pubkey(certificate) else {
                ERR_clear_error()
                throw Failure(description: "the certificate's key cannot be read")
            }
            guard ES256.isP256(parsed) else {
                let found = ES256.curveName(parsed)
                EVP_PKEY_free(parsed)
                throw Failure(description: "the certificate's key is \(found), not a P-256 (prime256v1) key")
            }
            self.init(owning: parsed)
        }

        /// Whether `signature` (JWS r ‖ s, 64 bytes) is this key's ES256 signature of `message`.
        public func verify(signature: [UInt8], of message: [UInt8]) -> Bool {
            guard signature.count == 64, let der = ES256.derSignature(signature) else { return false }
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            let valid = message.withUnsafeBufferPointer { input in
                der.withUnsafeBufferPointer { signed in
                    EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
                        && EVP_DigestVerify(context, signed.baseAddress, signed.count, input.baseAddress, input.count) == 1
                }
            }
            ERR_clear_error()
            return valid
        }
    }

    /// Whether `key` is an EC key on P-256 (prime256v1, secp256r1), the only curve of ES256
    /// (RFC 7518 §3.4). Being 256 bits long is not enough: secp256k1 and brainpoolP256r1 keys
    /// are 256-bit EC keys too, and Apple's libraries refuse them for ES256.
    public static func isP256(_ key: OpaquePointer) -> Bool { curve(of: key) == "prime256v1" }

    /// The curve of an EC key as libcrypto names it (`secp256k1`); nil for another kind of key.
    static func curve(of key: OpaquePointer) -> String? {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return nil }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return "an unnamed curve"
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What `key` is, for a message: "an EC key on secp256k1", "not an EC key".
    static func curveName(_ key: OpaquePointer) -> String {
        curve(of: key).map { "an EC key on " + $0 } ?? "not an EC key"
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` as r ‖ s, each left-padded to 32 bytes (JWS).
    public static func rawSignature(_ der: [UInt8]) -> [UInt8]? {
        var index = 0
        func next() -> UInt8? {
            guard index < der.count else { return nil }
            defer { index += 1 }
            return der[index]
        }
        guard next() == 0x30, let total = next(), Int(total) == der.count - 2 else { return nil }
        var result: [UInt8] = []
        for _ in 0..<2 {
            guard next() == 0x02, let count = next().map(Int.init), index + count <= der.count else { return nil }
            var integer = Array(der[index..<(index + count)])
            index += count
            while integer.count > 32, integer.first == 0 { integer.removeFirst() }
            guard integer.count <= 32 else { return nil }
            result += [UInt8](repeating: 0, count: 32 - integer.count) + integer
        }
        return result
    }

    /// r ‖ s (32 bytes each) as DER `SEQUENCE { INTEGER r, INTEGER s }`, minimal integers.
    public static func derSignature(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        var body: [UInt8] = []
        for half in [raw[0..<32], raw[32..<64]] {
            var integer = Array(half.drop { $0 == 0 })
            if integer.isEmpty { integer = [0] }
            if integer[0] & 0x80 != 0 { integer.insert(0, at: 0) }
            body += [0x02, UInt8(integer.count)] + integer
        }
        return [0x30, UInt8(body.count)] + body
    }
}
