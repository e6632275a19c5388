import Model

/// UUID version 5 (RFC 9562 §5.5): SHA-1 of a namespace UUID and a name, written in lower case.
public struct NameBasedUUID: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// The UUID for `name` (its UTF-8 bytes) in `namespace` (16 bytes).
    public init(namespace: [UInt8], name: String) {
        precondition(namespace.count == 16, "a UUID namespace has 16 bytes")
        var hash = Digest.sha1(namespace + Array(name.utf8))
        hash = Array(hash.prefix(16))
        hash[6] = (hash[6] & 0x0F) | 0x50
        hash[8] = (hash[8] & 0x3F) | 0x80
        bytes = hash
    }

    /// The UUID for `name` in the namespace written as text; nil if that is not a UUID.
    public init?(namespace: String, name: String) {
        guard let namespaceBytes = UUIDText.parse(namespace) else { return nil }
        self.init(namespace: namespaceBytes, name: name)
    }

    /// `xxxxxxxx-xxxx-5xxx-yxxx-xxxxxxxxxxxx`, lower case.
    public var description: String {
        let hex = Digest.hex(bytes)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
