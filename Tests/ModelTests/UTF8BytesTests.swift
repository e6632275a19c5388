import Model
import Testing

@Suite struct UTF8BytesTests {
    /// The word test agrees with a byte-by-byte one for every byte value at a place of a word
    /// whose other bytes are printable.
    @Test func printableASCIIWordsAreThoseOfPrintableBytes() {
        for value in UInt8(0)...UInt8(255) {
            let word = UInt64(value) << 24 | 0x2020_2020_0020_7E7E
            #expect(UTF8Bytes.isPrintableASCII(word) == (value >= 0x20 && value < 0x7F), "byte \(value)")
        }
    }

    /// The decoder reads every scalar of a mixed text as the standard library does, and the
    /// scalar count agrees with it at every length around the word size.
    @Test func decodesAndCountsAsTheStandardLibraryDoes() {
        let text = "aé日\u{10348}\u{7F}z" + String(repeating: "x\u{300}", count: 9)
        var copy = text
        let decoded: [UInt32] = copy.withUTF8 { bytes in
            var index = 0
            var values: [UInt32] = []
            while index < bytes.count { values.append(UTF8Bytes.decodeScalar(bytes, at: &index)) }
            return values
        }
        #expect(decoded == text.unicodeScalars.map(\.value))
        let scalars = Array(text.unicodeScalars)
        for length in 0...scalars.count {
            let prefix = String(String.UnicodeScalarView(scalars[..<length]))
            #expect(prefix.unicodeScalarCount == length)
        }
    }

    @Test func appendsRunsOfAByte() {
        for count in [-1, 0, 1, 63, 64, 65, 200] {
            var bytes: [UInt8] = [0x41]
            bytes.append(repeating: 0x20, count: count)
            #expect(bytes == [0x41] + [UInt8](repeating: 0x20, count: max(count, 0)), "\(count)")
        }
    }
}
