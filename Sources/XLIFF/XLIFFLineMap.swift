import Foundation
import Model

/// Turns byte offsets in the UTF-8 text of an XLIFF file into lines and columns, on demand.
///
/// libxml2's SAX parser says where it is as a byte offset (`xmlByteConsumed`), so the reader
/// keeps offsets and asks for a line and column only for what it reports: a unit's start tag,
/// its id, the first character of its source and target. Those requests come in document
/// order, so the map walks forward from its previous answer and the whole file costs one
/// pass, counting line feeds eight bytes at a time; a column counts the scalars since the last
/// line break. A request behind the previous one is answered from the start of its line, or in
/// the worst case from the start of the file.
///
/// Line breaks are XML's: LF, CR LF and a lone CR each end a line; columns count Unicode
/// scalars from 1. A file with a CR anywhere is walked byte by byte, as the fast path only
/// knows LF.
struct XLIFFLineMap {
    private let bytes: [UInt8]
    private let start: Int
    private let hasCarriageReturn: Bool
    /// The last answer: an offset and its line and column.
    private var offset: Int
    private var line = 1
    private var column = 1

    /// A map of `bytes` (UTF-8) whose first line begins at `start` (after any BOM).
    init(utf8 bytes: [UInt8], start: Int) {
        self.bytes = bytes
        self.start = start
        self.offset = start
        self.hasCarriageReturn = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { memchr($0, 0x0D, buffer.count) != nil } ?? false
        }
    }

    /// The 1-based line and column of byte `target`.
    mutating func position(at target: Int) -> (line: Int, column: Int) {
        let target = min(max(target, start), bytes.count)
        if target < offset && !rewind(to: target) {
            offset = start
            line = 1
            column = 1
        }
        bytes.withUnsafeBufferPointer { buffer in
            if hasCarriageReturn {
                walkExactly(buffer, to: target)
            } else {
                walkLineFeeds(buffer, to: target)
            }
        }
        return (line, column)
    }

    /// Moves back to `target` on the same line as the last answer; false when a line break
    /// lies between them.
    private mutating func rewind(to target: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            let between = UnsafeBufferPointer(rebasing: buffer[target..<offset])
            guard !Self.containsLineBreak(between) else { return false }
            column -= UTF8Bytes.scalarCount(between)
            offset = target
            return true
        }
    }

    /// Text with LF line breaks only: count the LFs up to the target, then the scalars after
    /// the last of them.
    private mutating func walkLineFeeds(_ buffer: UnsafeBufferPointer<UInt8>, to target: Int) {
        if let lastBreak = Self.lastIndex(of: UInt8(ascii: "\n"), in: buffer, from: offset, to: target) {
            line += Self.lineFeedCount(UnsafeBufferPointer(rebasing: buffer[offset...lastBreak]))
            column = 1 + UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: buffer[(lastBreak + 1)..<target]))
        } else {
            column += UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: buffer[offset..<target]))
        }
        offset = target
    }

    /// Any text: each byte in turn, with CR LF and a lone CR as line breaks.
    private mutating func walkExactly(_ buffer: UnsafeBufferPointer<UInt8>, to target: Int) {
        var index = offset
        while index < target {
            let byte = buffer[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                if index < buffer.count, buffer[index] == UInt8(ascii: "\n") { continue }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        offset = target
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// How many bytes are LF, hopping from one to the next with `memchr`: XLIFF lines are a
    /// hundred bytes or more, and `memchr` looks at 32 of them at a time.
    static func lineFeedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard var cursor = bytes.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let end = cursor + bytes.count
        var count = 0
        while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
            count += 1
            cursor = UnsafeRawPointer(found) + 1
        }
        return count
    }

    /// The line and column of byte `target`, found from a later byte whose position is known
    /// (`reference`, at `position`) by walking back between them: for the few places the
    /// reader finds after it has moved on, such as the `state` of an empty target.
    static func position(
        of target: Int, before reference: Int, at position: (line: Int, column: Int), in bytes: [UInt8], start: Int
    ) -> (line: Int, column: Int) {
        let target = min(max(target, start), reference)
        return bytes.withUnsafeBufferPointer { buffer in
            var breaks = 0
            var index = target
            while index < reference {
                if buffer[index] == 0x0A || (buffer[index] == 0x0D && (index + 1 >= buffer.count || buffer[index + 1] != 0x0A)) {
                    breaks += 1
                }
                index += 1
            }
            if breaks == 0 {
                return (position.line, position.column - UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: buffer[target..<reference])))
            }
            var lineStart = target
            while lineStart > start, buffer[lineStart - 1] != 0x0A, buffer[lineStart - 1] != 0x0D { lineStart -= 1 }
            return (position.line - breaks, 1 + UTF8Bytes.scalarCount(UnsafeBufferPointer(rebasing: buffer[lineStart..<target])))
        }
    }

    /// The offset of the last `byte` in `buffer[lower..<upper]`, looking at eight bytes at a
    /// time from the end: the reader asks where a tag or a line starts, some way back from
    /// where libxml2 is.
    static func lastIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from lower: Int, to upper: Int) -> Int? {
        guard let base = buffer.baseAddress, lower < upper else { return nil }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var end = upper
        while end - lower >= 8 {
            let word = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) ^ (UInt64(byte) &* ones)
            // The high bit of each byte that is zero in `word`, that is `byte` in the text. Exact
            // for every byte (no carry crosses a byte), so the highest bit is the last match.
            let matches = ~(((word & lowBits) &+ lowBits) | word | lowBits)
            if matches != 0 { return end - 8 + (63 - matches.leadingZeroBitCount) / 8 }
            end -= 8
        }
        while end > lower {
            end -= 1
            if buffer[end] == byte { return end }
        }
        return nil
    }

    /// Whether the bytes hold a line break (LF or CR).
    static func containsLineBreak(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, 0x0A, bytes.count) != nil || memchr(base, 0x0D, bytes.count) != nil
    }

}
