import Bundle
import Foundation
import Model

/// Mints `promotionalOfferSignatureV2` for a realtime answer: a JWS (ES256, header `kid`) signed
/// with the app's In-App Purchase key, naming the product, the offer and the subscriber's
/// transaction, with a fresh nonce, as Apple's `PromotionalOfferV2SignatureCreator` makes it.
/// A signature is minted per request: the nonce and `transactionId` tie it to this subscriber
/// and this sheet, so no answer is cached.
public struct OfferSigner: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let keyId: String
    public let issuerId: String
    public let bundleId: String
    private let key: ES256.PrivateKey

    /// Loads a PKCS #8 PEM P-256 key (the `.p8` file App Store Connect gives; the same file as
    /// `msgc apply --key-file`).
    public init(keyFile: String, keyId: String, issuerId: String, bundleId: String) throws {
        var status = stat()
        guard stat(keyFile, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size < 64 << 10,
            let data = FileManager.default.contents(atPath: keyFile)
        else {
            throw Failure(description: "the key file '\(keyFile)' cannot be read, or is too large for an In-App Purchase key (.p8)")
        }
        do {
            try self.init(pem: Array(data), keyId: keyId, issuerId: issuerId, bundleId: bundleId)
        } catch let failure as Failure {
            throw Failure(description: "'\(keyFile)': \(failure.description)")
        }
    }

    public init(pem: [UInt8], keyId: String, issuerId: String, bundleId: String) throws {
        do {
            key = try ES256.PrivateKey(pem: pem)
        } catch {
            throw Failure(description: "not an In-App Purchase key (.p8): \(error.description)")
        }
        for (name, value) in [("key id", keyId), ("issuer id", issuerId), ("bundle id", bundleId)]
        where value.isEmpty || value.utf8.contains(where: { $0 < 0x21 || $0 > 0x7E }) {
            throw Failure(description: "the \(name) must be printable ASCII without spaces")
        }
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
    }

    /// The compact JWS: header `{"alg":"ES256","kid":…,"typ":"JWT"}`; claims `aud`
    /// promotional-offer, `bid`, `iat` (seconds), `iss`, `nonce` (a lower-case UUID), `offerIdentifier`,
    /// `productId`, `transactionId`. Nil only when libcrypto fails to sign.
    public func signature(
        productId: String, offerIdentifier: String, transactionId: String, issuedAt: Date, nonce: UUID = UUID()
    ) -> String? {
        let header: JSONValue = ["alg": "ES256", "kid": .string(keyId), "typ": "JWT"]
        let claims: JSONValue = [
            "aud": "promotional-offer", "bid": .string(bundleId), "iat": .integer(Int(issuedAt.timeIntervalSince1970.rounded(.down))),
            "iss": .string(issuerId), "nonce": .string(nonce.uuidString.lowercased()), "offerIdentifier": .string(offerIdentifier),
            "productId": .string(productId), "transactionId": .string(transactionId),
        ]
        return try? key.compactJWS(header: header, claims: claims)
    }

    /// The public half of the key, for checking what this signer minted.
    public func publicKey() -> ES256.PublicKey? { key.publicKey() }
}
