@testable import LanguageServer
import Testing

@Suite struct MessageStreamTests {
    /// A reader over `bytes`, handed over `chunk` bytes at a time.
    static func reader(_ bytes: [UInt8], chunk: Int) -> MessageReader {
        var offset = 0
        return MessageReader { buffer in
            guard offset < bytes.count else { return false }
            let end = min(bytes.count, offset + chunk)
            buffer += bytes[offset..<end]
            offset = end
            return true
        }
    }

    static func frame(_ body: String, header: String? = nil) -> [UInt8] {
        Array((header ?? "Content-Length: \(body.utf8.count)\r\n") .utf8) + Array("\r\n".utf8) + Array(body.utf8)
    }

    @Test(arguments: [1, 3, 64, 4096])
    func messagesSplitAnywhereArriveWhole(chunk: Int) {
        let bytes = Self.frame("{\"a\":\"ü\"}") + Self.frame("{}", header: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n")
            + Self.frame("[]")
        var reader = Self.reader(bytes, chunk: chunk)
        #expect(reader.next() == .message(Array("{\"a\":\"ü\"}".utf8)))
        #expect(reader.next() == .message(Array("{}".utf8)))
        #expect(reader.next() == .message(Array("[]".utf8)))
        #expect(reader.next() == .end)
    }

    @Test func aHeaderWithoutLengthIsSkippedAndTheNextMessageRead() {
        let bytes = Self.frame("", header: "Content-Type: x\r\n") + Self.frame("{}")
        var reader = Self.reader(bytes, chunk: 5)
        guard case .badHeader = reader.next() else { Issue.record("expected a bad header"); return }
        #expect(reader.next() == .message(Array("{}".utf8)))
    }

    @Test func aTruncatedBodyEndsTheStream() {
        var reader = Self.reader(Array("Content-Length: 10\r\n\r\n{}".utf8), chunk: 4)
        #expect(reader.next() == .end)
    }

    @Test func writerFramesWithTheByteLength() {
        var written: [UInt8] = []
        MessageWriter { written += $0 }.send(Array("{\"é\":1}".utf8))
        #expect(String(decoding: written, as: UTF8.self) == "Content-Length: 8\r\n\r\n{\"é\":1}")
    }
}
