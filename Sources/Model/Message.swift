/// The kinds of retention message Apple distinguishes.
public enum MessageType: String, Codable, Sendable, CaseIterable {
    case text
    case promotionalOffer = "promotional-offer"
    case switchPlan = "switch-plan"
}

/// Where the header sits on the cancellation sheet.
public enum HeaderPosition: String, Codable, Sendable, CaseIterable {
    case aboveBody = "above-body"
    case aboveImage = "above-image"

    /// Apple's raw value.
    public var appleValue: String {
        switch self {
        case .aboveBody: "ABOVE_BODY"
        case .aboveImage: "ABOVE_IMAGE"
        }
    }
}

/// How the plan a switch-plan message offers is billed (Apple's `BillingPlanType`, API 1.5),
/// told to Apple in the realtime answer's `alternateProduct`.
public enum BillingPlanType: String, Codable, Sendable, CaseIterable {
    case monthly
    case billedUpfront = "billed-upfront"

    /// Apple's raw value.
    public var appleValue: String {
        switch self {
        case .monthly: "MONTHLY"
        case .billedUpfront: "BILLED_UPFRONT"
        }
    }

    /// The case whose Apple value is `text`.
    public init?(appleValue text: String) {
        guard let value = Self.allCases.first(where: { $0.appleValue == text }) else { return nil }
        self = value
    }
}

/// A message's full-size image: a PNG in the content tree and its alternative text.
public struct MessageImage: Hashable, Sendable {
    public var file: Located<String>?
    public var alt: Located<String>?
    public var location: SourceLocation

    public init(file: Located<String>?, alt: Located<String>?, location: SourceLocation) {
        self.file = file
        self.alt = alt
        self.location = location
    }
}

/// One bullet point: text, an icon and the icon's alternative text, all required by Apple.
public struct BulletPoint: Hashable, Sendable {
    public var text: Located<String>?
    public var image: Located<String>?
    public var alt: Located<String>?
    public var location: SourceLocation

    public init(text: Located<String>?, image: Located<String>?, alt: Located<String>?, location: SourceLocation) {
        self.text = text
        self.image = image
        self.alt = alt
        self.location = location
    }
}

/// A translatable field of a message, named as in XLIFF unit ids.
public enum MessageField: Hashable, Sendable, Comparable, CustomStringConvertible {
    case header
    case body
    case imageAlt
    case bulletText(Int)
    case bulletAlt(Int)

    /// The id suffix: `header`, `image.alt`, `bullets.2.text`. Bullets count from 1.
    public var description: String {
        switch self {
        case .header: "header"
        case .body: "body"
        case .imageAlt: "image.alt"
        case .bulletText(let index): "bullets.\(index + 1).text"
        case .bulletAlt(let index): "bullets.\(index + 1).alt"
        }
    }

    /// Parses an id suffix back into a field.
    public init?(_ text: String) {
        switch text {
        case "header": self = .header
        case "body": self = .body
        case "image.alt": self = .imageAlt
        default:
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "bullets", let number = Int(parts[1]), number >= 1, number <= 99,
                  String(number) == parts[1] else { return nil }
            switch parts[2] {
            case "text": self = .bulletText(number - 1)
            case "alt": self = .bulletAlt(number - 1)
            default: return nil
            }
        }
    }

    /// Apple's limit for this field.
    public var maxLength: Int {
        switch self {
        case .header: 66
        case .body: 144
        case .imageAlt, .bulletAlt: 150
        case .bulletText: 66
        }
    }

    /// How the field is named in messages to people: "header", "bullet 2 text".
    public var displayName: String {
        switch self {
        case .header: "header"
        case .body: "body"
        case .imageAlt: "image alt text"
        case .bulletText(let index): "bullet \(index + 1) text"
        case .bulletAlt(let index): "bullet \(index + 1) alt text"
        }
    }

    private var sortKey: (Int, Int) {
        switch self {
        case .header: (0, 0)
        case .body: (1, 0)
        case .imageAlt: (2, 0)
        case .bulletText(let index): (3 + index * 2, 0)
        case .bulletAlt(let index): (4 + index * 2, 0)
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sortKey < rhs.sortKey }
}

/// One retention message as written in a message source file, in the source locale.
public struct Message: Hashable, Sendable {
    public var key: Located<String>
    public var product: Located<String>
    public var type: Located<MessageType>
    public var isDefault: Located<Bool>?
    public var header: Located<String>?
    public var body: Located<String>?
    public var headerPosition: Located<HeaderPosition>?
    public var image: MessageImage?
    public var bullets: [BulletPoint]
    /// Set when the source gave a `bullets` entry; holds its location for diagnostics.
    public var bulletsLocation: SourceLocation?
    public var note: Located<String>?
    /// `switch-plan` only: the product the realtime answer offers instead (another product of
    /// the same subscription group); nil when the source does not say.
    public var switchTo: Located<String>?
    /// `switch-plan` only: how the plan `switchTo` names is billed (Apple's `billingPlanType`);
    /// nil when the source does not say.
    public var billingPlanType: Located<BillingPlanType>?
    /// `promotional-offer` only: the offer's identifier in App Store Connect, which the realtime
    /// answer's signature names; nil when the source does not say.
    public var offer: Located<String>?
    /// `staleTranslations:` on the message: wins over msgc.yaml's; nil when the message does not say.
    public var staleTranslations: Located<StaleTranslationPolicy>?
    /// The location of the message's mapping (its `- key:` line).
    public var location: SourceLocation

    public init(
        key: Located<String>, product: Located<String>, type: Located<MessageType>,
        isDefault: Located<Bool>? = nil, header: Located<String>? = nil, body: Located<String>? = nil,
        headerPosition: Located<HeaderPosition>? = nil, image: MessageImage? = nil,
        bullets: [BulletPoint] = [], bulletsLocation: SourceLocation? = nil, note: Located<String>? = nil,
        switchTo: Located<String>? = nil, billingPlanType: Located<BillingPlanType>? = nil, offer: Located<String>? = nil,
        location: SourceLocation
    ) {
        self.key = key
        self.product = product
        self.type = type
        self.isDefault = isDefault
        self.header = header
        self.body = body
        self.headerPosition = headerPosition
        self.image = image
        self.bullets = bullets
        self.bulletsLocation = bulletsLocation
        self.note = note
        self.switchTo = switchTo
        self.billingPlanType = billingPlanType
        self.offer = offer
        self.location = location
    }

    /// Whether this is its product's default (fallback) message.
    public var isDefaultMessage: Bool { isDefault?.value ?? false }

    /// `PRODUCT/KEY`, the prefix of its XLIFF unit ids.
    public var id: String { "\(product.value)/\(key.value)" }

    /// `PRODUCT/KEY/field`: the id of the XLIFF unit that translates `field`.
    public func unitID(of field: MessageField) -> String { "\(id)/\(field)" }

    public var subject: Subject { Subject(product: product.value, key: key.value) }

    /// Every translatable string the message has, in field order.
    public var fields: [(field: MessageField, text: Located<String>)] {
        var result: [(MessageField, Located<String>)] = []
        if let header { result.append((.header, header)) }
        if let body { result.append((.body, body)) }
        if let alt = image?.alt { result.append((.imageAlt, alt)) }
        for (index, bullet) in bullets.enumerated() {
            if let text = bullet.text { result.append((.bulletText(index), text)) }
            if let alt = bullet.alt { result.append((.bulletAlt(index), alt)) }
        }
        return result
    }

    /// The source text of one field.
    public func text(of field: MessageField) -> Located<String>? {
        switch field {
        case .header: header
        case .body: body
        case .imageAlt: image?.alt
        case .bulletText(let index): bullets.indices.contains(index) ? bullets[index].text : nil
        case .bulletAlt(let index): bullets.indices.contains(index) ? bullets[index].alt : nil
        }
    }
}
