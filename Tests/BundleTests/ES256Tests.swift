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

    /// 256-bit EC keys on curves other than P-256: ES256 is P-256 only (RFC 7518 §3.4), and
    /// Apple's libraries refuse them, so a key of the right size is not enough.
    static let secp256k1 = Array("""
        -----BEGIN PRIVATE KEY-----
        MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgR0xK2qgVaD95VJnYqexw
        yrAkxg2cTo9G6NFtIPu+YMyhRANCAAQJ/Jv/Xv3qiHZJNgHyWdEAfbtazTWfroIr
        vclOAngtCb9VHTzDWB3b1jC57oeFvVo0JXF/SjfS4G48h1SdWmC4
        -----END PRIVATE KEY-----

        """.utf8)
    static let brainpoolP256r1 = Array("""
        -----BEGIN PRIVATE KEY-----
        MIGIAgEAMBQGByqGSM49AgEGCSskAwMCCAEBBwRtMGsCAQEEIArIRt98jAcfkq3f
        1SnRn9yzZlSdU/1TT8nc7w9Q5MeWoUQDQgAEgpV0VJsA0gPVBBhlrBml42cxWSiM
        oXHXZTiAak3vhRwK6wpeO0V6ejaaF5MFNamGx8V72xKhVZQLgif42QnCcg==
        -----END PRIVATE KEY-----

        """.utf8)
    static let secp256k1PublicKey = Array(Data(base64Encoded: "MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAECfyb/1796oh2STYB8lnRAH27Ws01n66CK73JTgJ4LQm/VR08w1gd29Ywue6Hhb1aNCVxf0o30uBuPIdUnVpguA==")!)
    static let brainpoolPublicKey = Array(Data(base64Encoded: "MFowFAYHKoZIzj0CAQYJKyQDAwIIAQEHA0IABIKVdFSbANID1QQYZawZpeNnMVkojKFx12U4gGpN74UcCusKXjtFeno2mheTBTWphsfFe9sSoVWUC4In+NkJwnI=")!)

    @Test func refusesA256BitKeyOnAnotherCurve() {
        #expect(throws: ES256.Failure(description: "it is an EC key on secp256k1, but Apple's keys and ES256 are P-256 (prime256v1) EC keys")) {
            try ES256.PrivateKey(pem: Self.secp256k1)
        }
        #expect(throws: ES256.Failure(description: "it is an EC key on brainpoolP256r1, but Apple's keys and ES256 are P-256 (prime256v1) EC keys")) {
            try ES256.PrivateKey(pem: Self.brainpoolP256r1)
        }
        #expect(throws: ES256.Failure(description: "an EC key on secp256k1, not a P-256 (prime256v1) key")) {
            try ES256.PublicKey(subjectPublicKeyInfo: Self.secp256k1PublicKey)
        }
        #expect(throws: ES256.Failure(description: "an EC key on brainpoolP256r1, not a P-256 (prime256v1) key")) {
            try ES256.PublicKey(subjectPublicKeyInfo: Self.brainpoolPublicKey)
        }
    }

    @Test func refusesWhatIsNotAP256Key() {
        #expect(throws: ES256.Failure(description: "it is an EC key on secp384r1, but Apple's keys and ES256 are P-256 (prime256v1) EC keys")) { try ES256.PrivateKey(pem: Self.p384) }
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
