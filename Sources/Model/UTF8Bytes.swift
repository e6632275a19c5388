#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading valid UTF-8 (a Swift string's bytes) a word or a scalar at a time, for the loops
/// that look through every text, line and report: one decoder, one scalar count and one
/// printable-ASCII test for all of them.
public enum UTF8Bytes {
    /// The scalar value whose UTF-8 starts at `index` in `bytes`, moving `index` past it.
    /// `bytes` must be valid UTF-8, as a Swift string's are: nothing is checked.
    @inlinable @inline(__always)
    public static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt32 {
        let lead = UInt32(bytes[index])
        if lead < 0x80 {
            index += 1
            return lead
        } else if lead < 0xE0 {
            defer { index += 2 }
            return (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        } else if lead < 0xF0 {
            defer { index += 3 }
            return (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        } else {
            defer { index += 4 }
            return (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
        }
    }

    /// How many Unicode scalars the UTF-8 bytes hold: the bytes that are not continuation
    /// bytes (10xxxxxx), eight at a time. Eight ASCII bytes are passed without counting bits.
    @inlinable
    public static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(base)
        var continuations = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
            guard word & highBits != 0 else { continue }
            continuations += (word & ~(word << 1) & highBits).nonzeroBitCount
        }
        while index < bytes.count {
            if bytes[index] & 0xC0 == 0x80 { continuations += 1 }
            index += 1
        }
        return bytes.count - continuations
    }

    /// Whether all eight bytes of `word` are printable ASCII, U+0020 to U+007E. Each test adds
    /// a constant to every byte and looks at its high bit, which no byte below 0x80 carries out
    /// of.
    @inlinable @inline(__always)
    public static func isPrintableASCII(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        return word & highBits == 0
            && (word &+ 0x60 &* ones) & highBits == highBits  // every byte at least 0x20
            && (word &+ ones) & highBits == 0  // and none 0x7F
    }

    /// Whether two strings are the same bytes. `==` also takes canonically equivalent strings
    /// (`é` as one scalar or two) for one; paths and unit ids are told apart by their bytes.
    public static func areSame(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends `count` copies of `byte` (none when `count` is not positive), copied a run at a
    /// time: a `repeatElement` sequence is appended byte by byte, and reports and canonical
    /// JSON indent every line.
    public mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.min(count, 64)) { run in
            run.initialize(repeating: byte)
            var remaining = count
            while remaining > 0 {
                let length = Swift.min(remaining, run.count)
                append(contentsOf: UnsafeBufferPointer(rebasing: run[..<length]))
                remaining -= length
            }
        }
    }
}
