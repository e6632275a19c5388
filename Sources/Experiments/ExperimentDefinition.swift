/// One arm of an experiment: a message of the product's `realtime:` list and its weight.
public struct ExperimentArm: Hashable, Sendable {
    /// The message key.
    public var message: String
    public var weight: Int
    /// The promotional offer the message carries, if any.
    public var offerIdentifier: String?
    /// The product the message offers to switch to, if any.
    public var switchTo: String?

    public init(message: String, weight: Int, offerIdentifier: String? = nil, switchTo: String? = nil) {
        self.message = message
        self.weight = weight
        self.offerIdentifier = offerIdentifier
        self.switchTo = switchTo
    }
}

/// An experiment: a product's split of subscribers over messages by weight. The report lists
/// every arm of a definition it is given, also those nobody was exposed to yet.
public struct ExperimentDefinition: Hashable, Sendable {
    public var product: String
    /// `identifier(arms:)` of the arms, unless the store recorded another.
    public var experiment: String
    public var arms: [ExperimentArm]

    /// A definition whose identifier is made from its arms.
    public init(product: String, arms: [ExperimentArm]) {
        self.init(product: product, experiment: Self.identifier(arms: arms), arms: arms)
    }

    public init(product: String, experiment: String, arms: [ExperimentArm]) {
        self.product = product
        self.experiment = experiment
        self.arms = arms
    }

    /// The experiment's identifier: each arm as `message=weight`, sorted by message key
    /// bytewise, joined by `,`: `offer-half-price=1,winback=1`.
    ///
    /// Readable, and the same on every server for the same arms and weights. The arms are
    /// sorted because msgc's weighted split (rendezvous hashing, docs/realtime.md) does not
    /// depend on their order, so reordering `realtime:` does not start a new experiment; adding
    /// or removing an arm or changing a weight does. Offers and switch-to products are not part
    /// of it. It is unique within a product only: the report keys experiments by product and
    /// identifier. Message keys never contain `%`, `,` or `=`; should one, it is written as
    /// `%25`, `%2C` or `%3D`, so that two different lists never share an identifier.
    public static func identifier(arms: [ExperimentArm]) -> String {
        arms.sorted { lhs, rhs in
            lhs.message == rhs.message ? lhs.weight < rhs.weight : Array(lhs.message.utf8).lexicographicallyPrecedes(rhs.message.utf8)
        }
        .map { "\(escape($0.message))=\($0.weight)" }
        .joined(separator: ",")
    }

    private static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "%" || $0 == "," || $0 == "=" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case ",": result += "%2C"
            case "=": result += "%3D"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
