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

    /// The payload, when `payload` is a JSON object with every member of the right type.
    public init?(payload: JSONDocument.Node) {
        guard case .object = payload.value else { return nil }
        func string(_ key: String) -> String? {
            if case .string(let value)? = payload.member(key)?.value { return value }
            return nil
        }
        func integer(_ key: String) -> Int64? {
            if case .number(let text)? = payload.member(key)?.value { return Self.integer(text) }
            return nil
        }
        guard let originalTransactionId = string("originalTransactionId"), let appAppleId = integer("appAppleId"),
            let productId = string("productId"), let userLocale = string("userLocale"),
            let requestIdentifier = string("requestIdentifier"), UUIDText.parse(requestIdentifier) != nil,
            let signedDate = integer("signedDate"), let environment = string("environment")
        else { return nil }
        self.init(
            originalTransactionId: originalTransactionId, appAppleId: appAppleId, productId: productId, userLocale: userLocale,
            requestIdentifier: requestIdentifier.lowercased(), signedDate: signedDate, environment: environment)
    }

    /// A JSON number written as an integer (no fraction, no exponent) that fits 64 bits.
    static func integer(_ text: String) -> Int64? {
        guard !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return nil }
        return Int64(text)
    }

    /// Apple's name for an environment in a request.
    public static func name(of environment: Environment) -> String {
        switch environment {
        case .sandbox: "Sandbox"
        case .production: "Production"
        }
    }
}
