import Bundle

/// The product × locale matrix: for every product and every locale in that product's list,
/// how many of its messages are ready and why each other one is not.
///
/// Plain data, computed once by `Coverage.report` and read by every renderer. Counts are
/// integers; percentages exist only in renderings.
public struct CoverageReport: Hashable, Sendable {
    /// The environment whose identifiers were matched against the state file.
    public var environment: Environment
    /// Whether a state file was given, so that review state at Apple is part of "ready".
    public var hasState: Bool
    public var sourceLocale: String
    /// Every locale of any product: the source locale, then the project's order, then locales
    /// only a product lists. These are the matrix's columns.
    public var locales: [String]
    /// In the order of `msgc.yaml`.
    public var products: [ProductCoverage]
    /// One per entry of `locales`, in that order.
    public var localeTotals: [LocaleTotal]
    public var totals: Tally
    /// Errors in message sources or the configuration: while there are any, `msgc build`
    /// writes nothing, whatever the matrix says.
    public var blockingErrorCount: Int

    public init(
        environment: Environment, hasState: Bool, sourceLocale: String, locales: [String], products: [ProductCoverage],
        localeTotals: [LocaleTotal], totals: Tally, blockingErrorCount: Int
    ) {
        self.environment = environment
        self.hasState = hasState
        self.sourceLocale = sourceLocale
        self.locales = locales
        self.products = products
        self.localeTotals = localeTotals
        self.totals = totals
        self.blockingErrorCount = blockingErrorCount
    }

    /// The cell of `product` in `locale`, or nil where the product is not sold in that locale.
    public func cell(product: String, locale: String) -> CoverageCell? {
        products.first { $0.product == product }?.cells.first { $0.locale == locale }
    }

    /// Whether overall readiness is below `percent` (0–100), compared without rounding.
    public func isBelow(percent: Double) -> Bool {
        guard totals.messages > 0 else { return percent > 0 }
        return Double(totals.ready) * 100 < percent * Double(totals.messages)
    }
}

/// Counts summed over cells.
public struct Tally: Hashable, Sendable {
    /// Messages counted once per cell (a message in 3 locales counts 3 times).
    public var messages: Int
    public var ready: Int
    public var cells: Int
    /// Cells where the product's default message is ready.
    public var defaultsReady: Int

    public init(messages: Int = 0, ready: Int = 0, cells: Int = 0, defaultsReady: Int = 0) {
        self.messages = messages
        self.ready = ready
        self.cells = cells
        self.defaultsReady = defaultsReady
    }

    public var notReady: Int { messages - ready }

    mutating func add(_ cell: CoverageCell) {
        messages += cell.messageCount
        ready += cell.readyCount
        cells += 1
        if cell.isDefaultReady { defaultsReady += 1 }
    }
}

/// One product's row of the matrix.
public struct ProductCoverage: Hashable, Sendable {
    public var product: String
    /// The key of the product's default message; nil when it has none.
    public var defaultKey: String?
    /// How many messages the product has (in each of its locales).
    public var messageCount: Int
    /// One per locale of the product's list, source locale first.
    public var cells: [CoverageCell]
    public var totals: Tally

    public init(product: String, defaultKey: String?, messageCount: Int, cells: [CoverageCell], totals: Tally) {
        self.product = product
        self.defaultKey = defaultKey
        self.messageCount = messageCount
        self.cells = cells
        self.totals = totals
    }
}

/// One locale's column totals, over the products sold there.
public struct LocaleTotal: Hashable, Sendable {
    public var locale: String
    public var totals: Tally

    public init(locale: String, totals: Tally) {
        self.locale = locale
        self.totals = totals
    }
}

/// One product in one locale.
public struct CoverageCell: Hashable, Sendable {
    /// At a glance: every message ready; the default ready but not every other message;
    /// or no ready default, so that Apple has nothing to fall back on in this locale.
    public enum Status: String, Hashable, Sendable {
        case complete
        case partial
        case withoutDefault = "without-default"
    }

    public var product: String
    public var locale: String
    public var messageCount: Int
    public var readyCount: Int
    /// Whether the product's default message is ready here (false when it has none).
    public var isDefaultReady: Bool
    /// Every message that is not ready, sorted by key, with its reasons.
    public var notReady: [NotReadyMessage]
    /// Messages that ship a previous translation (a stale one, kept until the translator
    /// updates it), sorted by key: counted as ready (they ship) but not up to date.
    public var previousTranslation: [PreviousTranslationMessage] = []

    public init(product: String, locale: String, messageCount: Int, readyCount: Int, isDefaultReady: Bool, notReady: [NotReadyMessage]) {
        self.product = product
        self.locale = locale
        self.messageCount = messageCount
        self.readyCount = readyCount
        self.isDefaultReady = isDefaultReady
        self.notReady = notReady
    }

    public var status: Status {
        if !isDefaultReady { return .withoutDefault }
        return readyCount == messageCount ? .complete : .partial
    }
}

/// A message that ships in one locale with its previous translation of some fields: the
/// source text changed since, and the locale shows the old translation until it is updated.
public struct PreviousTranslationMessage: Hashable, Sendable {
    public var key: String
    public var isDefault: Bool
    /// The fields that ship their previous translation (`header`, `bullets.1.alt`).
    public var fields: [String]

    public init(key: String, isDefault: Bool, fields: [String]) {
        self.key = key
        self.isDefault = isDefault
        self.fields = fields
    }
}

/// A message that is not ready in one locale, and every reason why.
public struct NotReadyMessage: Hashable, Sendable {
    public var key: String
    public var isDefault: Bool
    /// In the order of `CoverageReason.Kind`, then by detail.
    public var reasons: [CoverageReason]

    public init(key: String, isDefault: Bool, reasons: [CoverageReason]) {
        self.key = key
        self.isDefault = isDefault
        self.reasons = reasons
    }
}

/// Why a message is not ready in a locale.
public enum CoverageReason: Hashable, Sendable {
    /// Fields without a translation (`header`, `bullets.1.alt`): no unit, or no target text.
    case missing(fields: [String])
    /// Fields whose unit has a target the file marks as not translated yet (1.2 `new`,
    /// `needs-translation`, …; 2.0 `initial`); `states` as the files wrote them.
    case notTranslated(fields: [String], states: [String])
    /// Fields whose translation was made for a different source text.
    case stale(fields: [String])
    /// Fields whose translation's state is below `minimumState`; `states` as the files wrote them.
    case belowMinimumState(fields: [String], states: [String])
    /// Fields whose unit is repeated in the file with different targets.
    case ambiguous(fields: [String])
    /// An error diagnostic about the message in this locale (or, in the source locale, about its source).
    case failingRule(code: String, message: String)
    /// Apple holds the upload but has rejected it.
    case rejected(upload: UploadReference)
    /// Apple has not approved the upload: it is PENDING, in a state msgc does not know
    /// (`state` as written), or not uploaded yet (`state` nil).
    case pending(upload: UploadReference, state: String?)

    /// The kinds, in report order.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case missing
        case notTranslated = "not-translated"
        case stale
        case belowMinimumState = "below-minimum-state"
        case ambiguous
        case failingRule = "failing-rule"
        case rejected
        case pending
    }

    public var kind: Kind {
        switch self {
        case .missing: .missing
        case .notTranslated: .notTranslated
        case .stale: .stale
        case .belowMinimumState: .belowMinimumState
        case .ambiguous: .ambiguous
        case .failingRule: .failingRule
        case .rejected: .rejected
        case .pending: .pending
        }
    }
}

/// An upload a message needs: the message itself or one of its images.
public struct UploadReference: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case message
        case image
    }

    public var kind: Kind
    public var identifier: String
    /// For images: the root-relative path of the file.
    public var imagePath: String?

    public init(kind: Kind, identifier: String, imagePath: String? = nil) {
        self.kind = kind
        self.identifier = identifier
        self.imagePath = imagePath
    }
}
