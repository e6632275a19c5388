@testable import Bundle
import Testing

@Suite struct IdentifierTests {
    /// RFC 9562 Appendix A.4: the DNS namespace and "www.example.com".
    @Test func matchesRFC9562sExample() {
        let uuid = NameBasedUUID(namespace: "6ba7b810-9dad-11d1-80b4-00c04fd430c8", name: "www.example.com")
        #expect(uuid?.description == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
    }

    /// Values computed independently with Python's `uuid.uuid5`.
    @Test(arguments: PythonUUID5.expected.keys.sorted())
    func matchesPythonsUUID5(name: String) {
        let uuid = NameBasedUUID(namespace: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b", name: name)
        #expect(uuid?.description == PythonUUID5.expected[name])
    }

    @Test func isLowerCaseVersion5() throws {
        let uuid = try #require(NameBasedUUID(namespace: "1B4E28BA-2FA1-4D3B-A3F5-EF19B5A7633B", name: "x"))
        let text = uuid.description
        #expect(text == text.lowercased())
        #expect(Array(text)[14] == "5")
        #expect("89ab".contains(Array(text)[19]))
    }

    @Test func sha256KnownAnswers() {
        #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha256Hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Digest.hex(Digest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }
}

/// Identifiers computed with Python 3.11's `uuid.uuid5` for the namespace above.
enum PythonUUID5 {
    static let expected: [String: String] = [
        "com.example.news:sandbox:com.example.news.premium.yearly:en-US:winback:0123456789abcdef":
            "4af188fa-91ff-5b18-9129-a06d80eee983",
        "com.example.news:production:com.example.news.premium.yearly:en-US:winback:0123456789abcdef":
            "77957e45-2fb2-5636-8c74-2033e5dfeef0",
        "com.example.news:sandbox:image:FULL_SIZE:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855":
            "b118aedb-e5fb-5631-82a0-192ca77e3f06",
        "com.example.news:sandbox:com.example.news.premium.yearly:ar-SA:winback:fedcba9876543210":
            "01ef0ec8-6233-5770-b808-fc799df2fee8",
    ]
}
