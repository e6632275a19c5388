@testable import LanguageServer
import Testing

@Suite struct MessageStreamTests {
    /// A reader over `bytes`, handed over `chunk` bytes at a time.
    static func reader(_ bytes: [UInt8], chunk: Int, maxBodyBytes: Int = MessageReader.maxBodyBytes) -> MessageReader {
        var offset = 0
        return MessageReader(maxBodyBytes: maxBodyBytes) { buffer in
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
        let bad = Self.frame("{\"id\":1}", header: "Content-Type: x\r\n")
        var reader = Self.reader(bad + Self.frame("{}"), chunk: 5)
        #expect(reader.next() == .skipped("a header part without Content-Length", lost: true))
        #expect(reader.next() == .skipped("8 bytes that were not a frame", lost: false))
        #expect(reader.next() == .message(Array("{}".utf8)))
        #expect(reader.next() == .end)
    }

    static let request = #"{"jsonrpc":"2.0","id":7,"method":"x","params":{"s":"a}]\"Content-Length: 3"}}"#
    static let next = #"{"jsonrpc":"2.0","id":8,"method":"y"}"#

    /// Every way a frame can be wrong, each followed by a good frame, which must come through,
    /// however the bytes are split.
    @Test(arguments: [1, 7, 4096])
    func afterABadFrameTheNextOneIsRead(chunk: Int) {
        let length = Self.request.utf8.count
        let cases: [(String, [UInt8], [MessageReader.Event])] = [
            ("one byte too long", Self.frame(Self.request, header: "Content-Length: \(length + 1)\r\n"),
             [.message(Array(Self.request.utf8)), .notice(MessageReader.lengthTooLong)]),
            ("far too long", Self.frame(Self.request, header: "Content-Length: \(length + 500)\r\n"),
             [.message(Array(Self.request.utf8)), .notice(MessageReader.lengthTooLong)]),
            ("one byte short", Self.frame(Self.request, header: "Content-Length: \(length - 1)\r\n"),
             [.message(Array(Self.request.utf8.dropLast())), .skipped("1 byte that was not a frame", lost: false)]),
            ("half", Self.frame(Self.request, header: "Content-Length: \(length / 2)\r\n"),
             [.message(Array(Self.request.utf8.prefix(length / 2))), .skipped("\(length - length / 2) bytes that were not a frame", lost: false)]),
            ("missing", Self.frame(Self.request, header: "Content-Type: application/json\r\n"),
             [.skipped("a header part without Content-Length", lost: true), .skipped("\(length) bytes that were not a frame", lost: false)]),
            ("not a number", Self.frame(Self.request, header: "Content-Length: 12a\r\n"),
             [.skipped("Content-Length '12a' is not a byte count", lost: true), .skipped("\(length) bytes that were not a frame", lost: false)]),
            ("negative", Self.frame(Self.request, header: "Content-Length: -5\r\n"),
             [.skipped("Content-Length '-5' is not a byte count", lost: true), .skipped("\(length) bytes that were not a frame", lost: false)]),
            ("bare line feeds", Array("Content-Length: \(length)\n\n\(Self.request)".utf8), [.message(Array(Self.request.utf8))]),
            ("no line break", Array("Content-Length: \(length)\(Self.request)".utf8),
             [.message(Array(Self.request.utf8)), .notice("a Content-Length header without a line break before the body")]),
            ("no empty line", Array("Content-Length: \(length)\r\n\(Self.request)".utf8),
             [.message(Array(Self.request.utf8)), .notice("a header part without the empty line that ends it")]),
            ("garbage", Array("\u{1B}]52;c;aGk=\u{07} hello }]\r\n\r\n".utf8), [.skipped("25 bytes that were not a frame", lost: false)]),
            ("trailing whitespace", Self.frame(Self.request + " \r\n", header: "Content-Length: \(length + 3)\r\n"), [.message(Array(Self.request.utf8))]),
            ("not an object", Self.frame("\u{FEFF}[1]"), [.message(Array("\u{FEFF}[1]".utf8))]),
        ]
        for (name, bad, expected) in cases {
            var reader = Self.reader(bad + Self.frame(Self.next), chunk: chunk)
            var events: [MessageReader.Event] = []
            for _ in 0..<expected.count + 1 { events.append(reader.next()) }
            #expect(events == expected + [.message(Array(Self.next.utf8))], "\(name)")
            #expect(reader.next() == .end, "\(name)")
        }
    }

    /// A Content-Length too large, and nothing after the body, as when the client waits for the
    /// answer: the message is handed on without waiting, and the whitespace promised is dropped.
    @Test func aMessageWhoseLengthIsTooLongIsHandedOnWithoutWaiting() {
        var chunks: [[UInt8]] = [Array("Content-Length: 99999999999999999999999\r\n\r\n{\"id\":1}".utf8), Array("  \n".utf8), Self.frame("{}")]
        var reader = MessageReader { buffer in
            guard !chunks.isEmpty else { return false }
            buffer += chunks.removeFirst()
            return true
        }
        #expect(reader.next() == .message(Array("{\"id\":1}".utf8)))
        #expect(chunks.count == 2, "read on past the body")
        #expect(reader.next() == .notice(MessageReader.lengthTooLong))
        #expect(reader.next() == .message(Array("{}".utf8)))
    }

    /// A body larger than the cap is skipped without being kept, and so is a huge length
    /// whose body never ends; the next frame is read.
    @Test func aBodyOverTheCapIsSkipped() {
        let big = "[" + String(repeating: "1,", count: 600) + "1]"
        var reader = Self.reader(Self.frame(big) + Self.frame("{}"), chunk: 64, maxBodyBytes: 1000)
        #expect(reader.next() == .skipped("a body of \(big.utf8.count) bytes, more than 1000", lost: true))
        #expect(reader.next() == .message(Array("{}".utf8)))
        #expect(reader.next() == .end)
    }

    @Test func garbageWithoutAnyHeaderIsDroppedAsItComes() {
        var reader = Self.reader(Array(String(repeating: "junk ", count: 100_000).utf8) + Self.frame("{}"), chunk: 4096)
        #expect(reader.next() == .skipped("500000 bytes that were not a frame", lost: false))
        #expect(reader.next() == .message(Array("{}".utf8)))
    }

    @Test func aTruncatedBodyEndsTheStream() {
        var reader = Self.reader(Array("Content-Length: 10\r\n\r\n{\"a\":".utf8), chunk: 4)
        #expect(reader.next() == .end)
    }

    @Test func writerFramesWithTheByteLength() {
        var written: [UInt8] = []
        #expect(MessageWriter { written += $0; return nil }.send(Array("{\"é\":1}".utf8)) == nil)
        #expect(String(decoding: written, as: UTF8.self) == "Content-Length: 8\r\n\r\n{\"é\":1}")
    }
}
