import Foundation

/// Reads files of the content tree with a size cap, and tells I/O failures apart.
public enum FileReader {
    public enum Failure: Error, Equatable {
        case missing
        case tooLarge(Int)
        case unreadable(String)
    }

    /// The bytes of the file at `url`, refusing anything over `limit` bytes.
    public static func bytes(at url: URL, limit: Int) -> Result<[UInt8], Failure> {
        bytes(atPath: url.path, limit: limit)
    }

    /// The bytes of the file at `path`, refusing anything over `limit` bytes.
    public static func bytes(atPath path: String, limit: Int) -> Result<[UInt8], Failure> {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .failure(.missing) : .failure(.unreadable(String(cString: strerror(errno))))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return .failure(.unreadable("not a regular file")) }
        guard Int(status.st_size) <= limit else { return .failure(.tooLarge(Int(status.st_size))) }
        // Without blocking, and checked again on what was opened: a file swapped for a FIFO
        // between `stat` and `open` must be refused, not waited on for ever.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.unreadable("not a regular file"))
        }
        guard Int(status.st_size) <= limit else { return .failure(.tooLarge(Int(status.st_size))) }
        // Read straight into the result, as large as `stat` says, without filling it first;
        // then on in chunks until the end, for a file that grew meanwhile.
        var failure: Int32?
        var result = [UInt8](unsafeUninitializedCapacity: Int(status.st_size)) { buffer, count in
            count = 0
            while count < buffer.count {
                let read = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if read < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if read == 0 { return }
                count += read
            }
        }
        if let failure { return .failure(.unreadable(String(cString: strerror(failure)))) }
        // Nearly always the next read finds the end at once, so the buffer for what follows is
        // small and on the stack: a heap buffer would be fresh memory (and page faults) for
        // every file read.
        let growth: Failure? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 12) { chunk in
            while true {
                let count = read(descriptor, chunk.baseAddress, chunk.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    return .unreadable(String(cString: strerror(errno)))
                }
                if count == 0 { return nil }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<count]))
                if result.count > limit { return .tooLarge(result.count) }
            }
        }
        if let growth { return .failure(growth) }
        return .success(result)
    }
}

/// UTF-8 decoding that reports where decoding fails instead of repairing the text.
public enum UTF8Text {
    /// The byte offset of the first invalid sequence in a file.
    public struct InvalidByte: Error {
        public var offset: Int
    }

    /// The text of `bytes` without a leading BOM, or where decoding fails.
    public static func decode(_ bytes: [UInt8]) -> Result<String, InvalidByte> {
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let body = bytes[(hasBOM ? 3 : 0)...]
        if let offset = firstInvalidUTF8(in: body) { return .failure(InvalidByte(offset: offset)) }
        return .success(String(decoding: body, as: UTF8.self))
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence
    /// (overlong forms, surrogates and code points above U+10FFFF included), or nil.
    public static func firstInvalidUTF8(in bytes: ArraySlice<UInt8>) -> Int? {
        var position = bytes.startIndex
        while position < bytes.endIndex {
            let byte = bytes[position]
            if byte < 0x80 {
                position += 1
                continue
            }
            let length: Int
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return position
            }
            guard position + length <= bytes.endIndex else { return position }
            let second = bytes[position + 1]
            let secondRange: ClosedRange<UInt8> = switch byte {
            case 0xE0: 0xA0...0xBF
            case 0xED: 0x80...0x9F
            case 0xF0: 0x90...0xBF
            case 0xF4: 0x80...0x8F
            default: 0x80...0xBF
            }
            guard secondRange.contains(second) else { return position }
            for next in (position + 2)..<(position + length) where !(0x80...0xBF).contains(bytes[next]) {
                return position
            }
            position += length
        }
        return nil
    }

    /// The 1-based line and scalar column of byte `offset` in `bytes`.
    public static func lineAndColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < offset && index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }
}
