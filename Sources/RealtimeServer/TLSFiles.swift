import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// A certificate chain and its private key, both PEM, read once at start, for serving HTTPS
/// directly (TLS 1.2 and later). A server behind a proxy or load balancer that terminates TLS
/// does without.
public struct TLSFiles: Sendable {
    let configuration: TLSConfiguration

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Reads both files now, so that a file that cannot be used stops the server before it
    /// listens.
    public init(certificateChainPath: String, privateKeyPath: String) throws(Failure) {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateChainPath)
        } catch {
            throw Failure(description: "the TLS certificate '\(certificateChainPath)' cannot be read as PEM: \(error)")
        }
        guard !chain.isEmpty else { throw Failure(description: "the TLS certificate '\(certificateChainPath)' holds no certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        } catch {
            throw Failure(description: "the TLS key '\(privateKeyPath)' cannot be read as a PEM private key: \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        self.configuration = configuration
    }

    func wrap(_ builder: HTTPServerBuilder) throws -> HTTPServerBuilder {
        try .tls(builder, tlsConfiguration: configuration)
    }
}
