/// What a diagnostic is about, so that later stages (build, coverage) can tell which message,
/// and which of its locales, a finding keeps from shipping, without parsing message text.
public struct Subject: Hashable, Codable, Sendable, Comparable {
    public var product: String
    public var key: String
    /// Absent when the finding concerns the message's source text, which affects every locale.
    public var locale: String?

    public init(product: String, key: String, locale: String? = nil) {
        self.product = product
        self.key = key
        self.locale = locale
    }

    public static func < (lhs: Subject, rhs: Subject) -> Bool {
        (lhs.product, lhs.key, lhs.locale ?? "") < (rhs.product, rhs.key, rhs.locale ?? "")
    }
}
