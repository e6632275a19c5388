import HummingbirdCore

/// PEM files for serving HTTPS directly. (Filled in once TLS's cost is measured.)
public struct TLSFiles: Sendable {
    public var certificateChainPath: String
    public var privateKeyPath: String

    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }

    func wrap(_ builder: HTTPServerBuilder) throws -> HTTPServerBuilder {
        builder
    }
}
