import Bundle
import Foundation
import Testing

/// ES256 and base64url as JSON Web Signatures use them: Apple's API tokens, offer signatures and
/// the check of Apple's signed requests all go through these.
@Suite struct ES256Tests {
    /// Throwaway keys made for these tests alone.
    static let p256 = Array("""
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6smu4SDxzmE8GDpB
        45Amiwic3chAroh4iWSMPj2JZ32hRANCAARfzck/gLK4I/zin/NU84lyiwErMMGk
        TvZARAEYalp4c4h8T4vVyWvV678b50gWzS/Z6K5jSLHulPx2sRS/x4Qo
        -----END PRIVATE KEY-----

        """.utf8)
    static let p384 = Array("""
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDDKVZXX4BWVuTUV8Mu6
        imrAQPYJ2i8ZzpTw00RwMMzdic874+WFb2Wtan8hAIkQvWChZANiAARqVcWkv/RJ
        xI3r6sKKD5S/gKK19z3HiL33diT9VyTTingLKdyhF4nF+iX1z98anYzBmTRtHj7i
        WVFdRftgOqytveNPXEW3kvMlnJ/l73U/cwXm0FhqojYlu1BBCTbEPew=
        -----END PRIVATE KEY-----

        """.utf8)

    @Test func signsAndVerifiesWithThePublicHalf() throws {
        let key = try ES256.PrivateKey(pem: Self.p256)
        let message = Array("header.claims".utf8)
        let signature = try key.sign(message)
        #expect(signature.count == 64)
        let publicKey = try #require(key.publicKey())
        #expect(publicKey.verify(signature: signature, of: message))
        #expect(!publicKey.verify(signature: signature, of: Array("header.claimz".utf8)))
        var changed = signature
        changed[63] ^= 0x01
        #expect(!publicKey.verify(signature: changed, of: message))
        #expect(!publicKey.verify(signature: Array(signature.dropLast()), of: message))
        #expect(!publicKey.verify(signature: [UInt8](repeating: 0, count: 64), of: message))
        #expect(!publicKey.verify(signature: [UInt8](repeating: 0xFF, count: 64), of: message))
    }

    @Test func refusesWhatIsNotAP256Key() {
        #expect(throws: ES256.Failure(description: "Apple's keys are P-256 EC keys")) { try ES256.PrivateKey(pem: Self.p384) }
        #expect(throws: ES256.Failure(description: "no PEM private key in it")) { try ES256.PrivateKey(pem: Array("not a key".utf8)) }
        #expect(throws: ES256.Failure(description: "it is too large")) { try ES256.PrivateKey(pem: [UInt8](repeating: 0x41, count: 70_000)) }
        #expect(throws: ES256.Failure.self) { try ES256.PublicKey(subjectPublicKeyInfo: [0x30, 0x03, 0x02, 0x01, 0x00]) }
        #expect(throws: ES256.Failure.self) { try ES256.PublicKey(certificate: Array("not DER".utf8)) }
    }

    /// DER and r ‖ s in both directions, with the integers' sign byte and leading zeros.
    @Test func signatureEncodingsRoundTrip() throws {
        for (r, s) in [(UInt8(0x80), UInt8(0x01)), (0x00, 0x7F), (0x01, 0x00)] {
            var raw = [UInt8](repeating: 0x11, count: 64)
            raw[0] = r
            raw[32] = s
            if r == 0 { raw[1] = 0 }
            let der = try #require(ES256.derSignature(raw))
            #expect(ES256.rawSignature(der) == raw)
        }
        #expect(ES256.rawSignature([0x30, 0x02, 0x02, 0x00]) == nil)
        #expect(ES256.rawSignature([0x31, 0x00]) == nil)
        #expect(ES256.rawSignature([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x05, 0x01]) == nil)
        #expect(ES256.derSignature([UInt8](repeating: 1, count: 63)) == nil)
    }

    @Test func base64URLIsStrict() {
        for length in 0..<12 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text.utf8) == bytes)
        }
        #expect(Base64URL.decode("-_-_".utf8) == [0xFB, 0xFF, 0xBF])
        for bad in ["QQ==", "Q", "QUFBQ", "+/+/", "QU FB", "QUFB\n", "QR", "QUF"] {
            #expect(Base64URL.decode(bad.utf8) == nil, "\(bad)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == foundation)
            #expect(Base64URL.decode(foundation.utf8) == bytes)
        }
        #expect(Base64URL.decode("QQ".utf8) == [0x41])
        #expect(Base64URL.decode("QUE".utf8) == [0x41, 0x41])
    }
}
