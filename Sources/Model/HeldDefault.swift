/// The default message Apple serves for one product and locale, as Get Default Message answered
/// when `msgc state fetch --defaults` read it: a message identifier, or none (Apple's 404
/// `DefaultMessageNotFoundError`), which is a fact as well: nothing is shown there by default.
public struct HeldDefault: Hashable, Sendable {
    public var product: String
    public var locale: String
    /// The message Apple serves there, in lower case; nil when Apple serves none.
    public var messageIdentifier: String?
    /// Where the entry is written in the state file.
    public var location: SourceLocation

    public init(product: String, locale: String, messageIdentifier: String?, location: SourceLocation) {
        self.product = product
        self.locale = locale
        self.messageIdentifier = messageIdentifier?.lowercased()
        self.location = location
    }
}

extension HeldDefault {
    /// The state file's `defaults` member: one entry per product and locale, sorted by product
    /// then locale, `messageIdentifier` `null` where Apple serves none.
    static func json(_ defaults: [HeldDefault]) -> JSONValue {
        .array(defaults.sorted { ($0.product, $0.locale) < ($1.product, $1.locale) }.map { held in
            .object([
                "product": .string(held.product), "locale": .string(held.locale),
                "messageIdentifier": held.messageIdentifier.map { .string($0) } ?? .null,
            ])
        })
    }
}
