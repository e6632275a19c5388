/// The base64url alphabet without padding (RFC 4648 §5), as JSON Web Signatures write it.
///
/// Both directions work on contiguous bytes with a table, four characters to three bytes: a
/// realtime request's header is a few kilobytes of base64url, decoded on every request.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's value in the alphabet, 0xFF for a byte outside it.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] as [UInt32] { output.append(alphabet[Int(group >> shift & 0x3F)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            if rest == 2 { output.append(alphabet[Int(group >> 6 & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Strict decoding: only the base64url alphabet, no padding, no whitespace, and no length
    /// that leaves stray bits (a length of 1 mod 4, or non-zero unused bits in the last
    /// character): every text decodes to one byte string and back to the same text.
    public static func decode<Text: Collection>(_ text: Text) -> [UInt8]? where Text.Element == UInt8 {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let rest = text.count % 4
        guard rest != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(text.count / 4 * 3 + 2)
        return values.withUnsafeBufferPointer { values -> [UInt8]? in
            var index = 0
            while index + 4 <= text.count {
                let a = values[Int(text[index])], b = values[Int(text[index + 1])]
                let c = values[Int(text[index + 2])], d = values[Int(text[index + 3])]
                guard (a | b | c | d) & 0xC0 == 0 else { return nil }
                let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                index += 4
            }
            guard rest > 0 else { return output }
            let a = values[Int(text[index])], b = values[Int(text[index + 1])]
            let c = rest == 3 ? values[Int(text[index + 2])] : 0
            guard (a | b | c) & 0xC0 == 0 else { return nil }
            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
            // The bits after the last whole byte must be zero.
            guard group & (rest == 2 ? 0xFFFF : 0xFF) == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 16))
            if rest == 3 { output.append(UInt8(truncatingIfNeeded: group >> 8)) }
            return output
        }
    }
}
