import Foundation

/// JSON-RPC messages over a byte stream with LSP's base protocol: a header part of
/// `Name: value` lines ending in CRLF, an empty line, then `Content-Length` bytes of UTF-8 JSON.
///
/// msgc reads the stream itself rather than through a library: the package set has no LSP or
/// JSON-RPC layer for Linux short of a whole server framework, and the framing is short.
///
/// One bad frame must not end the session, so the reader finds its way back to the next one:
/// - bytes that are no header part (garbage between frames, the rest of a body whose length was
///   too short) are dropped up to the next `Content-Length` header;
/// - a header part without a usable Content-Length (missing, not a number) is dropped the same
///   way, and reported as a message lost;
/// - a Content-Length larger than the body: the body's JSON value is followed as it arrives
///   (`JSONExtent`), and once it ends, the message is handed on at once, without waiting for
///   bytes that are the next message's or that the client never sends while it waits for the
///   answer; whitespace the length still promised is dropped when it comes;
/// - a body larger than `maxBodyBytes` is skipped without being kept in memory;
/// - header lines ending in a bare LF, and a body right after a header line, are accepted.
struct MessageReader {
    enum Event: Equatable {
        /// One message's body.
        case message([UInt8])
        /// Bytes that were no usable frame were dropped; `lost` when they may have held a
        /// message (the client is told with a parse error).
        case skipped(String, lost: Bool)
        /// A frame was read although it was not as the protocol says, for the log.
        case notice(String)
        /// The stream ended.
        case end
    }

    /// The most bytes a header part may take, and a body: an XLIFF file an editor sends whole
    /// is at most 64 MiB, escaped into JSON at most six bytes a byte.
    static let maxHeaderBytes = 8 << 10
    static let maxBodyBytes = 400 << 20

    private let read: (inout [UInt8]) -> Bool
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes the last frame's Content-Length promised after its JSON value had ended and the
    /// message had been handed on: whitespace there is dropped, anything else begins a frame.
    private var owed = 0
    private var pendingNotice: String?
    private let bodyLimit: Int

    /// `read` appends what the stream has next and returns false at its end.
    init(maxBodyBytes: Int = MessageReader.maxBodyBytes, read: @escaping (inout [UInt8]) -> Bool) {
        self.read = read
        self.bodyLimit = maxBodyBytes
    }

    /// Reads from a file descriptor.
    init(fileDescriptor: Int32) {
        self.init { buffer in
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = chunk.withUnsafeMutableBytes { Foundation.read(fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer += chunk[..<count]
                    return true
                }
                if count < 0 && errno == EINTR { continue }
                return false
            }
        }
    }

    mutating func next() -> Event {
        if let notice = pendingNotice {
            pendingNotice = nil
            return .notice(notice)
        }
        var skipped = 0
        func skippedEvent() -> Event {
            .skipped(skipped == 1 ? "1 byte that was not a frame" : "\(skipped) bytes that were not a frame", lost: false)
        }
        while true {
            // Whitespace between frames, or the rest of what the last frame's length promised
            // (inside dropped bytes, whitespace is dropped bytes too).
            while skipped == 0, start < buffer.count, Self.isWhitespace(buffer[start]) {
                start += 1
                owed = max(0, owed - 1)
            }
            if start == buffer.count {
                if !fill() { return skipped > 0 ? skippedEvent() : .end }
                continue
            }
            if owed > 0 {
                owed = 0
                if skipped == 0 { return .notice(Self.lengthTooLong) }
            }
            switch header(at: start) {
            case .needMore:
                if !fill() {
                    skipped += buffer.count - start
                    start = buffer.count
                    return skippedEvent()
                }
            case .frame(let length, let bodyStart, let notice):
                // What was dropped is reported first; the header is read again on the next call.
                if skipped > 0 { return skippedEvent() }
                start = bodyStart
                let (event, bodyNotice) = body(length: length)
                let notices = [notice, bodyNotice].compactMap { $0 }
                pendingNotice = notices.isEmpty ? nil : notices.joined(separator: "; ")
                return event
            case .unusable(let why, let end) where skipped == 0:
                // Where a frame was due: its message is lost, which the client hears at once;
                // its body, if any, is dropped on the next call. (Among dropped bytes, a bad
                // header is more of them.)
                start = end
                return .skipped(why, lost: true)
            case .unusable:
                fallthrough
            case .notAHeader:
                if let candidate = findContentLength(from: start + 1) {
                    skipped += candidate - start
                    start = candidate
                } else {
                    // Keep a tail that could be the start of "Content-Length".
                    let keep = min(Self.contentLength.count - 1, buffer.count - start - 1)
                    skipped += buffer.count - keep - start
                    start = buffer.count - keep
                    if !fill() {
                        skipped += buffer.count - start
                        start = buffer.count
                        return skippedEvent()
                    }
                }
            }
        }
    }

    // MARK: - Header part

    private enum Header {
        case needMore
        /// A usable header part; `notice` when it was not quite as the protocol says.
        case frame(length: Int, bodyStart: Int, notice: String?)
        /// A header part whose frame cannot be read, so that a message may be lost; `end` is
        /// where the header part ended.
        case unusable(String, end: Int)
        /// Bytes that are no header part.
        case notAHeader
    }

    static let contentLength = Array("content-length".utf8)
    static let lengthTooLong = "a Content-Length larger than its JSON body; the next frame began where the body ended"

    /// Reads the header part that starts at `index`.
    private func header(at index: Int) -> Header {
        var lineStart = index
        var length: Int?
        var lengthText: String?
        while true {
            let searchEnd = min(buffer.count, index + Self.maxHeaderBytes + 2)
            guard let lineFeed = buffer[lineStart..<searchEnd].firstIndex(of: 0x0A) else {
                if let length, let first = buffer[lineStart...].first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                    return .frame(length: length, bodyStart: lineStart, notice: "a header part without the empty line that ends it")
                }
                if case .body(let bodyStart, let value) = contentLengthLine(lineStart..<buffer.count) {
                    return .frame(length: value, bodyStart: bodyStart, notice: "a Content-Length header without a line break before the body")
                }
                if searchEnd < buffer.count { return .unusable("a header part longer than \(Self.maxHeaderBytes) bytes", end: searchEnd) }
                // Nothing of the line yet, or only the CR of a line break.
                if buffer.count - lineStart <= 1 && buffer[lineStart...].allSatisfy({ $0 == 0x0D }) { return .needMore }
                return Self.couldStartHeaderLine(buffer[lineStart..<buffer.count]) ? .needMore : .notAHeader
            }
            var lineEnd = lineFeed
            if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd == lineStart {
                if lineStart == index { return .notAHeader }
                guard let length else {
                    return .unusable(lengthText.map { "Content-Length '\($0)' is not a byte count" } ?? "a header part without Content-Length",
                                     end: lineFeed + 1)
                }
                return .frame(length: length, bodyStart: lineFeed + 1, notice: nil)
            }
            if let length, buffer[lineStart] == UInt8(ascii: "{") || buffer[lineStart] == UInt8(ascii: "[") {
                return .frame(length: length, bodyStart: lineStart, notice: "a header part without the empty line that ends it")
            }
            guard Self.couldStartHeaderLine(buffer[lineStart..<lineEnd]), buffer[lineStart..<lineEnd].contains(UInt8(ascii: ":")) else {
                return .notAHeader
            }
            switch contentLengthLine(lineStart..<lineEnd) {
            case .other: break
            case .value(let value): length = value
            case .body(let bodyStart, let value):
                return .frame(length: value, bodyStart: bodyStart, notice: "a Content-Length header without a line break before the body")
            case .invalid(let text):
                lengthText = text
                length = nil
            }
            lineStart = lineFeed + 1
        }
    }

    private enum ContentLengthLine {
        case other
        case value(Int)
        /// Digits followed at once by a JSON body, as when the line break was left out.
        case body(start: Int, Int)
        case invalid(String)
    }

    /// Reads a `Content-Length` line: digits, optional blanks around them. A number larger
    /// than any Int is as good as one too large to read.
    private func contentLengthLine(_ range: Range<Int>) -> ContentLengthLine {
        let line = buffer[range]
        guard line.count > Self.contentLength.count,
              zip(line, Self.contentLength).allSatisfy({ $0 | 0x20 == $1 }) else { return .other }
        var index = range.lowerBound + Self.contentLength.count
        while index < range.upperBound, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
        guard index < range.upperBound, buffer[index] == UInt8(ascii: ":") else { return .other }
        index += 1
        while index < range.upperBound, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
        var value = 0
        var digits = 0
        while index < range.upperBound, buffer[index] >= UInt8(ascii: "0") && buffer[index] <= UInt8(ascii: "9") {
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            value = overflow ? Int.max : min(Int.max - 9, product) + Int(buffer[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        if digits > 0, index < range.upperBound, buffer[index] == UInt8(ascii: "{") || buffer[index] == UInt8(ascii: "[") {
            return .body(start: index, value)
        }
        while index < range.upperBound, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
        guard digits > 0, index == range.upperBound else {
            let text = String(decoding: buffer[range].dropFirst(Self.contentLength.count + 1).prefix(40), as: UTF8.self)
            return .invalid(text.trimmingCharacters(in: .whitespaces).debugDescription.dropFirst().dropLast().description)
        }
        return .value(value)
    }

    /// Whether `line` (whole or the part that has arrived) can begin a header line: a name of
    /// token characters up to a colon, then a value without control characters.
    static func couldStartHeaderLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first, isTokenByte(first) else { return false }
        var inValue = false
        for byte in line {
            if inValue {
                if byte < 0x20 && byte != 0x09 && byte != 0x0D || byte == 0x7F { return false }
            } else if byte == UInt8(ascii: ":") {
                inValue = true
            } else if !isTokenByte(byte) {
                return false
            }
        }
        return true
    }

    /// RFC 9110's token characters, which header names are made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Where the next `Content-Length` (in any case) begins, at or after `index`.
    private func findContentLength(from index: Int) -> Int? {
        let needle = Self.contentLength
        var candidate = index
        while candidate + needle.count <= buffer.count {
            if buffer[candidate] | 0x20 == needle[0],
               zip(buffer[candidate..<(candidate + needle.count)], needle).allSatisfy({ $0 | 0x20 == $1 }) {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    // MARK: - Body

    /// Reads the body of a frame whose header part said `length`, from `start`; the notice is
    /// set when the body's JSON value ended before `length` and another frame began there.
    /// A value that ends before `length` is handed on without what follows it (whitespace).
    private mutating func body(length: Int) -> (Event, String?) {
        var extent = JSONExtent()
        var scanned = 0
        while true {
            let available = buffer.count - start
            let limit = min(available, length)
            while scanned < limit, extent.state == .reading {
                extent.feed(buffer[start + scanned])
                scanned += 1
            }
            if extent.state == .complete && scanned < length {
                // The value ended before the promised length: hand it on now. Whitespace up to
                // the length is the frame's; anything else is the next frame's.
                var after = scanned
                while after < min(available, length), Self.isWhitespace(buffer[start + after]) { after += 1 }
                let body = Array(buffer[start..<(start + scanned)])
                let nextFrame = after < min(available, length)
                start += after
                owed = length - after
                if nextFrame { owed = 0 }
                compact()
                return (.message(body), nextFrame ? Self.lengthTooLong : nil)
            }
            if length <= bodyLimit && available >= length {
                let body = Array(buffer[start..<(start + length)])
                start += length
                compact()
                return (.message(body), nil)
            }
            if length > bodyLimit && scanned >= bodyLimit {
                return (skipBody(length: length, extent: extent, scanned: scanned), nil)
            }
            if !fill() { return (.end, nil) }
        }
    }

    /// Drops a body too large to keep, up to its length or to where its JSON value ended and
    /// something other than whitespace followed.
    private mutating func skipBody(length: Int, extent: JSONExtent, scanned: Int) -> Event {
        var extent = extent
        var remaining = length - scanned
        start += scanned
        while remaining > 0 {
            if start == buffer.count {
                compact()
                if !fill() { break }
                continue
            }
            let byte = buffer[start]
            if extent.state == .complete && !Self.isWhitespace(byte) { break }
            extent.feed(byte)
            start += 1
            remaining -= 1
        }
        compact()
        return .skipped("a body of \(length) bytes, more than \(bodyLimit)", lost: true)
    }

    private mutating func fill() -> Bool {
        compact()
        return read(&buffer)
    }

    /// Drops what has been consumed, once it is most of the buffer.
    private mutating func compact() {
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

/// Writes messages with LSP's base protocol.
struct MessageWriter {
    /// Writes all of the bytes; returns the `errno` of a write that failed, nil when all went.
    let write: ([UInt8]) -> Int32?

    init(write: @escaping ([UInt8]) -> Int32?) {
        self.write = write
    }

    /// Writes to a file descriptor, all of each message or nothing more once it fails.
    init(fileDescriptor: Int32) {
        self.init { Self.writeAll($0, to: fileDescriptor) }
    }

    /// Writes all of `bytes` to `fileDescriptor`; returns the `errno` of a write that failed.
    static func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return errno }
            if count == 0 { return EIO }
            offset += count
        }
        return nil
    }

    /// Sends one message; returns the `errno` of a write that failed.
    func send(_ body: [UInt8]) -> Int32? {
        write(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }
}
