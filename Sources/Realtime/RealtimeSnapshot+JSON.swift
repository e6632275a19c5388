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

    /// Why bytes are not a snapshot this msgc reads; `description` names the file, line and column.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The largest snapshot msgc reads (2,000 messages in every locale fit in a few megabytes).
    public static let maxBytes = 64 << 20

    /// Reads a snapshot; `path` is how messages name it. Strict: a snapshot steers what a
    /// server answers, so every identifier, product and key must have msgc's shape.
    public static func decode(_ bytes: [UInt8], path: String) throws(Failure) -> RealtimeSnapshot {
        let root: JSONDocument.Node
        do {
            root = try JSONDocument.parse(bytes)
        } catch {
            throw Failure("\(path):\(error.line):\(error.column): not valid JSON: \(error.message)")
        }
        return try SnapshotDecoder(path: path).snapshot(root)
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

/// Reads a snapshot's JSON, refusing anything msgc would not have written.
private struct SnapshotDecoder {
    typealias Failure = RealtimeSnapshot.Failure
    typealias Node = JSONDocument.Node
    let path: String

    func fail(_ node: Node, _ message: String) -> Failure {
        Failure("\(path):\(node.line):\(node.column): \(message)")
    }

    func member(_ key: String, in node: Node) throws(Failure) -> Node {
        guard let member = node.member(key) else { throw fail(node, "missing \"\(key)\"") }
        return member
    }

    func string(_ key: String, in node: Node) throws(Failure) -> String {
        let member = try member(key, in: node)
        guard case .string(let text) = member.value else { throw fail(member, "\"\(key)\" must be a string, not \(member.kindName)") }
        return text
    }

    func optionalString(_ key: String, in node: Node) throws(Failure) -> String? {
        guard let member = node.member(key) else { return nil }
        switch member.value {
        case .null: return nil
        case .string(let text): return text
        default: throw fail(member, "\"\(key)\" must be a string or null, not \(member.kindName)")
        }
    }

    func integer(_ key: String, in node: Node) throws(Failure) -> Int {
        let member = try member(key, in: node)
        guard case .number(let text) = member.value, let value = Int(text) else { throw fail(member, "\"\(key)\" must be a whole number") }
        return value
    }

    func array(_ key: String, in node: Node) throws(Failure) -> [Node] {
        let member = try member(key, in: node)
        guard case .array(let items) = member.value else { throw fail(member, "\"\(key)\" must be an array, not \(member.kindName)") }
        for item in items {
            guard case .object = item.value else { throw fail(item, "an entry of \"\(key)\" must be an object, not \(item.kindName)") }
        }
        return items
    }

    /// A product id, locale or key: one safe path segment of ASCII letters, digits, `.`, `_` and `-`.
    func name(_ key: String, in node: Node) throws(Failure) -> String {
        let text = try string(key, in: node)
        guard Self.isName(text) else { throw fail(node.member(key)!, "\"\(key)\" must hold only ASCII letters, digits, '.', '_' and '-', not '\(text)'") }
        return text
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && text != "." && text != ".." && text.utf8.allSatisfy {
            (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    func identifier(_ key: String, in node: Node) throws(Failure) -> String {
        let text = try string(key, in: node)
        guard Manifest.isIdentifier(text) else { throw fail(node.member(key)!, "\"\(key)\" must be a lower-case UUID, not '\(text)'") }
        return text
    }

    func snapshot(_ root: Node) throws(Failure) -> RealtimeSnapshot {
        guard case .object = root.value else { throw fail(root, "a snapshot is a JSON object, not \(root.kindName)") }
        guard case .string(RealtimeSnapshot.format) = root.member("format")?.value else {
            throw Failure("'\(path)' is not an msgc realtime snapshot: its \"format\" is not \"\(RealtimeSnapshot.format)\"")
        }
        let version = try integer("schemaVersion", in: root)
        guard version == RealtimeSnapshot.schemaVersion else {
            throw fail(root.member("schemaVersion")!, "schema version \(version) is not one this msgc reads (it reads version \(RealtimeSnapshot.schemaVersion)); make the snapshot with this msgc")
        }
        let generator = try member("generator", in: root)
        let environmentText = try string("environment", in: root)
        guard let environment = Environment(rawValue: environmentText) else {
            throw fail(root.member("environment")!, "\"environment\" must be sandbox or production, not '\(environmentText)'")
        }
        let digest = try string("bundleDigest", in: root)
        guard digest.hasPrefix("sha256:"), digest.utf8.count == 71,
              digest.utf8.dropFirst(7).allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw fail(root.member("bundleDigest")!, "\"bundleDigest\" must be sha256: and 64 lower-case hexadecimal digits")
        }
        var products: [RealtimeSnapshot.Product] = []
        for item in try array("products", in: root) { products.append(try product(item)) }
        var omitted: [RealtimeSnapshot.Omission] = []
        for item in try array("omitted", in: root) {
            let reasonText = try string("reason", in: item)
            guard let reason = RealtimeSnapshot.Omission.Reason(rawValue: reasonText) else {
                throw fail(item.member("reason")!, "unknown \"reason\" '\(reasonText)'")
            }
            omitted.append(RealtimeSnapshot.Omission(
                product: try name("product", in: item), locale: try name("locale", in: item), key: try name("key", in: item),
                identifier: item.member("identifier") == nil ? "" : try identifier("identifier", in: item), reason: reason,
                detail: try string("detail", in: item)))
        }
        return RealtimeSnapshot(
            generatorVersion: try string("version", in: generator), bundleId: try string("bundleId", in: root), environment: environment,
            bundleDigest: digest, release: try optionalString("release", in: root), products: products, omitted: omitted)
    }

    func product(_ node: Node) throws(Failure) -> RealtimeSnapshot.Product {
        var choice: RealtimeChoice.Mode?
        var arms: [RealtimeSnapshot.Arm] = []
        if let choiceText = try optionalString("choice", in: node) {
            guard let mode = RealtimeChoice.Mode(rawValue: choiceText) else {
                throw fail(node.member("choice")!, "\"choice\" must be first-usable or weighted, not '\(choiceText)'")
            }
            choice = mode
            for arm in try array("realtime", in: node) {
                let weight = try integer("weight", in: arm)
                guard (1...RealtimeChoice.maxWeight).contains(weight) else {
                    throw fail(arm, "\"weight\" \(weight) is out of range: give 1 to \(RealtimeChoice.maxWeight)")
                }
                arms.append(RealtimeSnapshot.Arm(message: try name("message", in: arm), weight: weight))
            }
        }
        var locales: [RealtimeSnapshot.Locale] = []
        for item in try array("locales", in: node) {
            var answers: [RealtimeSnapshot.Answer] = []
            for entry in try array("messages", in: item) { answers.append(try answer(entry)) }
            let defaultKey = try optionalString("default", in: item)
            if let defaultKey, !answers.contains(where: { $0.key == defaultKey && $0.type == .text }) {
                throw fail(item.member("default")!, "\"default\" must name a text message of the locale's \"messages\"")
            }
            locales.append(RealtimeSnapshot.Locale(locale: try name("locale", in: item), defaultKey: defaultKey, messages: answers))
        }
        return RealtimeSnapshot.Product(
            id: try name("id", in: node), group: try optionalString("group", in: node), choice: choice, realtime: arms, locales: locales)
    }

    func answer(_ node: Node) throws(Failure) -> RealtimeSnapshot.Answer {
        let typeText = try string("type", in: node)
        guard let type = MessageType(rawValue: typeText) else { throw fail(node.member("type")!, "unknown \"type\" '\(typeText)'") }
        let versionText = try string("version", in: node)
        guard let version = RealtimeSnapshot.Answer.Version(rawValue: versionText) else {
            throw fail(node.member("version")!, "\"version\" must be current or previous, not '\(versionText)'")
        }
        var images: [String] = []
        let imageList = try member("images", in: node)
        guard case .array(let items) = imageList.value else { throw fail(imageList, "\"images\" must be an array") }
        for item in items {
            guard case .string(let text) = item.value, Manifest.isIdentifier(text) else { throw fail(item, "\"images\" must list lower-case UUIDs") }
            images.append(text)
        }
        var answer = RealtimeSnapshot.Answer(
            key: try name("key", in: node), type: type, identifier: try identifier("identifier", in: node), images: images, version: version)
        switch type {
        case .text: break
        case .switchPlan:
            answer.productId = try name("productId", in: node)
            if let plan = try optionalString("billingPlanType", in: node) {
                guard BillingPlanType(appleValue: plan) != nil else {
                    throw fail(node.member("billingPlanType")!, "\"billingPlanType\" must be MONTHLY or BILLED_UPFRONT, not '\(plan)'")
                }
                answer.billingPlanType = plan
            }
        case .promotionalOffer: answer.offerIdentifier = try name("offerIdentifier", in: node)
        }
        if let kind = try optionalString("answer", in: node), kind != answer.kind.rawValue {
            throw fail(node.member("answer")!, "\"answer\" of a \(type.rawValue) message is \(answer.kind.rawValue), not '\(kind)'")
        }
        return answer
    }
}
