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

    /// Reads `realtime.json`; `path` is how messages name it.
    public static func decode(_ bytes: [UInt8], path: String) throws(Manifest.Failure) -> RealtimeFacts {
        let root: JSONDocument.Node
        do {
            root = try JSONDocument.parse(bytes)
        } catch {
            throw Manifest.Failure("\(path):\(error.line):\(error.column): not valid JSON: \(error.message)")
        }
        let decoder = Manifest.Decoder(path: path)
        func fail(_ node: JSONDocument.Node, _ message: String) -> Manifest.Failure { decoder.fail(node, message) }
        func only(_ node: JSONDocument.Node, _ allowed: [String], _ what: String) throws(Manifest.Failure) {
            guard case .object(let members) = node.value else { throw fail(node, "\(what) must be an object, not \(node.kindName)") }
            for (member, _) in members where !allowed.contains(member) {
                throw fail(node, "unknown member \"\(member)\" in \(what); msgc writes \(allowed.joined(separator: ", "))")
            }
        }

        try only(root, ["format", "formatVersion", "messages", "products"], "realtime.json")
        guard case .string(format) = root.member("format")?.value else {
            throw Manifest.Failure("'\(path)' is not the realtime facts of an msgc bundle: its \"format\" is not \"\(format)\"")
        }
        guard let versionNode = root.member("formatVersion"), case .number(let versionText) = versionNode.value,
            let version = Int(versionText), version == formatVersion
        else {
            throw fail(root.member("formatVersion") ?? root, "\"formatVersion\" must be \(formatVersion), the version this msgc reads")
        }
        guard let productList = root.member("products") else { throw fail(root, "missing \"products\"") }
        for item in try decoder.array(productList, section: "products") {
            try only(item, ["choice", "group", "id", "realtime"], "a product")
            if let arms = item.member("realtime") {
                for arm in try decoder.array(arms, section: "realtime") { try only(arm, ["message", "weight"], "a realtime entry") }
            }
        }
        let products = try decoder.products(productList)
        var ids = Set<String>()
        for (item, product) in zip(try decoder.array(productList, section: "products"), products) where !ids.insert(product.id).inserted {
            throw fail(item, "product '\(product.id)' is listed twice")
        }

        guard let messageList = root.member("messages") else { throw fail(root, "missing \"messages\"") }
        var messages: [Message] = []
        let allowed = ["billingPlanType", "identifier", "key", "locale", "messageType", "offer", "product", "switchTo"]
        for item in try decoder.array(messageList, section: "messages") {
            try only(item, allowed, "a message")
            let typeText = try decoder.string("messageType", in: item)
            guard let type = MessageType(rawValue: typeText) else {
                throw fail(item.member("messageType")!, "\"messageType\" must be text, promotional-offer or switch-plan, not '\(typeText)'")
            }
            var message = Message(
                identifier: try decoder.identifier("identifier", in: item), product: try decoder.segment("product", in: item),
                locale: try decoder.segment("locale", in: item), key: try decoder.string("key", in: item), messageType: type)
            if item.member("switchTo") != nil { message.switchTo = try decoder.segment("switchTo", in: item) }
            if item.member("billingPlanType") != nil {
                let plan = try decoder.string("billingPlanType", in: item)
                guard BillingPlanType(appleValue: plan) != nil else {
                    throw fail(item.member("billingPlanType")!, "\"billingPlanType\" must be MONTHLY or BILLED_UPFRONT, not '\(plan)'")
                }
                message.billingPlanType = plan
            }
            if item.member("offer") != nil {
                let offer = try decoder.string("offer", in: item)
                guard Manifest.Decoder.isOfferIdentifier(offer) else {
                    throw fail(item.member("offer")!, "\"offer\" must hold only ASCII letters, digits, '.', '_' and '-', not '\(offer)'")
                }
                message.offer = offer
            }
            if let last = messages.last, !last.identifier.utf8.lexicographicallyPrecedes(message.identifier.utf8) {
                throw fail(item, "\"messages\" must be sorted by identifier, each once, as msgc writes it")
            }
            messages.append(message)
        }
        let facts = RealtimeFacts(products: products, messages: messages)
        // Every value has been checked; what is left is how it is written (a number as `1.0`,
        // an escaped letter, other spacing), which msgc never varies.
        guard facts.json.canonicalBytes == bytes else {
            throw Manifest.Failure("'\(path)' is not written as msgc writes it (sorted keys, two-space indentation, a final newline); build the bundle again")
        }
        return facts
    }
}
