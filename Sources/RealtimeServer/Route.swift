import HTTPTypes

/// Which of the server's few endpoints a request is for. Anything else is answered at once,
/// without reading its body, and its connection closed.
enum Route: Equatable, Sendable {
    /// `POST` on the realtime path: Apple's request.
    case realtime
    /// `POST` on the notifications path (only with an experiment store): Apple's App Store
    /// Server Notifications.
    case notifications
    /// `GET /healthz`: which snapshot is served.
    case health
    /// `GET /livez`: the process answers.
    case live
    /// `GET /readyz`: it has a snapshot that answers something and is not draining.
    case ready
    /// `GET /metrics`.
    case metrics
    /// A known path with another method (405, with `Allow`).
    case methodNotAllowed(allow: String)
    /// Any other path (404).
    case notFound

    static let healthPath = "/healthz"
    static let livePath = "/livez"
    static let readyPath = "/readyz"
    static let metricsPath = "/metrics"
    /// The server's own paths, which the realtime path cannot be.
    static let reservedPaths = [healthPath, livePath, readyPath, metricsPath]

    init(method: HTTPRequest.Method, path: String, realtimePath: String, notificationsPath: String? = nil) {
        switch path {
        case realtimePath: self = method == .post ? .realtime : .methodNotAllowed(allow: "POST")
        case notificationsPath: self = method == .post ? .notifications : .methodNotAllowed(allow: "POST")
        case Self.healthPath: self = method == .get ? .health : .methodNotAllowed(allow: "GET")
        case Self.livePath: self = method == .get ? .live : .methodNotAllowed(allow: "GET")
        case Self.readyPath: self = method == .get ? .ready : .methodNotAllowed(allow: "GET")
        case Self.metricsPath: self = method == .get ? .metrics : .methodNotAllowed(allow: "GET")
        default: self = .notFound
        }
    }
}
