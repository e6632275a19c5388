import Foundation

/// JSON-RPC messages over a byte stream with LSP's base protocol: a header part of
/// `Name: value` lines ending in CRLF, an empty line, then `Content-Length` bytes of UTF-8 JSON.
///
/// msgc reads the stream itself rather than through a library: the package set has no LSP or
/// JSON-RPC layer for Linux short of a whole server framework, and the framing is a few dozen
/// lines. A header part without `Content-Length`, or one larger than any header should be, is
/// skipped and reported to the caller, which keeps serving.
struct MessageReader {
    enum Event: Equatable {
        /// One message's body.
        case message([UInt8])
        /// A header part that could not be used; its bytes were dropped.
        case badHeader(String)
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

    /// `read` appends what the stream has next and returns false at its end.
    init(read: @escaping (inout [UInt8]) -> Bool) {
        self.read = read
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
        // The header part: up to the first CRLF CRLF.
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = Self.find([13, 10, 13, 10], in: buffer, from: start)
            if headerEnd != nil { break }
            if buffer.count - start > Self.maxHeaderBytes {
                buffer.removeAll()
                start = 0
                return .badHeader("a header part longer than \(Self.maxHeaderBytes) bytes")
            }
            if !fill() { return .end }
        }
        let header = String(decoding: buffer[start..<headerEnd!], as: UTF8.self)
        start = headerEnd! + 4
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { continue }
            length = Int(parts[1].trimmingCharacters(in: .whitespaces))
        }
        guard let length, length >= 0 else { return .badHeader("a header part without a Content-Length: \(header.debugDescription)") }
        guard length <= Self.maxBodyBytes else {
            // Read past the body, so that the next message is found where it starts.
            var remaining = length
            while remaining > 0 {
                let available = buffer.count - start
                if available == 0 {
                    compact()
                    if !fill() { return .end }
                    continue
                }
                let taken = min(available, remaining)
                start += taken
                remaining -= taken
            }
            return .badHeader("a body of \(length) bytes, more than \(Self.maxBodyBytes)")
        }
        while buffer.count - start < length {
            if !fill() { return .end }
        }
        let body = Array(buffer[start..<(start + length)])
        start += length
        compact()
        return .message(body)
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

    static func find(_ needle: [UInt8], in haystack: [UInt8], from offset: Int) -> Int? {
        guard haystack.count - offset >= needle.count else { return nil }
        var index = offset
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

/// Writes messages with LSP's base protocol.
struct MessageWriter {
    let write: ([UInt8]) -> Void

    init(write: @escaping ([UInt8]) -> Void) {
        self.write = write
    }

    /// Writes to a file descriptor, all of each message or nothing more once it fails.
    init(fileDescriptor: Int32) {
        self.init { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                offset += count
            }
        }
    }

    func send(_ body: [UInt8]) {
        write(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }
}
