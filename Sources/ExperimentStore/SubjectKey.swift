import CCrypto
import Foundation
import Model

/// The secret that turns a subscriber's originalTransactionId into the `SubjectHash` the store
/// keeps: HMAC-SHA256 under at least 32 bytes read from `--subject-key FILE`.
///
/// A plain hash of a transaction id could be reversed by anyone holding the id (Apple, the app's
/// own backend, a leaked log); a keyed hash cannot without the key, and the same key on every
/// server makes the same subscriber the same hash everywhere. The file's bytes are the key as
/// they are (a trailing newline included), so any tool that writes random bytes makes one:
/// `head -c 32 /dev/urandom > subject.key`.
public struct SubjectKey: Sendable {
    public static let minimumByteCount = 32
    /// Far more than a key needs; a larger file is surely the wrong one.
    static let maximumByteCount = 64 << 10

    private let bytes: [UInt8]

    public init(bytes: [UInt8]) throws(StoreError) {
        guard bytes.count >= Self.minimumByteCount else {
            throw .usage("the subject key has \(bytes.count) bytes; it needs at least \(Self.minimumByteCount) random bytes")
        }
        self.bytes = bytes
    }

    /// The key in the file at `path`, and a warning when other users may read it.
    public static func read(file path: String) throws(StoreError) -> (key: SubjectKey, warning: String?) {
        let bytes: [UInt8]
        switch FileReader.bytes(atPath: path, limit: maximumByteCount) {
        case .success(let read): bytes = read
        case .failure(.missing): throw .usage("the subject key '\(path)' does not exist")
        case .failure(.tooLarge(let size)):
            throw .usage("the subject key '\(path)' has \(size) bytes; a key has \(minimumByteCount) to \(maximumByteCount)")
        case .failure(.unreadable(let reason)): throw .usage("the subject key '\(path)' cannot be read: \(reason)")
        }
        guard bytes.count >= minimumByteCount else {
            throw .usage(
                "the subject key '\(path)' has \(bytes.count) bytes; it needs at least \(minimumByteCount) random bytes (head -c 32 /dev/urandom > \(path))")
        }
        var status = stat()
        var warning: String?
        if stat(path, &status) == 0, status.st_mode & 0o044 != 0 {
            let mode = String(status.st_mode & 0o777, radix: 8)
            warning = "the subject key '\(path)' can be read by other users (mode \(mode)); chmod 600 it"
        }
        return (try SubjectKey(bytes: bytes), warning)
    }

    /// HMAC-SHA256 of the id's UTF-8 bytes under the key.
    public func hash(originalTransactionId: String) -> SubjectHash {
        let message = Array(originalTransactionId.utf8)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length = 0
        let made = bytes.withUnsafeBytes { key in
            message.withUnsafeBufferPointer { data in
                EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, key.baseAddress, key.count, data.baseAddress, data.count,
                          &output, output.count, &length)
            }
        }
        // libcrypto fails here only without memory or without SHA-256; a hash of nothing would
        // merge every subscriber into one, so that is not an answer either.
        precondition(made != nil && length == 32, "libcrypto cannot compute HMAC-SHA256")
        return SubjectHash(hex: Self.hex(output.prefix(length)))
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A subscriber as the store knows them: the lowercase hex HMAC-SHA256 of their
/// originalTransactionId. Only `SubjectKey` makes one from an id, and the store gives back the
/// ones it holds, so no store call can take an originalTransactionId in clear.
public struct SubjectHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hex: String

    init(hex: String) {
        self.hex = hex
    }

    public var description: String { hex }

    public static func < (lhs: SubjectHash, rhs: SubjectHash) -> Bool { lhs.hex < rhs.hex }
}
