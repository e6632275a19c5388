@testable import Apply
import Bundle
import Foundation
import Testing
import TestSupport

/// The API token: signed through Bundle's ES256, with the same header and claims, byte for byte,
/// as when Apply signed with libcrypto itself.
@Suite struct CredentialsTests {
    static let key = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6smu4SDxzmE8GDpB
        45Amiwic3chAroh4iWSMPj2JZ32hRANCAARfzck/gLK4I/zin/NU84lyiwErMMGk
        TvZARAEYalp4c4h8T4vVyWvV678b50gWzS/Z6K5jSLHulPx2sRS/x4Qo
        -----END PRIVATE KEY-----

        """

    @Test func theTokensHeaderAndClaimsAreUnchangedAndItsSignatureVerifies() throws {
        let path = TestFolders.root.appendingPathComponent("msgc-credentials-\(UUID().uuidString).p8").path
        try Data(Self.key.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let credentials = try Credentials(keyFile: path, keyID: "TESTKEY42", issuerID: "57246542-96fe-1a63-e053-0824d011072a", bundleID: "com.example.app")
        let token = try credentials.token(now: Date(timeIntervalSince1970: 1_764_100_000))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3)
        #expect(parts[0] == Base64URL.encode(Array(#"{"alg":"ES256","kid":"TESTKEY42","typ":"JWT"}"#.utf8)))
        #expect(parts[1] == Base64URL.encode(Array(
            #"{"aud":"appstoreconnect-v1","bid":"com.example.app","exp":1764100300,"iat":1764099940,"iss":"57246542-96fe-1a63-e053-0824d011072a"}"#.utf8)))
        let publicKey = try #require(try ES256.PrivateKey(pem: Array(Self.key.utf8)).publicKey())
        #expect(publicKey.verify(signature: try #require(Base64URL.decode(parts[2].utf8)), of: Array((parts[0] + "." + parts[1]).utf8)))
    }
}
