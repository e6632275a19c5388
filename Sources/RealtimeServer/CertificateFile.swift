import Foundation
import Model

/// Certificates read from a file, PEM (any number of `CERTIFICATE` blocks) or DER (one).
public enum CertificateFile {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The DER bytes of every certificate in the file at `path`.
    public static func derCertificates(at path: String) throws(Failure) -> [[UInt8]] {
        let bytes: [UInt8]
        switch FileReader.bytes(at: URL(fileURLWithPath: path), limit: 1 << 20) {
        case .success(let read): bytes = read
        case .failure(.missing): throw Failure(description: "the certificate '\(path)' does not exist")
        case .failure(.tooLarge(let size)): throw Failure(description: "the certificate '\(path)' has \(size) bytes; a certificate has a few thousand")
        case .failure(.unreadable(let reason)): throw Failure(description: "the certificate '\(path)' cannot be read: \(reason)")
        }
        // DER starts with a SEQUENCE tag; PEM is text.
        if bytes.first == 0x30 { return [bytes] }
        let text = String(decoding: bytes, as: UTF8.self)
        var certificates: [[UInt8]] = []
        var body: String? = nil
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if line == "-----END CERTIFICATE-----", let base64 = body {
                guard let der = Data(base64Encoded: base64) else {
                    throw Failure(description: "the certificate '\(path)' has a PEM block that is not base64")
                }
                certificates.append([UInt8](der))
                body = nil
            } else if body != nil {
                body! += line
            }
        }
        guard !certificates.isEmpty else {
            throw Failure(description: "the certificate '\(path)' is neither DER nor PEM with a CERTIFICATE block")
        }
        return certificates
    }
}
