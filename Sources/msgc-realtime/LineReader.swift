import Foundation

/// Reads a file one line at a time in bounded memory: a chunk and the current line, which is
/// cut at `maxLineBytes` (the rest of a longer line is read and counted, never kept), so
/// `msgc realtime outcomes import` takes a file of any size.
struct LineReader {
    enum Line: Equatable {
        /// The line's bytes, without its `\n` (a `\r` before it is the caller's to trim).
        case text([UInt8])
        /// The line had more than `maxLineBytes`; this many.
        case tooLong(byteCount: Int)
    }

    /// `read(2)` failed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let descriptor: Int32
    let maxLineBytes: Int
    private var chunk: [UInt8]
    private var start = 0
    private var end = 0
    private var isAtEnd = false
    /// The number of the line `next()` returned last, from 1.
    private(set) var lineNumber = 0

    init(descriptor: Int32, maxLineBytes: Int, chunkBytes: Int = 64 << 10) {
        self.descriptor = descriptor
        self.maxLineBytes = maxLineBytes
        chunk = [UInt8](repeating: 0, count: max(chunkBytes, 1))
    }

    /// The next line, or nil after the last (a final line without `\n` is a line; an empty
    /// file has none).
    mutating func next() throws(Failure) -> Line? {
        var line: [UInt8] = []
        var byteCount = 0
        var sawAny = false
        while true {
            if start == end {
                if isAtEnd { break }
                try fill()
                if start == end { break }
            }
            sawAny = true
            let newline = chunk[start..<end].firstIndex(of: 0x0A)
            let stop = newline ?? end
            let piece = stop - start
            if byteCount + piece <= maxLineBytes {
                line.append(contentsOf: chunk[start..<stop])
            } else if byteCount < maxLineBytes {
                line.append(contentsOf: chunk[start..<start + (maxLineBytes - byteCount)])
            }
            byteCount += piece
            start = stop
            if newline != nil {
                start += 1
                lineNumber += 1
                return byteCount > maxLineBytes ? .tooLong(byteCount: byteCount) : .text(line)
            }
        }
        guard sawAny else { return nil }
        lineNumber += 1
        return byteCount > maxLineBytes ? .tooLong(byteCount: byteCount) : .text(line)
    }

    private mutating func fill() throws(Failure) {
        start = 0
        end = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: String(cString: strerror(errno)))
            }
            if count == 0 { isAtEnd = true }
            end = count
            return
        }
    }
}
