/// Why the server answered a realtime request before its body reached the responder. The raw
/// values are the `reason` label of `msgc_realtime_refusals_total` and the log line's `reason`,
/// beside the responder's own `RealtimeRefusal` values.
enum BodyRefusal: String, Sendable, Error {
    /// More bytes than the cap (413): Apple's bodies are a few kilobytes.
    case tooLarge = "body-too-large"
    /// The whole body did not arrive in time (408): a trickling client holds only its own
    /// connection, and only that long.
    case tooSlow = "body-too-slow"

    var status: Int {
        switch self {
        case .tooLarge: 413
        case .tooSlow: 408
        }
    }
}
