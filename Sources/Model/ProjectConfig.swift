/// How translations are judged ready: the least XLIFF state that counts as translated.
public enum TranslationState: String, Codable, Sendable, CaseIterable, Comparable {
    /// No usable target: absent, empty, or in a state that means "not translated yet".
    case untranslated
    case translated
    case reviewed
    case final

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// The unit in which Apple's length limits are counted.
/// What a locale ships when the source text of a message it translated has changed since
/// (`staleTranslations:` in msgc.yaml or on a message; docs/formats.md).
public enum StaleTranslationPolicy: String, Sendable, CaseIterable, Hashable {
    /// The locale keeps shipping its previous translation (the same text, so the same upload)
    /// until the translator updates it: a source edit changes nothing that locale shows.
    case keepPrevious = "keep-previous"
    /// The locale does not ship the message until it is translated again: for an edit whose
    /// old wording must not be shown any more (a price, a legal text).
    case withhold
}

public enum LengthMeasure: String, Codable, Sendable, CaseIterable {
    case graphemes
    case scalars
    case utf16
    case utf8

    /// The count of `text` in this measure.
    public func count(_ text: String) -> Int {
        switch self {
        case .graphemes: text.count
        case .scalars: text.unicodeScalars.count
        case .utf16: Self.utf16Count(text)
        case .utf8: text.utf8.count
        }
    }

    /// UTF-16 units counted from the UTF-8 bytes: one per scalar (every byte that is not a
    /// continuation byte), two for a scalar above the BMP (four-byte sequences). The same as
    /// `utf16.count`, without the index breadcrumbs that builds for every native string.
    static func utf16Count(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = 0
            for byte in bytes {
                if byte & 0xC0 != 0x80 { count += 1 }
                if byte >= 0xF0 { count += 1 }
            }
            return count
        }
    }

    /// How a count in this measure reads in a message: "UTF-16 units".
    public var unitName: String {
        switch self {
        case .graphemes: "graphemes"
        case .scalars: "scalars"
        case .utf16: "UTF-16 units"
        case .utf8: "UTF-8 bytes"
        }
    }
}

/// One auto-renewable subscription product that retention messages are written for.
public struct ProductConfig: Hashable, Sendable {
    public var id: Located<String>
    /// A narrower locale list than the project's, when given.
    public var locales: [Located<String>]?
    /// The subscription group the product belongs to, as the team names it: a switch-plan
    /// message may offer only a product of the same group.
    public var group: Located<String>?
    /// The messages its realtime answer offers, when given (`realtime:` in msgc.yaml).
    public var realtime: RealtimeChoice?

    public init(id: Located<String>, locales: [Located<String>]? = nil, group: Located<String>? = nil, realtime: RealtimeChoice? = nil) {
        self.id = id
        self.locales = locales
        self.group = group
        self.realtime = realtime
    }
}

/// How a realtime server picks among a product's messages: `realtime: [KEY, …]` (the first
/// usable one wins) or `realtime: [{message: KEY, weight: N}, …]` (a split, stable per
/// subscriber, over the usable ones).
public struct RealtimeChoice: Hashable, Sendable {
    public enum Mode: String, Hashable, Sendable {
        case firstUsable = "first-usable"
        case weighted
    }

    /// The largest weight an entry may have, wherever a weight is read (msgc.yaml, a manifest,
    /// a snapshot): a million entries at this weight still sum far inside 2^63.
    public static let maxWeight = 1_000_000

    public struct Arm: Hashable, Sendable {
        /// A message key of the same product.
        public var message: Located<String>
        /// The arm's share in a weighted split; 1 in a first-usable list.
        public var weight: Int

        public init(message: Located<String>, weight: Int = 1) {
            self.message = message
            self.weight = weight
        }
    }

    public var mode: Mode
    public var arms: [Arm]
    /// Where `realtime:` is written.
    public var location: SourceLocation

    public init(mode: Mode, arms: [Arm], location: SourceLocation) {
        self.mode = mode
        self.arms = arms
        self.location = location
    }
}

/// The contents of `msgc.yaml`.
///
/// Every value keeps its location. Values the file does not give, or gives wrongly, fall back
/// to defaults so that later stages can still run; the parser reports the mistake.
public struct ProjectConfig: Hashable, Sendable {
    public static let fileName = "msgc.yaml"

    public var bundleId: Located<String>
    public var sourceLocale: Located<String>
    public var locales: [Located<String>]
    public var extraLocales: [Located<String>]
    /// The UUID namespace of every identifier, as written (validated by the parser).
    public var namespace: Located<String>
    public var minimumState: TranslationState
    public var lengthMeasure: LengthMeasure
    public var products: [ProductConfig]
    /// `staleTranslations:`: what a locale ships when its translation is stale; a message's own
    /// `staleTranslations:` wins over it.
    public var staleTranslations: StaleTranslationPolicy = .keepPrevious
    /// `rules:`: a code (or a rule's name) turned off or given another severity, in the order
    /// written. Checked and applied by the compiler, which knows every code.
    public var ruleSettings: [RuleSetting] = []

    public init(
        bundleId: Located<String>, sourceLocale: Located<String>, locales: [Located<String>],
        extraLocales: [Located<String>] = [], namespace: Located<String>,
        minimumState: TranslationState = .translated, lengthMeasure: LengthMeasure = .utf16,
        products: [ProductConfig]
    ) {
        self.bundleId = bundleId
        self.sourceLocale = sourceLocale
        self.locales = locales
        self.extraLocales = extraLocales
        self.namespace = namespace
        self.minimumState = minimumState
        self.lengthMeasure = lengthMeasure
        self.products = products
    }
}

/// The locales each product's messages ship in, worked out once for every product: callers ask
/// about each of thousands of messages, and a search of the products for each would grow with
/// the square of the project.
public struct ProductLocales: Sendable {
    private let declared: [String: [String]]
    private let undeclared: [String]

    public init(_ config: ProjectConfig) {
        var declared: [String: [String]] = [:]
        // The first declaration of a product wins.
        for product in config.products where declared[product.id.value] == nil {
            declared[product.id.value] = Self.shipLocales(config, declared: product.locales)
        }
        self.declared = declared
        self.undeclared = Self.shipLocales(config, declared: nil)
    }

    /// The locales the product's messages ship in, source locale first, each once: those the
    /// product declares, else the project's.
    public subscript(productId: String) -> [String] {
        declared[productId] ?? undeclared
    }

    /// The ship locales of a product declared with `declared` locales (nil: the project's).
    private static func shipLocales(_ config: ProjectConfig, declared: [Located<String>]?) -> [String] {
        let list = (declared ?? config.locales).map(\.value)
        let sourceLocale = config.sourceLocale.value
        var seen = Set<String>()
        var ordered = [String]()
        for locale in [sourceLocale] + list where list.contains(locale) || locale == sourceLocale {
            if seen.insert(locale).inserted { ordered.append(locale) }
        }
        return ordered
    }
}

/// One entry of msgc.yaml's `rules:`, as written: `LEN002: off`, `TXT011: error`.
public struct RuleSetting: Hashable, Sendable {
    public enum Level: String, Hashable, Sendable, CaseIterable {
        case off, warning, error

        /// The level a setting's value names: `off`, `warning` or `error`, or `false` (also
        /// `False`, `FALSE`) for `off`. YAML 1.1 readers, such as many editors' YAML plugins,
        /// read `off` as the boolean false, and write it back as `false`.
        public init?(written: String) {
            switch written {
            case "false", "False", "FALSE": self = .off
            default: self.init(rawValue: written)
            }
        }
    }

    /// The code or rule name as written.
    public var code: Located<String>
    public var level: Located<Level>

    public init(code: Located<String>, level: Located<Level>) {
        self.code = code
        self.level = level
    }
}
