import HTTPTypes

/// Which of the server's few endpoints a request is for. Anything else is answered at once,
/// without reading its body, and its connection closed.
enum Route: Equatable, Sendable {
    /// `POST` on the realtime path: Apple's request.
    case realtime
    /// `GET /healthz`.
    case health
    /// `GET /metrics`.
    case metrics
    /// A known path with another method (405, with `Allow`).
    case methodNotAllowed(allow: String)
    /// Any other path (404).
    case notFound

    static let healthPath = "/healthz"
    static let metricsPath = "/metrics"

    init(method: HTTPRequest.Method, path: String, realtimePath: String) {
        switch path {
        case realtimePath: self = method == .post ? .realtime : .methodNotAllowed(allow: "POST")
        case Self.healthPath: self = method == .get ? .health : .methodNotAllowed(allow: "GET")
        case Self.metricsPath: self = method == .get ? .metrics : .methodNotAllowed(allow: "GET")
        default: self = .notFound
        }
    }
}
