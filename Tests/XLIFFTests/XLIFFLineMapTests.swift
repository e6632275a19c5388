import Model
@testable import XLIFF
import Testing

@Suite("XLIFF line map")
struct XLIFFLineMapTests {
    /// Line and column of every offset, counted one byte at a time as XML counts lines.
    static func reference(_ bytes: [UInt8], start: Int) -> [(line: Int, column: Int)] {
        var positions: [(line: Int, column: Int)] = []
        var line = 1
        var column = 1
        var index = start
        while index <= bytes.count {
            positions.append((line, column))
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n"))) {
                line += 1
                column = 1
            } else if byte != UInt8(ascii: "\r") && byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return positions
    }

    static let texts: [String] = [
        "<a>\n  <b c=\"d\">e</b>\n</a>\n",
        "one line only, with ü, 日本語 and 🎉, no break at all",
        "crlf\r\nlines\r\nhere ü\r\n",
        "lone\rcarriage\rreturns\n mixed\r\n in",
        String(repeating: "abcdefgh\n", count: 40) + String(repeating: "é", count: 30) + "\n\n\nend",
    ]

    @Test("forward requests give the same line and column as counting every byte", arguments: texts)
    func forward(text: String) {
        let bytes = Array(text.utf8)
        let expected = Self.reference(bytes, start: 0)
        var map = XLIFFLineMap(utf8: bytes, start: 0)
        for offset in stride(from: 0, through: bytes.count, by: 3) where bytes.indices.contains(offset) ? bytes[offset] & 0xC0 != 0x80 : true {
            let position = map.position(at: offset)
            #expect(position == expected[offset], "offset \(offset)")
        }
    }

    @Test("requests out of order are answered the same", arguments: texts)
    func outOfOrder(text: String) {
        let bytes = Array(text.utf8)
        let expected = Self.reference(bytes, start: 0)
        var map = XLIFFLineMap(utf8: bytes, start: 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let offset = Int.random(in: 0...bytes.count, using: &generator)
            guard offset == bytes.count || bytes[offset] & 0xC0 != 0x80 else { continue }
            #expect(map.position(at: offset) == expected[offset], "offset \(offset)")
        }
    }

    @Test("a byte order mark before the first line is not counted")
    func byteOrderMark() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("ab\ncd".utf8)
        var map = XLIFFLineMap(utf8: bytes, start: 3)
        #expect(map.position(at: 3) == (1, 1))
        #expect(map.position(at: 5) == (1, 3))
        #expect(map.position(at: 6) == (2, 1))
        #expect(map.position(at: 7) == (2, 2))
    }

    @Test("counting helpers agree with a byte loop on every length around the word size")
    func counting() {
        for length in 0...40 {
            let bytes = (0..<length).map { index -> UInt8 in [0x0A, 0x41, 0xC3, 0xA9, 0xE6, 0x97, 0xA5, 0x0D][index % 8] }
            bytes.withUnsafeBufferPointer { buffer in
                #expect(XLIFFLineMap.lineFeedCount(buffer) == bytes.count { $0 == 0x0A })
                #expect(UTF8Bytes.scalarCount(buffer) == bytes.count { $0 & 0xC0 != 0x80 })
                #expect(XLIFFLineMap.containsLineBreak(buffer) == bytes.contains { $0 == 0x0A || $0 == 0x0D })
            }
        }
    }

    @Test("the last byte of a kind is found as a byte loop finds it, in every window of the text")
    func lastIndex() {
        // Matches next to each other and next to 0x01 and 0x80/0xFF, where a word-at-a-time
        // test that lets a carry cross bytes would report a match one byte too far.
        let bytes: [UInt8] = [0x3C, 0x01, 0x3C, 0x3D, 0x0A, 0x0A, 0x01, 0xFF, 0x80, 0x3C, 0x3B, 0x41, 0x0A, 0x01, 0x00,
                              0xC3, 0xA9, 0x3C, 0x01, 0x01, 0x0B, 0x09, 0x0A, 0x3C]
        bytes.withUnsafeBufferPointer { buffer in
            for byte: UInt8 in [0x3C, 0x0A, 0x01, 0x00, 0xFF, 0x42] {
                for lower in 0...bytes.count {
                    for upper in lower...bytes.count {
                        let expected = (lower..<upper).last { bytes[$0] == byte }
                        #expect(XLIFFLineMap.lastIndex(of: byte, in: buffer, from: lower, to: upper) == expected)
                    }
                }
            }
        }
    }
}

@Suite("XLIFF input text")
struct XLIFFInputTextTests {
    /// Bytes that make interesting UTF-8: ASCII, every kind of lead byte, the edges of the
    /// continuation range and the second bytes that make overlongs, surrogates and values
    /// above U+10FFFF.
    static let alphabet: [UInt8] = [
        0x41, 0x0A, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
        0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]

    @Test("UTF-8 is accepted exactly when the standard library accepts it")
    func validationAgreesWithTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...12, using: &generator)
            let tail = (0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! }
            // Enough ASCII first that the eight-byte path runs too.
            let bytes = Array("<a>0123456789".utf8) + tail
            let expected = String(validating: bytes, as: UTF8.self) != nil
            let accepted: Bool
            switch XLIFFInputText.decode(bytes) {
            case .success: accepted = true
            case .failure: accepted = false
            }
            #expect(accepted == expected, "bytes \(tail.map { String($0, radix: 16) })")
        }
    }

    @Test("every three bytes of the alphabet, then ASCII or the end, are judged as the standard library judges them")
    func everyShortSequence() {
        for first in Self.alphabet {
            for second in Self.alphabet {
                for third in Self.alphabet {
                    for end in [[], [UInt8(ascii: "x")], [0xA0, 0x41]] as [[UInt8]] {
                        let bytes = Array("<a>".utf8) + [first, second, third] + end
                        let expected = String(validating: bytes, as: UTF8.self) != nil
                        let accepted = if case .success = XLIFFInputText.decode(bytes) { true } else { false }
                        #expect(accepted == expected, "bytes \([first, second, third] + end)")
                    }
                }
            }
        }
    }
}
