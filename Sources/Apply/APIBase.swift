import Bundle

/// Where msgc sends Apple's requests: Apple's host for an environment, or what `--api-base`
/// names (a proxy, a test server).
///
/// The text is checked by hand, strictly, and request URLs are built by appending to it, never
/// by a URL type that decodes: `%2e%2e` decoded is `..`, which moves a request elsewhere, and
/// `%20` or `%3F` decoded is not a path at all. A base is `http` or `https`, a host (a name, an
/// IPv4 address or a bracketed IPv6 address), an optional port, and an optional path of plain
/// segments; no user name or password, no query, no fragment, no percent escapes, no `.` or `..`
/// segment. Plain `http` is for loopback only: a token sent in the clear to another machine is
/// a token given away.
public struct APIBase: Hashable, Sendable, CustomStringConvertible {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `scheme://host[:port][/path]`, without a final `/`.
    public let text: String

    public var description: String { text }

    /// Apple's host for `environment`.
    public static func apple(_ environment: Environment) -> APIBase {
        APIBase(checked: environment == .production ? "https://api.storekit.apple.com" : "https://api.storekit-sandbox.apple.com")
    }

    private init(checked text: String) { self.text = text }

    /// The base `text` names, or why it is refused.
    public init(_ text: String) throws(Failure) {
        func refuse(_ why: String) -> Failure {
            Failure(description: "--api-base '\(text)' is refused: \(why)")
        }
        let lowered = text.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") {
            scheme = "https"
        } else if lowered.hasPrefix("http://") {
            scheme = "http"
        } else {
            throw refuse("it must start with https:// (or http:// for a server on this machine)")
        }
        let rest = String(text.dropFirst(scheme.count + 3))
        guard !rest.contains(where: { $0 == "?" || $0 == "#" }) else { throw refuse("a base URL has no query or fragment") }
        guard !rest.contains("@") else { throw refuse("a user name or password does not belong in the URL") }
        guard !rest.contains("%") else { throw refuse("percent escapes are not accepted; write the path as it is") }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = String(rest[..<slash])
        var path = String(rest[slash...])
        let (host, port) = try Self.split(authority, refuse)
        if path.hasSuffix("/") { path.removeLast() }
        if !path.isEmpty {
            for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                guard !segment.isEmpty, segment != ".", segment != "..",
                      segment.unicodeScalars.allSatisfy({ $0.isASCII && (Self.segmentCharacters.contains($0.value) || Self.isAlphanumeric($0.value)) })
                else { throw refuse("path segment '\(segment)' must be letters, digits and -._~ (no empty, . or .. segment)") }
            }
        }
        if scheme == "http" && !Self.isLoopback(host) {
            throw refuse("plain http is accepted only for a server on this machine (localhost, 127.0.0.1, [::1]); use https")
        }
        self.text = scheme + "://" + host.lowercased() + (port.map { ":\($0)" } ?? "") + path
    }

    /// The URL of `path` (which starts with `/` and holds only safe characters) with `query`.
    func url(_ path: String, query: [(name: String, value: String)] = []) -> String {
        text + path + (query.isEmpty ? "" : "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
    }

    private static let segmentCharacters: Set<UInt32> = Set("-._~".unicodeScalars.map(\.value))

    private static func isAlphanumeric(_ value: UInt32) -> Bool {
        (48...57).contains(value) || (65...90).contains(value) || (97...122).contains(value)
    }

    private static func split(_ authority: String, _ refuse: (String) -> Failure) throws(Failure) -> (host: String, port: Int?) {
        var host = authority
        var portText: String?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse("an IPv6 address needs its closing ]") }
            host = String(authority[...close])
            let inner = authority[authority.index(after: authority.startIndex)..<close]
            guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { throw refuse("'\(host)' is not an IPv6 address") }
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("only a port may follow the host") }
                portText = String(after.dropFirst())
            }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                host = String(authority[..<colon])
                portText = String(authority[authority.index(after: colon)...])
            }
            let labels = host.split(separator: ".", omittingEmptySubsequences: false)
            guard !host.isEmpty, host.utf8.count <= 253,
                  labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 && !$0.hasPrefix("-") && !$0.hasSuffix("-")
                      && $0.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0.value) || $0 == "-") } })
            else { throw refuse("'\(host)' is not a host name or address") }
        }
        guard let portText else { return (host, nil) }
        guard let port = Int(portText), portText.utf8.allSatisfy({ (48...57).contains($0) }), (1...65535).contains(port) else {
            throw refuse("the port must be a number from 1 to 65535")
        }
        return (host, port)
    }

    private static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
