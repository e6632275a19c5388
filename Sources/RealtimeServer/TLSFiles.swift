import CTLS
import Foundation
import HummingbirdCore
import Model

/// A certificate chain and its private key, both PEM, read once at start, for serving HTTPS
/// directly (TLS 1.2 and later) with the system's OpenSSL, the library that already verifies
/// Apple's requests: one TLS stack, patched with the system. A server behind a proxy or load
/// balancer that terminates TLS does without.
public struct TLSFiles: Sendable {
    let context: TLSContext

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Reads both files now, so that a file that cannot be used stops the server before it
    /// listens.
    public init(certificateChainPath: String, privateKeyPath: String) throws(Failure) {
        let chain = try Self.read(certificateChainPath, what: "TLS certificate")
        let key = try Self.read(privateKeyPath, what: "TLS key")
        context = try TLSContext(chain: chain, chainPath: certificateChainPath, key: key, keyPath: privateKeyPath)
    }

    /// HTTP/1.1 over TLS: each connection's pipeline starts with the TLS handler.
    func builder(_ configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        let context = context
        return HTTPServerBuilder { responder in
            TLSChildChannel(base: HTTP1Channel(responder: responder, configuration: configuration), context: context)
        }
    }

    private static func read(_ path: String, what: String) throws(Failure) -> [UInt8] {
        switch FileReader.bytes(at: URL(fileURLWithPath: path), limit: 1 << 20) {
        case .success(let bytes): return bytes
        case .failure(.missing): throw Failure(description: "the \(what) '\(path)' does not exist")
        case .failure(.tooLarge(let size)): throw Failure(description: "the \(what) '\(path)' has \(size) bytes; PEM files of a chain and a key have a few thousand")
        case .failure(.unreadable(let reason)): throw Failure(description: "the \(what) '\(path)' cannot be read: \(reason)")
        }
    }
}

/// OpenSSL's server context: the chain, the key and the protocol settings every connection
/// starts from. Configured once in `init` and never changed after; OpenSSL documents creating
/// connections from one context on several threads at once as safe, which is all the event
/// loops do with it.
final class TLSContext: Sendable {
    nonisolated(unsafe) let pointer: OpaquePointer

    init(chain: [UInt8], chainPath: String, key: [UInt8], keyPath: String) throws(TLSFiles.Failure) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw TLSFiles.Failure(description: "OpenSSL cannot make a TLS context: \(Self.openSSLError())")
        }
        pointer = context
        guard msgc_tls_configure_server(context) == 1 else {
            throw TLSFiles.Failure(description: "OpenSSL refuses TLS 1.2 as the lowest version: \(Self.openSSLError())")
        }
        try Self.useChain(chain, path: chainPath, in: context)
        try Self.useKey(key, path: keyPath, in: context)
    }

    deinit { SSL_CTX_free(pointer) }

    /// Never asks for a passphrase (OpenSSL's default would prompt on the terminal): an
    /// encrypted key is refused instead.
    private static let noPassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = { _, _, _, _ in 0 }

    private static func useChain(_ bytes: [UInt8], path: String, in context: OpaquePointer) throws(TLSFiles.Failure) {
        let problem: String? = bytes.isEmpty ? "is empty" : bytes.withUnsafeBytes { raw in
            guard let memory = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                return "cannot be read: \(openSSLError())"
            }
            defer { BIO_free(memory) }
            guard let leaf = PEM_read_bio_X509_AUX(memory, nil, noPassphrase, nil) else {
                return "cannot be read as PEM (a CERTIFICATE block, then the rest of the chain): \(openSSLError())"
            }
            defer { X509_free(leaf) }
            guard SSL_CTX_use_certificate(context, leaf) == 1 else { return "cannot be used: \(openSSLError())" }
            while let next = PEM_read_bio_X509(memory, nil, noPassphrase, nil) {
                guard msgc_tls_add_chain_certificate(context, next) == 1 else {
                    X509_free(next)
                    return "has a certificate after the first that cannot be used: \(openSSLError())"
                }
            }
            // The loop ends on OpenSSL's "no start line": the end of the file, not an error.
            ERR_clear_error()
            return nil
        }
        if let problem { throw TLSFiles.Failure(description: "the TLS certificate '\(path)' \(problem)") }
    }

    private static func useKey(_ bytes: [UInt8], path: String, in context: OpaquePointer) throws(TLSFiles.Failure) {
        let problem: String? = bytes.isEmpty ? "is empty" : bytes.withUnsafeBytes { raw in
            guard let memory = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                return "cannot be read: \(openSSLError())"
            }
            defer { BIO_free(memory) }
            guard let key = PEM_read_bio_PrivateKey(memory, nil, noPassphrase, nil) else {
                return "cannot be read as a PEM private key without a passphrase: \(openSSLError())"
            }
            defer { EVP_PKEY_free(key) }
            guard SSL_CTX_use_PrivateKey(context, key) == 1 else { return "cannot be used: \(openSSLError())" }
            guard SSL_CTX_check_private_key(context) == 1 else {
                return "is not the key of the TLS certificate: \(openSSLError())"
            }
            return nil
        }
        if let problem { throw TLSFiles.Failure(description: "the TLS key '\(path)' \(problem)") }
    }

    /// OpenSSL's oldest queued error as text, and the queue emptied.
    static func openSSLError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no reason given" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
