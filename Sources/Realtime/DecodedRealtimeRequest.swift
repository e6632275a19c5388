import Bundle
import Model

/// The verified payload of Apple's realtime request (`DecodedRealtimeRequestBody`): every
/// member required, each of its JSON type.
///
/// Stricter than Apple's Python library, whose converter turns a number into a string or a
/// numeric string into a number where a member's type asks for it: here a member of another
/// JSON type, a fractional or out-of-range number, or a `requestIdentifier` not written
/// `8-4-4-4-12` is a malformed payload. Members Apple may add later are ignored.
public struct DecodedRealtimeRequest: Hashable, Sendable {
    public var originalTransactionId: String
    public var appAppleId: Int64
    public var productId: String
    /// The device's locale, as Apple writes it (`en_US`, `de-DE`).
    public var userLocale: String
    /// A UUID, lower-cased.
    public var requestIdentifier: String
    /// Milliseconds since 1970.
    public var signedDate: Int64
    /// `Sandbox` or `Production` (or another of Apple's environments, which no snapshot is for).
    public var environment: String

    public init(
        originalTransactionId: String, appAppleId: Int64, productId: String, userLocale: String, requestIdentifier: String,
        signedDate: Int64, environment: String
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }

    /// The payload, when `payload` is a JSON object with every member of the right type (read
    /// strictly: `null` is no string and no number).
    public init?(payload: JSONDocument.Node) {
        let payload = JSONCursor(payload, file: "the request's payload", reading: .strict, naming: .memberName)
        guard case .object = payload.node.value,
            let originalTransactionId = try? payload.string("originalTransactionId"), let appAppleId = try? payload.integer("appAppleId"),
            let productId = try? payload.string("productId"), let userLocale = try? payload.string("userLocale"),
            let requestIdentifier = try? payload.string("requestIdentifier"), UUIDText.parse(requestIdentifier) != nil,
            let signedDate = try? payload.integer("signedDate"), let environment = try? payload.string("environment")
        else { return nil }
        self.init(
            originalTransactionId: originalTransactionId, appAppleId: Int64(appAppleId), productId: productId, userLocale: userLocale,
            requestIdentifier: requestIdentifier.lowercased(), signedDate: Int64(signedDate), environment: environment)
    }

    /// Apple's name for an environment in a request.
    public static func name(of environment: Environment) -> String {
        switch environment {
        case .sandbox: "Sandbox"
        case .production: "Production"
        }
    }
}
