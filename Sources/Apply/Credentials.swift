import CCrypto
import Foundation
import Model

/// An App Store Connect In-App Purchase key (`.p8`: a P-256 private key in PKCS #8 PEM) and
/// what names it, for signing requests to Apple's Retention Messaging API.
///
/// The key is read once and kept only inside libcrypto; no description of this type, no error
/// and no log line holds the key or a token.
public final class Credentials: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let keyID: String
    public let issuerID: String
    public let bundleID: String
    private let key: OpaquePointer

    /// Reads the key file at `path`.
    public init(keyFile path: String, keyID: String, issuerID: String, bundleID: String) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "the key file '\(path)' cannot be read")
        }
        guard data.count < 64 << 10 else { throw Failure(description: "'\(path)' is not an In-App Purchase key (.p8): it is too large") }
        let parsed: OpaquePointer? = data.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let parsed else {
            throw Failure(description: "'\(path)' is not an In-App Purchase key (.p8): no PEM private key in it")
        }
        guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_EC, EVP_PKEY_get_bits(parsed) == 256 else {
            EVP_PKEY_free(parsed)
            throw Failure(description: "'\(path)' is not an In-App Purchase key (.p8): Apple's keys are P-256 EC keys")
        }
        for (name, value) in [("key id", keyID), ("issuer id", issuerID)] where value.isEmpty || value.utf8.contains(where: { $0 < 0x21 || $0 > 0x7E }) {
            EVP_PKEY_free(parsed)
            throw Failure(description: "the \(name) must be printable ASCII without spaces")
        }
        key = parsed
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    deinit { EVP_PKEY_free(key) }

    /// What names a token, for messages: never the key, never a token.
    public struct Identity: Sendable {
        public var keyID: String
        public var issuerID: String
        public var bundleID: String
    }

    public var identity: Identity { Identity(keyID: keyID, issuerID: issuerID, bundleID: bundleID) }

    /// How far before now a token says it was issued: a server whose clock is behind this
    /// machine's by less than this still takes it, rather than refusing a token from its future.
    static let backdating: TimeInterval = 60
    /// How long after now a token stays valid (Apple takes up to an hour from `iat`; its
    /// libraries use five minutes).
    static let lifetime: TimeInterval = 300

    /// A JWT for Apple's API (ES256; `kid`; `iss`, `iat` a minute before `now`, `exp` five
    /// minutes after it, `aud` appstoreconnect-v1, `bid`).
    func token(now: Date) throws(Failure) -> String {
        let current = Int(now.timeIntervalSince1970)
        let issued = current - Int(Self.backdating)
        let header: JSONValue = ["alg": "ES256", "kid": .string(keyID), "typ": "JWT"]
        let claims: JSONValue = [
            "aud": "appstoreconnect-v1", "bid": .string(bundleID), "exp": .integer(current + Int(Self.lifetime)),
            "iat": .integer(issued), "iss": .string(issuerID),
        ]
        let input = Self.base64URL(header.compactBytes) + "." + Self.base64URL(claims.compactBytes)
        return input + "." + Self.base64URL(try sign(Array(input.utf8)))
    }

    /// The ES256 signature of `message`: r and s, 32 bytes each (JWS), from libcrypto's DER.
    private func sign(_ message: [UInt8]) throws(Failure) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw Failure(description: "libcrypto could not sign the request") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        var der = [UInt8](repeating: 0, count: 80)
        let signed = message.withUnsafeBufferPointer { input in
            EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1
                && { length = der.count; return EVP_DigestSign(context, &der, &length, input.baseAddress, input.count) == 1 }()
        }
        guard signed, let raw = Self.rawSignature(Array(der[..<length])) else {
            ERR_clear_error()
            throw Failure(description: "libcrypto could not sign the request")
        }
        return raw
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` as r ‖ s, each left-padded to 32 bytes.
    static func rawSignature(_ der: [UInt8]) -> [UInt8]? {
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

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
