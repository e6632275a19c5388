import Bundle
import Foundation
import Model

/// An App Store Connect In-App Purchase key (`.p8`: a P-256 private key in PKCS #8 PEM) and
/// what names it, for signing requests to Apple's Retention Messaging API.
///
/// The key is read once and kept only inside libcrypto; no description of this type, no error
/// and no log line holds the key or a token.
public final class Credentials: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let keyID: String
    public let issuerID: String
    public let bundleID: String
    private let key: ES256.PrivateKey

    /// Reads the key file at `path`.
    public init(keyFile path: String, keyID: String, issuerID: String, bundleID: String) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "the key file '\(path)' cannot be read")
        }
        let parsed: ES256.PrivateKey
        do {
            parsed = try ES256.PrivateKey(pem: Array(data))
        } catch {
            throw Failure(description: "'\(path)' is not an In-App Purchase key (.p8): \(error.description)")
        }
        for (name, value) in [("key id", keyID), ("issuer id", issuerID)] where value.isEmpty || value.utf8.contains(where: { $0 < 0x21 || $0 > 0x7E }) {
            throw Failure(description: "the \(name) must be printable ASCII without spaces")
        }
        key = parsed
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

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
        do {
            return try key.compactJWS(header: header, claims: claims)
        } catch {
            throw Failure(description: "libcrypto could not sign the request")
        }
    }
}
