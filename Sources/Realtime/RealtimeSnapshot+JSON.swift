import Bundle
import LanguageTags
import Model

extension RealtimeSnapshot {
    /// The snapshot as msgc writes it; `json.canonicalBytes` is the file.
    public var json: JSONValue {
        .object([
            "format": .string(Self.format),
            "schemaVersion": .integer(Self.schemaVersion),
            "generator": ["name": "msgc", "version": .string(generatorVersion)],
            "bundleId": .string(bundleId),
            "environment": .string(environment.rawValue),
            "bundleDigest": .string(bundleDigest),
            "release": release.map { .string($0) } ?? .null,
            "products": .array(products.map(\.json)),
            "omitted": .array(omitted.map(\.json)),
        ])
    }

    /// The largest snapshot msgc reads (2,000 messages in every locale fit in a few megabytes).
    public static let maxBytes = 64 << 20

    /// Reads a snapshot; `path` is how messages name it. Strict: a snapshot steers what a
    /// server answers, so every identifier, product and key must have msgc's shape.
    public static func decode(_ bytes: [UInt8], path: String) throws(JSONReadError) -> RealtimeSnapshot {
        try SnapshotDecoder.snapshot(try JSONCursor.parse(bytes, file: path, reading: .strict, naming: .memberName))
    }
}

extension RealtimeSnapshot.Product {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id),
            "locales": .array(locales.map(\.json)),
        ]
        if let group { object["group"] = .string(group) }
        if let choice {
            object["choice"] = .string(choice.rawValue)
            object["realtime"] = .array(realtime.map { ["message": .string($0.message), "weight": .integer($0.weight)] })
        }
        // For readers in other languages: which locale answers each of App Store Connect's codes.
        let matcher = LocaleMatcher(locales: locales.map(\.locale))
        var matches: [String: JSONValue] = [:]
        for code in AppStoreLocale.codes {
            if let locale = matcher.match(code) { matches[code] = .string(locale) }
        }
        object["localeMatches"] = .object(matches)
        return .object(object)
    }
}

extension RealtimeSnapshot.Locale {
    var json: JSONValue {
        [
            "locale": .string(locale),
            "default": defaultKey.map { .string($0) } ?? .null,
            "messages": .array(messages.map(\.json)),
        ]
    }
}

extension RealtimeSnapshot.Answer {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(key),
            "type": .string(type.rawValue),
            "answer": .string(kind.rawValue),
            "identifier": .string(identifier),
            "images": .array(images.map { .string($0) }),
            "version": .string(version.rawValue),
        ]
        if let productId { object["productId"] = .string(productId) }
        if let billingPlanType { object["billingPlanType"] = .string(billingPlanType) }
        if let offerIdentifier { object["offerIdentifier"] = .string(offerIdentifier) }
        return .object(object)
    }
}

extension RealtimeSnapshot.Omission {
    /// `identifier` is left out when there is none: a message the bundle does not ship.
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "product": .string(product),
            "locale": .string(locale),
            "key": .string(key),
            "reason": .string(reason.rawValue),
            "detail": .string(detail),
        ]
        if !identifier.isEmpty { object["identifier"] = .string(identifier) }
        return .object(object)
    }
}

/// Reads a snapshot's JSON strictly, refusing anything msgc would not have written.
private enum SnapshotDecoder {
    /// A product id, locale or key: one safe path segment of ASCII letters, digits, `.`, `_` and `-`.
    static func name(_ key: String, in node: JSONCursor) throws(JSONReadError) -> String {
        try node.string(key, as: { isName($0) ? $0 : nil }) { "\"\(key)\" must hold only ASCII letters, digits, '.', '_' and '-', not '\($0)'" }
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && text != "." && text != ".." && text.utf8.allSatisfy {
            (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    static func snapshot(_ root: JSONCursor) throws(JSONReadError) -> RealtimeSnapshot {
        guard case .object = root.node.value else { throw root.error("a snapshot is a JSON object, not \(root.kindName)") }
        guard case .string(RealtimeSnapshot.format)? = root.member("format")?.node.value else {
            throw JSONReadError("'\(root.file)' is not an msgc realtime snapshot: its \"format\" is not \"\(RealtimeSnapshot.format)\"", file: root.file)
        }
        let versionNode = try root.required("schemaVersion")
        let version = try versionNode.integer()
        guard version == RealtimeSnapshot.schemaVersion else {
            throw versionNode.error("schema version \(version) is not one this msgc reads (it reads version \(RealtimeSnapshot.schemaVersion)); make the snapshot with this msgc")
        }
        let generator = try root.required("generator")
        let environment = try root.string("environment", as: Environment.init(rawValue:)) {
            "\"environment\" must be sandbox or production, not '\($0)'"
        }
        let digest = try root.string("bundleDigest", as: {
            $0.hasPrefix("sha256:") && $0.utf8.count == 71 && $0.utf8.dropFirst(7).allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) ? $0 : nil
        }) { _ in "\"bundleDigest\" must be sha256: and 64 lower-case hexadecimal digits" }
        var products: [RealtimeSnapshot.Product] = []
        for item in try root.objects("products") { products.append(try product(item)) }
        var omitted: [RealtimeSnapshot.Omission] = []
        for item in try root.objects("omitted") {
            let reason = try item.string("reason", as: RealtimeSnapshot.Omission.Reason.init(rawValue:)) { "unknown \"reason\" '\($0)'" }
            omitted.append(RealtimeSnapshot.Omission(
                product: try name("product", in: item), locale: try name("locale", in: item), key: try name("key", in: item),
                identifier: item.has("identifier") ? try item.identifier("identifier") : "", reason: reason,
                detail: try item.string("detail")))
        }
        return RealtimeSnapshot(
            generatorVersion: try generator.string("version"), bundleId: try root.string("bundleId"), environment: environment,
            bundleDigest: digest, release: try root.optionalString("release"), products: products, omitted: omitted)
    }

    static func product(_ node: JSONCursor) throws(JSONReadError) -> RealtimeSnapshot.Product {
        var arms: [RealtimeSnapshot.Arm] = []
        let choice = try node.optionalString("choice", as: RealtimeChoice.Mode.init(rawValue:)) {
            "\"choice\" must be first-usable or weighted, not '\($0)'"
        }
        if choice != nil {
            for arm in try node.objects("realtime") {
                let weight = try arm.integer("weight")
                guard (1...RealtimeChoice.maxWeight).contains(weight) else {
                    throw arm.error("\"weight\" \(weight) is out of range: give 1 to \(RealtimeChoice.maxWeight)")
                }
                arms.append(RealtimeSnapshot.Arm(message: try name("message", in: arm), weight: weight))
            }
        }
        var locales: [RealtimeSnapshot.Locale] = []
        for item in try node.objects("locales") {
            var answers: [RealtimeSnapshot.Answer] = []
            for entry in try item.objects("messages") { answers.append(try answer(entry)) }
            let defaultKey = try item.optionalString("default", as: { key in answers.contains { $0.key == key && $0.type == .text } ? key : nil }) { _ in
                "\"default\" must name a text message of the locale's \"messages\""
            }
            locales.append(RealtimeSnapshot.Locale(locale: try name("locale", in: item), defaultKey: defaultKey, messages: answers))
        }
        return RealtimeSnapshot.Product(
            id: try name("id", in: node), group: try node.optionalString("group"), choice: choice, realtime: arms, locales: locales)
    }

    static func answer(_ node: JSONCursor) throws(JSONReadError) -> RealtimeSnapshot.Answer {
        let type = try node.string("type", as: MessageType.init(rawValue:)) { "unknown \"type\" '\($0)'" }
        let version = try node.string("version", as: RealtimeSnapshot.Answer.Version.init(rawValue:)) {
            "\"version\" must be current or previous, not '\($0)'"
        }
        var images: [String] = []
        let imageList = try node.required("images")
        guard let items = try? imageList.array() else { throw imageList.error("\"images\" must be an array") }
        for item in items {
            guard let text = try? item.string(), Manifest.isIdentifier(text) else { throw item.error("\"images\" must list lower-case UUIDs") }
            images.append(text)
        }
        var answer = RealtimeSnapshot.Answer(
            key: try name("key", in: node), type: type, identifier: try node.identifier("identifier"), images: images, version: version)
        switch type {
        case .text: break
        case .switchPlan:
            answer.productId = try name("productId", in: node)
            answer.billingPlanType = try node.optionalString("billingPlanType", as: { BillingPlanType(appleValue: $0) == nil ? nil : $0 }) {
                "\"billingPlanType\" must be MONTHLY or BILLED_UPFRONT, not '\($0)'"
            }
        case .promotionalOffer: answer.offerIdentifier = try name("offerIdentifier", in: node)
        }
        let kind = answer.kind.rawValue
        _ = try node.optionalString("answer", as: { $0 == kind ? $0 : nil }) { "\"answer\" of a \(type.rawValue) message is \(kind), not '\($0)'" }
        return answer
    }
}
