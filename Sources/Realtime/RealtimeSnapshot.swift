import Bundle
import Model

/// What a realtime server may answer with, per product and locale, for one environment: the
/// messages Apple holds approved (in sandbox: holds), and why every other message of the
/// bundle is left out (docs/realtime.md, "The snapshot").
///
/// Written by `msgc realtime snapshot` in msgc's canonical JSON (`json.canonicalBytes`), read
/// back by `decode` for `--previous`, `msgc realtime check` and a server. Its shape is
/// versioned by `schemaVersion` and described by schemas/realtime-snapshot.schema.json.
public struct RealtimeSnapshot: Hashable, Sendable {
    public static let format = "msgc-realtime-snapshot"
    public static let schemaVersion = 1

    public var generatorVersion: String
    public var bundleId: String
    public var environment: Environment
    /// The manifest's `digest` of the bundle the snapshot was made from.
    public var bundleDigest: String
    public var release: String?
    /// Every product of msgc.yaml, sorted by id.
    public var products: [Product]
    /// Every message of the bundle that no server may answer with, and why; sorted.
    public var omitted: [Omission]

    public init(
        generatorVersion: String, bundleId: String, environment: Environment, bundleDigest: String, release: String?,
        products: [Product], omitted: [Omission]
    ) {
        self.generatorVersion = generatorVersion
        self.bundleId = bundleId
        self.environment = environment
        self.bundleDigest = bundleDigest
        self.release = release
        self.products = products
        self.omitted = omitted
    }

    /// The product `id`, if the snapshot has it.
    public func product(_ id: String) -> Product? { products.first { $0.id == id } }

    /// Whether any product has a locale with a message of a kind not `excluded` (offers, when
    /// there is no key to sign them): a snapshot without one answers every request with
    /// nothing, and a server does not swap it in.
    public func answersSomething(excluding excluded: Set<Answer.Kind> = []) -> Bool {
        products.contains { $0.locales.contains { $0.messages.contains { !excluded.contains($0.kind) } } }
    }

    public struct Product: Hashable, Sendable {
        public var id: String
        /// Its subscription group, when msgc.yaml gives one.
        public var group: String?
        /// How a server picks among `realtime`; nil: msgc.yaml gives no `realtime:`, and a
        /// server answers with the default.
        public var choice: RealtimeChoice.Mode?
        public var realtime: [Arm]
        /// The locales that have something to answer with, sorted.
        public var locales: [Locale]

        public init(id: String, group: String?, choice: RealtimeChoice.Mode?, realtime: [Arm], locales: [Locale]) {
            self.id = id
            self.group = group
            self.choice = choice
            self.realtime = realtime
            self.locales = locales
        }

        /// The locale entry named `locale` exactly.
        public func locale(_ locale: String) -> Locale? { locales.first { $0.locale == locale } }

        /// The locale entry that answers Apple's `userLocale` (`LocaleMatcher`).
        public func answering(_ userLocale: String) -> Locale? {
            LocaleMatcher(locales: locales.map(\.locale)).match(userLocale).flatMap(locale)
        }
    }

    public struct Arm: Hashable, Sendable {
        public var message: String
        public var weight: Int
        public init(message: String, weight: Int) {
            self.message = message
            self.weight = weight
        }
    }

    public struct Locale: Hashable, Sendable {
        public var locale: String
        /// The key of the product's default message among `messages`, when it is usable.
        public var defaultKey: String?
        /// Sorted by key.
        public var messages: [Answer]

        public init(locale: String, defaultKey: String?, messages: [Answer]) {
            self.locale = locale
            self.defaultKey = defaultKey
            self.messages = messages
        }

        public func message(key: String) -> Answer? { messages.first { $0.key == key } }
        public func message(identifier: String) -> Answer? {
            let wanted = identifier.lowercased()
            return messages.first { $0.identifier == wanted }
        }
        public var defaultMessage: Answer? { defaultKey.flatMap(message(key:)) }
    }

    /// One message a server may answer with.
    public struct Answer: Hashable, Sendable {
        /// Which member of Apple's answer carries it.
        public enum Kind: String, Sendable, CaseIterable {
            case message, alternateProduct, promotionalOffer
        }

        /// Whether it is the bundle's version, or the last approved one kept while the bundle's
        /// waits for review.
        public enum Version: String, Sendable {
            case current, previous
        }

        public var key: String
        public var type: MessageType
        public var identifier: String
        /// Every image it shows (full-size and bullet icons); empty for offers and switch-plan messages.
        public var images: [String]
        /// switch-plan: the product offered.
        public var productId: String?
        /// switch-plan: how the plan offered is billed, Apple's `billingPlanType` (`MONTHLY`,
        /// `BILLED_UPFRONT`), when the message's source says.
        public var billingPlanType: String?
        /// promotional-offer: the offer's identifier in App Store Connect.
        public var offerIdentifier: String?
        public var version: Version

        public init(
            key: String, type: MessageType, identifier: String, images: [String], productId: String? = nil,
            billingPlanType: String? = nil, offerIdentifier: String? = nil, version: Version
        ) {
            self.key = key
            self.type = type
            self.identifier = identifier
            self.images = images
            self.productId = productId
            self.billingPlanType = billingPlanType
            self.offerIdentifier = offerIdentifier
            self.version = version
        }

        public var kind: Kind {
            switch type {
            case .text: .message
            case .switchPlan: .alternateProduct
            case .promotionalOffer: .promotionalOffer
            }
        }
    }

    /// A message of the bundle that is not in the snapshot.
    public struct Omission: Hashable, Sendable {
        public enum Reason: String, Sendable, CaseIterable {
            /// Apple has not approved the message or an image yet.
            case pending
            /// Apple rejected the message or an image.
            case rejected
            /// Apple does not hold the message or an image: apply the bundle.
            case notUploaded = "not-uploaded"
            /// Apple gives a state msgc does not know.
            case notApproved = "not-approved"
            /// A promotional-offer message without `offer`.
            case noOfferId = "no-offer-id"
            /// A switch-plan message without `switchTo`.
            case noSwitchProduct = "no-switch-product"
            /// The bundle does not ship it (its manifest's `notShipped`): the locale waits for its
            /// translation, …; the reasons are the manifest's.
            case untranslated
            case withheldStale = "withheld-stale"
            case belowMinimumState = "below-minimum-state"
            case failingRules = "failing-rules"
            case unreadableFile = "unreadable-file"
            /// Not shipped for a reason this msgc does not know.
            case notShipped = "not-shipped"
        }

        public var product: String
        public var locale: String
        public var key: String
        /// The bundle's upload; empty for what the bundle does not ship.
        public var identifier: String
        public var reason: Reason
        /// What exactly, in a sentence: which upload is in which state, what answers meanwhile.
        public var detail: String

        public init(product: String, locale: String, key: String, identifier: String, reason: Reason, detail: String) {
            self.product = product
            self.locale = locale
            self.key = key
            self.identifier = identifier
            self.reason = reason
            self.detail = detail
        }
    }
}
