import CCrypto
import Foundation

/// SHA-1 and SHA-256 through OpenSSL's libcrypto.
public enum Digest {
    public static func sha256<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var output = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        hash(bytes, into: &output) { pointer, count, out in _ = SHA256(pointer, count, out) }
        return output
    }

    public static func sha1<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var output = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        hash(bytes, into: &output) { pointer, count, out in _ = SHA1(pointer, count, out) }
        return output
    }

    /// Lower-case hexadecimal SHA-256 of the file at `path`, read a megabyte at a time: a file
    /// of any size is hashed in bounded memory. Nil when the file cannot be opened or read.
    public static func sha256Hex(ofFileAt path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            guard buffer.withUnsafeBytes({ EVP_DigestUpdate(context, $0.baseAddress, count) }) == 1 else { return nil }
        }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &output, &length) == 1 else { return nil }
        return hex(Array(output.prefix(Int(length))))
    }

    /// Lower-case hexadecimal SHA-256.
    public static func sha256Hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        hex(sha256(bytes))
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var result = [UInt8]()
        result.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hash<Bytes: Collection>(
        _ bytes: Bytes, into output: inout [UInt8],
        _ function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> Void
    ) where Bytes.Element == UInt8 {
        let hashedInPlace: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            output.withUnsafeMutableBufferPointer { function(buffer.baseAddress, buffer.count, $0.baseAddress) }
            return true
        }
        if hashedInPlace == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { buffer in
                output.withUnsafeMutableBufferPointer { function(buffer.baseAddress, buffer.count, $0.baseAddress) }
            }
        }
    }
}
