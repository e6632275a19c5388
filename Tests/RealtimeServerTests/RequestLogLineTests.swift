import Foundation
@testable import RealtimeServer
import Testing

/// The request log's line: one line of valid JSON whatever a request carried.
@Suite struct RequestLogLineTests {
    @Test func untrustedTextIsEscapedCutAndKeptOnOneLine() throws {
        let hostile = "en-US\u{1B}[31m\u{9B}2J\"\\\n\r\t\u{0}\u{7F}\u{2028}é"
        var line = RequestLogLine(
            time: Date(timeIntervalSince1970: 1_795_717_854.123), method: "POST", path: "/", status: 404,
            latencyMicroseconds: 1234, outcome: "unanswered")
        line.userLocale = hostile
        line.productId = String(repeating: "p", count: 1000)
        let bytes = line.bytes
        // One line: the only line feed is the last byte; no raw control character at all.
        #expect(bytes.last == 0x0A)
        #expect(!bytes.dropLast().contains { $0 < 0x20 || $0 == 0x7F })
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"\u001b[31m"#))
        #expect(!text.contains("\u{9B}") && !text.contains("\u{7F}"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(object["userLocale"] as? String == "en-US\u{1B}[31m\u{FFFD}2J\"\\\n\r\t\u{0}\u{FFFD}\u{2028}é")
        #expect((object["productId"] as? String)?.count == RequestLogLine.maxFieldScalars)
        #expect(object["time"] as? String == "2026-11-26T18:30:54.123Z")
        #expect(object["latencyMicroseconds"] as? Int == 1234)
        #expect(object["message"] == nil && object["reason"] == nil)
    }
}
