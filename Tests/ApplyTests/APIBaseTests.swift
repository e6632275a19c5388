@testable import Apply
import Bundle
import Testing

/// `--api-base`: what is taken, and request URLs built from it as text, never decoded.
@Suite struct APIBaseTests {
    @Test(arguments: [
        ("https://api.storekit.apple.com", "https://api.storekit.apple.com/inApps/v1/messaging/message/list"),
        ("https://Proxy.Example.com:8443/apple/", "https://proxy.example.com:8443/apple/inApps/v1/messaging/message/list"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/inApps/v1/messaging/message/list"),
        ("http://localhost", "http://localhost/inApps/v1/messaging/message/list"),
        ("http://[::1]:9", "http://[::1]:9/inApps/v1/messaging/message/list"),
    ])
    func takesPlainBases(text: String, url: String) throws {
        #expect(try APIBase(text).url("/inApps/v1/messaging/message/list") == url)
    }

    @Test(arguments: [
        "http://127.0.0.1:9/a%20b", "https://h/%2e%2e/x", "https://h/../x", "https://h/a/./b", "https://u:p@h", "https://h?x",
        "https://h#x", "http://example.com", "http://127.0.0.1.example.com", "file:///etc/passwd", "https://h:0", "https://h:x",
        "https://-h", "https://h_1", "https://", "https://[zz]", "https://h//x", "https://h/é", "https://h/a b",
    ])
    func refusesTheRest(text: String) {
        #expect(throws: APIBase.Failure.self) { try APIBase(text) }
    }

    @Test func appleHostsAndTheImageQuery() {
        #expect(APIBase.apple(.sandbox).url("/inApps/v1/messaging/image/0", query: [("imageSize", "FULL_SIZE")])
            == "https://api.storekit-sandbox.apple.com/inApps/v1/messaging/image/0?imageSize=FULL_SIZE")
    }
}
