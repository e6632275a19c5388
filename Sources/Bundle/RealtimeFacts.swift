import Model

/// `realtime.json` of a bundle (docs/formats.md, "The bundle"): what a realtime answer trusts,
/// in a file the digest covers.
///
/// The manifest is not part of the digest, so facts only it held could be edited after review
/// unseen: a promotional offer's identifier, a switch-plan's product, a product's group or an
/// arm's weight. `msgc build` writes them here as well, and every reader of a bundle that has
/// this file refuses a manifest whose copies differ (`Manifest.decode(_:path:realtime:)`), so
/// `msgc realtime snapshot` and the server it feeds see only facts the digest names.
///
/// It holds the manifest's `products` as written, and for each `uploadMessage` entry (in
/// `operations`, `present` or `deferred`) its identifier with the product, locale and key the
/// snapshot files it under and its `messageType`, `switchTo`, `billingPlanType` and `offer`
/// (absent ones omitted), sorted by identifier. Read strictly: no other member, the manifest's
/// own checks on each value, weights from 1 to `RealtimeChoice.maxWeight`, and the bytes must be
/// the canonical JSON msgc writes.
public struct RealtimeFacts: Hashable, Sendable {
    /// The file's path in the bundle.
    public static let file = "realtime.json"
    public static let format = "msgc-realtime-facts"
    public static let formatVersion = 1

    /// An upload of a message as the snapshot reads it.
    public struct Message: Hashable, Sendable {
        public var identifier: String
        public var product: String
        public var locale: String
        public var key: String
        public var messageType: MessageType
        public var switchTo: String?
        public var billingPlanType: String?
        public var offer: String?

        public init(
            identifier: String, product: String, locale: String, key: String, messageType: MessageType, switchTo: String? = nil,
            billingPlanType: String? = nil, offer: String? = nil
        ) {
            self.identifier = identifier
            self.product = product
            self.locale = locale
            self.key = key
            self.messageType = messageType
            self.switchTo = switchTo
            self.billingPlanType = billingPlanType
            self.offer = offer
        }
    }

    /// As in the manifest, in its order.
    public var products: [Manifest.Product]
    /// Sorted bytewise by identifier, each once.
    public var messages: [Message]

    public init(products: [Manifest.Product], messages: [Message]) {
        self.products = products
        self.messages = messages.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
    }

    /// The facts of `manifest`, as `msgc build` writes them. Nil when the manifest has no
    /// `products` or a message without its type (what an earlier msgc wrote).
    public init?(manifest: Manifest) {
        guard let products = manifest.products else { return nil }
        var messages: [Message] = []
        var seen = Set<String>()
        for entry in manifest.entries where entry.operation == .uploadMessage {
            guard let identifier = entry.identifier, let product = entry.product, let locale = entry.locale, let key = entry.key,
                let type = entry.messageType
            else { return nil }
            guard seen.insert(identifier).inserted else { continue }
            messages.append(Message(
                identifier: identifier, product: product, locale: locale, key: key, messageType: type, switchTo: entry.switchTo,
                billingPlanType: entry.billingPlanType, offer: entry.offer))
        }
        self.init(products: products, messages: messages)
    }

    /// The file as msgc writes it; `json.canonicalBytes` is `realtime.json`.
    public var json: JSONValue {
        [
            "format": .string(Self.format),
            "formatVersion": .integer(Self.formatVersion),
            "products": .array(products.map(\.json)),
            "messages": .array(messages.map { message in
                var object: [String: JSONValue] = [
                    "identifier": .string(message.identifier),
                    "product": .string(message.product),
                    "locale": .string(message.locale),
                    "key": .string(message.key),
                    "messageType": .string(message.messageType.rawValue),
                ]
                if let switchTo = message.switchTo { object["switchTo"] = .string(switchTo) }
                if let billingPlanType = message.billingPlanType { object["billingPlanType"] = .string(billingPlanType) }
                if let offer = message.offer { object["offer"] = .string(offer) }
                return .object(object)
            }),
        ]
    }

    /// The message of `identifier`, if the file lists it.
    public func message(_ identifier: String) -> Message? {
        var low = 0
        var high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if messages[middle].identifier == identifier { return messages[middle] }
            if messages[middle].identifier.utf8.lexicographicallyPrecedes(identifier.utf8) { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    // MARK: - Decoding

    /// Reads `realtime.json` strictly; `path` is how messages name it.
    public static func decode(_ bytes: [UInt8], path: String) throws(JSONReadError) -> RealtimeFacts {
        let root = try JSONCursor.parse(bytes, file: path, reading: .strict, naming: .memberName)
        try root.refuseUnknownMembers(["format", "formatVersion", "messages", "products"], in: "realtime.json")
        guard case .string(format)? = root.member("format")?.node.value else {
            throw JSONReadError("'\(path)' is not the realtime facts of an msgc bundle: its \"format\" is not \"\(format)\"", file: path)
        }
        guard let version = try? root.integer("formatVersion"), version == formatVersion else {
            throw (root.member("formatVersion") ?? root).error("\"formatVersion\" must be \(formatVersion), the version this msgc reads")
        }
        let productList = try root.required("products")
        let productItems = try productList.objects()
        for item in productItems {
            try item.refuseUnknownMembers(["choice", "group", "id", "realtime"], in: "a product")
            for arm in try item.member("realtime")?.objects() ?? [] {
                try arm.refuseUnknownMembers(["message", "weight"], in: "a realtime entry")
            }
        }
        let products = try Manifest.Decoder.products(productList)
        var ids = Set<String>()
        for (item, product) in zip(productItems, products) where !ids.insert(product.id).inserted {
            throw item.error("product '\(product.id)' is listed twice")
        }

        var messages: [Message] = []
        let allowed = ["billingPlanType", "identifier", "key", "locale", "messageType", "offer", "product", "switchTo"]
        for item in try root.objects("messages") {
            try item.refuseUnknownMembers(allowed, in: "a message")
            let type = try item.string("messageType", as: MessageType.init(rawValue:)) {
                "\"messageType\" must be text, promotional-offer or switch-plan, not '\($0)'"
            }
            var message = Message(
                identifier: try item.identifier("identifier"), product: try item.segment("product"),
                locale: try item.segment("locale"), key: try item.string("key"), messageType: type)
            if item.has("switchTo") { message.switchTo = try item.segment("switchTo") }
            if item.has("billingPlanType") {
                message.billingPlanType = try item.string("billingPlanType", as: { BillingPlanType(appleValue: $0) == nil ? nil : $0 }) {
                    "\"billingPlanType\" must be MONTHLY or BILLED_UPFRONT, not '\($0)'"
                }
            }
            if item.has("offer") {
                message.offer = try item.string("offer", as: { Manifest.Decoder.isOfferIdentifier($0) ? $0 : nil }) {
                    "\"offer\" must hold only ASCII letters, digits, '.', '_' and '-', not '\($0)'"
                }
            }
            if let last = messages.last, !last.identifier.utf8.lexicographicallyPrecedes(message.identifier.utf8) {
                throw item.error("\"messages\" must be sorted by identifier, each once, as msgc writes it")
            }
            messages.append(message)
        }
        let facts = RealtimeFacts(products: products, messages: messages)
        // Every value has been checked; what is left is how it is written (a number as `1.0`,
        // an escaped letter, other spacing), which msgc never varies.
        guard facts.json.canonicalBytes == bytes else {
            throw JSONReadError("'\(path)' is not written as msgc writes it (sorted keys, two-space indentation, a final newline); build the bundle again", file: path)
        }
        return facts
    }
}
