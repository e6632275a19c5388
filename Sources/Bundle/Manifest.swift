import Model

/// `manifest.json` of a bundle (docs/formats.md, "The bundle"): the one description of its shape.
///
/// `msgc build` encodes it (`json`), and `msgc diff` and `msgc apply` decode it (`decode`), so the
/// writer and the readers cannot drift apart. Decoding is strict: a bundle on disk may have been
/// copied half-way, edited by hand or be some other folder altogether, and what the manifest says
/// ends up in request paths. Every identifier must be a lower-case UUID, every product and locale
/// a safe path segment, and each entry's `method` and `path` must be the ones its fields imply.
public struct Manifest: Hashable, Sendable {
    public static let format = "msgc-bundle"
    public static let formatVersion = 1

    public var generatorVersion: String
    public var bundleId: String
    public var environment: Environment
    public var release: String?
    /// `sha256:` and the SHA-256 of the file list (`BundleBuilder.digest(of:)`).
    public var digest: String
    /// What to apply, in order: images, then messages, then default configurations.
    public var operations: [Entry]
    /// With `--state`: uploads Apple already holds; nil when the build had no state file.
    public var present: [Entry]?
    /// With `--state`: production default configurations waiting for Apple's approval.
    public var deferred: [Entry]?
    /// With `--state`: identifiers Apple holds that the bundle does not use.
    public var unreferenced: [Unreferenced]?
    /// What a realtime answer needs to know of each product of msgc.yaml: its subscription group
    /// and its `realtime:` choice. Nil in a manifest written before msgc knew them.
    public var products: [Product]?
    /// What the sources configure (a product's locales × its message keys) and the bundle does
    /// not ship, with why, sorted by product, locale and key: what the stages at Apple must
    /// neither delete nor report gone. Written only when not empty; empty when absent.
    public var notShipped: [NotShipped] = []

    public init(
        generatorVersion: String, bundleId: String, environment: Environment, release: String?, digest: String,
        operations: [Entry], present: [Entry]? = nil, deferred: [Entry]? = nil, unreferenced: [Unreferenced]? = nil,
        products: [Product]? = nil
    ) {
        self.generatorVersion = generatorVersion
        self.bundleId = bundleId
        self.environment = environment
        self.release = release
        self.digest = digest
        self.operations = operations
        self.present = present
        self.deferred = deferred
        self.unreferenced = unreferenced
        self.products = products
    }

    /// A product of msgc.yaml as the realtime snapshot needs it.
    public struct Product: Hashable, Sendable {
        public var id: String
        public var group: String?
        /// `first-usable` or `weighted`; nil when msgc.yaml gives no `realtime:`.
        public var choice: RealtimeChoice.Mode?
        /// The `realtime:` entries in order: message key and weight (1 in a first-usable list).
        public var realtime: [(message: String, weight: Int)]

        public init(id: String, group: String?, choice: RealtimeChoice.Mode?, realtime: [(message: String, weight: Int)]) {
            self.id = id
            self.group = group
            self.choice = choice
            self.realtime = realtime
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.id == rhs.id && lhs.group == rhs.group && lhs.choice == rhs.choice
                && lhs.realtime.map(\.message) == rhs.realtime.map(\.message) && lhs.realtime.map(\.weight) == rhs.realtime.map(\.weight)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(group)
            hasher.combine(realtime.map(\.message))
        }
    }

    /// Whether `text` is a lower-case UUID, as msgc writes every identifier.
    public static func isIdentifier(_ text: String) -> Bool { Decoder.isIdentifier(text) }

    /// `operations`, then `present`, then `deferred`: every entry whose file is in the bundle.
    public var entries: [Entry] { operations + (present ?? []) + (deferred ?? []) }

    /// One upload or default configuration.
    public struct Entry: Hashable, Sendable {
        public enum Operation: String, Sendable, CaseIterable {
            case uploadImage, uploadMessage, configureDefault
        }

        public var operation: Operation
        /// The upload's identifier (lower case); nil for `configureDefault`.
        public var identifier: String?
        /// The request body's path inside the bundle.
        public var file: String
        public var sha256: String
        /// `uploadImage` only: the `imageSize` query.
        public var imageSize: ImageSize?
        /// Messages and default configurations: where they came from.
        public var product: String?
        public var locale: String?
        public var key: String?
        /// The content-tree file it came from: the image for `uploadImage`, the message source else.
        public var source: String
        /// The XLIFF file the text came from, when it was translated.
        public var translation: String?
        /// The identifiers that must be uploaded (and approved) first; empty for images.
        public var requires: [String]
        /// In `present`: the state Apple reported (`APPROVED`, `PENDING`, `REJECTED`).
        public var state: String?
        /// In `deferred`: why it waits.
        public var reason: String?
        /// `uploadMessage` only: the message's type (`text`, `promotional-offer`, `switch-plan`);
        /// nil in a manifest written before msgc recorded it.
        public var messageType: MessageType?
        /// `uploadMessage` of a switch-plan message: the product its realtime answer offers.
        public var switchTo: String?
        /// `uploadMessage` of a switch-plan message: how the plan `switchTo` names is billed,
        /// Apple's `billingPlanType` (`MONTHLY`, `BILLED_UPFRONT`), when the source says.
        public var billingPlanType: String?
        /// `uploadMessage` of a promotional-offer message: the offer's identifier in App Store Connect.
        public var offer: String?

        public init(
            operation: Operation, identifier: String?, file: String, sha256: String, imageSize: ImageSize? = nil,
            product: String? = nil, locale: String? = nil, key: String? = nil, source: String, translation: String? = nil,
            requires: [String] = [], state: String? = nil, reason: String? = nil
        ) {
            self.operation = operation
            self.identifier = identifier
            self.file = file
            self.sha256 = sha256
            self.imageSize = imageSize
            self.product = product
            self.locale = locale
            self.key = key
            self.source = source
            self.translation = translation
            self.requires = requires
            self.state = state
            self.reason = reason
        }

        /// Apple's method for the request; every operation is a PUT.
        public var method: String { "PUT" }

        /// Apple's path for the request (the host depends on the environment).
        public var path: String {
            switch operation {
            case .uploadImage: "/inApps/v1/messaging/image/\(identifier ?? "")"
            case .uploadMessage: "/inApps/v1/messaging/message/\(identifier ?? "")"
            case .configureDefault: "/inApps/v1/messaging/default/\(product ?? "")/\(locale ?? "")"
            }
        }
    }

    /// An identifier Apple holds that the bundle does not use.
    public struct Unreferenced: Hashable, Sendable {
        public enum Kind: String, Sendable { case image, message }
        public var kind: Kind
        public var identifier: String
        public var state: String
        /// Images only: Apple's `imageSize`, empty when Apple did not say.
        public var imageSize: String?

        public init(kind: Kind, identifier: String, state: String, imageSize: String? = nil) {
            self.kind = kind
            self.identifier = identifier
            self.state = state
            self.imageSize = imageSize
        }

        public var path: String { "/inApps/v1/messaging/\(kind.rawValue)/\(identifier)" }
    }

    /// A message of the sources that the bundle does not ship in one of its product's locales.
    public struct NotShipped: Hashable, Sendable, Comparable {
        public enum Reason: String, Hashable, Sendable, CaseIterable {
            /// Some field has no translation at all (no unit, no target, not translated yet).
            case untranslated
            /// A translation is stale and the message or msgc.yaml says `staleTranslations: withhold`.
            case withheldStale = "withheld-stale"
            /// A translation's state is below msgc.yaml's `minimumState`.
            case belowMinimumState = "below-minimum-state"
            /// The translation fails a rule with an error.
            case failingRules = "failing-rules"
            /// The locale's XLIFF file could not be read.
            case unreadableFile = "unreadable-file"

            /// Whether the locale waits for its translators: everything but a rule's error.
            public var waitsForTranslation: Bool { self != .failingRules }
        }

        public var product: String
        public var locale: String
        public var key: String
        public var reason: Reason

        public init(product: String, locale: String, key: String, reason: Reason) {
            self.product = product
            self.locale = locale
            self.key = key
            self.reason = reason
        }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.product, lhs.locale, lhs.key) < (rhs.product, rhs.locale, rhs.key)
        }
    }

    // MARK: - Encoding

    /// The manifest as msgc writes it; `json.canonicalBytes` is `manifest.json`.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "format": .string(Self.format),
            "formatVersion": .integer(Self.formatVersion),
            "generator": ["name": "msgc", "version": .string(generatorVersion)],
            "bundleId": .string(bundleId),
            "environment": .string(environment.rawValue),
            "release": release.map { .string($0) } ?? .null,
            "digest": .string(digest),
            "operations": .array(operations.map(\.json)),
        ]
        if let present { object["present"] = .array(present.map(\.json)) }
        if let deferred { object["deferred"] = .array(deferred.map(\.json)) }
        if let unreferenced { object["unreferenced"] = .array(unreferenced.map(\.json)) }
        if let products { object["products"] = .array(products.map(\.json)) }
        if !notShipped.isEmpty {
            object["notShipped"] = .array(notShipped.sorted().map {
                ["key": .string($0.key), "locale": .string($0.locale), "product": .string($0.product), "reason": .string($0.reason.rawValue)]
            })
        }
        return .object(object)
    }

    // MARK: - Decoding

    /// Reads `manifest.json` strictly; `path` is how messages name it. With `realtime` (the
    /// bundle's `realtime.json`, which the digest covers), the manifest's copies of its facts must
    /// be the same, or the manifest is refused at the first member that differs.
    public static func decode(_ bytes: [UInt8], path: String, realtime: RealtimeFacts? = nil) throws(JSONReadError) -> Manifest {
        let root = try JSONCursor.parse(bytes, file: path, reading: .strict, naming: .memberName)
        let manifest = try Decoder.manifest(root)
        if let realtime { try Decoder.check(manifest, root, against: realtime) }
        return manifest
    }

    /// Reads manifest.json and realtime.json alike.
    enum Decoder {
        static func isIdentifier(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            guard bytes.count == 36 else { return false }
            for (index, byte) in bytes.enumerated() {
                if [8, 13, 18, 23].contains(index) {
                    guard byte == UInt8(ascii: "-") else { return false }
                } else {
                    guard (48...57).contains(byte) || (97...102).contains(byte) else { return false }
                }
            }
            return true
        }

        static func manifest(_ root: JSONCursor) throws(JSONReadError) -> Manifest {
            guard case .object = root.node.value else { throw root.error("a manifest is a JSON object, not \(root.kindName)") }
            guard case .string(Manifest.format)? = root.member("format")?.node.value else {
                throw JSONReadError("'\(root.file)' is not the manifest of an msgc bundle: its \"format\" is not \"\(Manifest.format)\"", file: root.file)
            }
            guard let versionNode = root.member("formatVersion"), let version = try? versionNode.integer() else {
                throw root.error("\"formatVersion\" must be a number")
            }
            guard version == Manifest.formatVersion else {
                throw versionNode.error("format version \(version) is not one this msgc reads (it reads version \(Manifest.formatVersion)); use the msgc that wrote it")
            }
            guard let generator = root.member("generator"), case .object = generator.node.value else {
                throw root.error("missing \"generator\", an object with the name and version of what wrote the bundle")
            }
            let environment = try root.string("environment", as: Environment.init(rawValue:)) {
                "\"environment\" must be sandbox or production, not '\($0)'"
            }
            let digest = try root.string("digest", as: { $0.hasPrefix("sha256:") && isHex($0.dropFirst(7)) ? $0 : nil }) { _ in
                "\"digest\" must be sha256: and 64 lower-case hexadecimal digits"
            }
            let operations = try root.required("operations")
            var manifest = Manifest(
                generatorVersion: try generator.string("version"),
                bundleId: try root.string("bundleId"),
                environment: environment,
                release: try root.optionalString("release"),
                digest: digest,
                operations: try entries(operations),
                present: try root.member("present").map { node throws(JSONReadError) in try entries(node) },
                deferred: try root.member("deferred").map { node throws(JSONReadError) in try entries(node) },
                unreferenced: try root.member("unreferenced").map { node throws(JSONReadError) in try unreferenced(node) },
                products: try root.member("products").map { node throws(JSONReadError) in try products(node) })
            if let list = root.member("notShipped") { manifest.notShipped = try notShipped(list) }
            if let products = manifest.products {
                for section in ["operations", "present", "deferred"] {
                    for item in (try? root.member(section)?.array()) ?? [] { try checkSwitchTo(item, products: products) }
                }
            }
            return manifest
        }

        static func notShipped(_ list: JSONCursor) throws(JSONReadError) -> [NotShipped] {
            var result: [NotShipped] = []
            for item in try list.objects() {
                try item.refuseUnknownMembers(["key", "locale", "product", "reason"], in: "a \"notShipped\" entry")
                let reason = try item.string("reason", as: NotShipped.Reason.init(rawValue:)) {
                    "\"reason\" must be one of \(NotShipped.Reason.allCases.map(\.rawValue).joined(separator: ", ")), not '\($0)'"
                }
                let entry = NotShipped(product: try item.segment("product"), locale: try item.segment("locale"), key: try item.string("key"), reason: reason)
                if let last = result.last, !(last < entry) {
                    throw item.error("\"notShipped\" must be sorted by product, locale and key, each once, as msgc writes it")
                }
                result.append(entry)
            }
            return result
        }

        /// A switch-plan message's `switchTo`, re-checked where it is read (lint's PRJ010 checked
        /// the sources): another product of `products` in the same subscription group as the
        /// message's own, or the answer would offer a plan Apple cannot switch to.
        static func checkSwitchTo(_ item: JSONCursor, products: [Product]) throws(JSONReadError) {
            guard let node = item.member("switchTo"), case .string(let target) = node.node.value,
                case .string(let own)? = item.member("product")?.node.value
            else { return }
            let group = products.first { $0.id == own }?.group
            guard target != own, let group, products.first(where: { $0.id == target })?.group == group else {
                throw node.error("\"switchTo\" '\(target)' is not another product of the group of '\(own)' (\(group.map { "'\($0)'" } ?? "no group") in \"products\")")
            }
        }

        /// The manifest's copies of what `realtime.json` holds, member by member: the first that
        /// differs is refused where the manifest writes it.
        static func check(_ manifest: Manifest, _ root: JSONCursor, against facts: RealtimeFacts) throws(JSONReadError) {
            let file = RealtimeFacts.file
            let edited = "the manifest was edited after msgc wrote the bundle; build it again"
            func quoted(_ text: String?) -> String { text.map { "'\($0)'" } ?? "absent" }
            guard let products = manifest.products, let list = root.member("products"), let items = try? list.array() else {
                throw root.error("missing \"products\", which \(file) (covered by the digest) lists; \(edited)")
            }
            guard products.count == facts.products.count else {
                throw list.error("\"products\" lists \(products.count) product\(products.count == 1 ? "" : "s"), but \(file), which the digest covers, lists \(facts.products.count); \(edited)")
            }
            for (item, (mine, theirs)) in zip(items, zip(products, facts.products)) {
                func differ(_ field: String, _ value: String, _ other: String) -> JSONReadError {
                    (item.member(field) ?? item).error("\"\(field)\" of product '\(mine.id)' is \(value), but \(file), which the digest covers, says \(other); \(edited)")
                }
                func arms(_ product: Product) -> String {
                    product.realtime.isEmpty ? "absent" : "'" + product.realtime.map { "\($0.message) weight \($0.weight)" }.joined(separator: ", ") + "'"
                }
                if mine.id != theirs.id { throw differ("id", quoted(mine.id), quoted(theirs.id)) }
                if mine.group != theirs.group { throw differ("group", quoted(mine.group), quoted(theirs.group)) }
                if mine.choice != theirs.choice { throw differ("choice", quoted(mine.choice?.rawValue), quoted(theirs.choice?.rawValue)) }
                if mine != theirs {
                    // Located at the first entry that differs, or at the list when one is longer.
                    var node = item.member("realtime") ?? item
                    if let entries = try? item.member("realtime")?.array(),
                       let index = zip(mine.realtime, theirs.realtime).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset,
                       index < entries.count {
                        let entry = entries[index]
                        node = mine.realtime[index].message != theirs.realtime[index].message ? entry.member("message") ?? entry : entry.member("weight") ?? entry
                    }
                    throw node.error("\"realtime\" of product '\(mine.id)' is \(arms(mine)), but \(file), which the digest covers, says \(arms(theirs)); \(edited)")
                }
            }
            var listed = Set<String>()
            for (section, entries) in [("operations", manifest.operations), ("present", manifest.present ?? []), ("deferred", manifest.deferred ?? [])] {
                guard let items = try? root.member(section)?.array() else { continue }
                for (item, entry) in zip(items, entries) where entry.operation == .uploadMessage {
                    let identifier = entry.identifier ?? ""
                    guard let fact = facts.message(identifier) else {
                        throw item.error("message \(identifier) is not in \(file), which the digest covers; \(edited)")
                    }
                    listed.insert(identifier)
                    let fields: [(String, String?, String?)] = [
                        ("product", entry.product, fact.product), ("locale", entry.locale, fact.locale), ("key", entry.key, fact.key),
                        ("messageType", entry.messageType?.rawValue, fact.messageType.rawValue), ("switchTo", entry.switchTo, fact.switchTo),
                        ("billingPlanType", entry.billingPlanType, fact.billingPlanType), ("offer", entry.offer, fact.offer),
                    ]
                    for (field, value, other) in fields where value != other {
                        throw (item.member(field) ?? item).error("\"\(field)\" of message \(identifier) is \(quoted(value)), but \(file), which the digest covers, says \(quoted(other)); \(edited)")
                    }
                }
            }
            if let extra = facts.messages.first(where: { !listed.contains($0.identifier) }) {
                throw root.error("\(file), which the digest covers, lists message \(extra.identifier) ('\(extra.key)' of \(extra.product) in \(extra.locale)), which no uploadMessage entry of the manifest has; \(edited)")
            }
        }

        static func isHex(_ text: Substring) -> Bool {
            text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        }

        static func entries(_ list: JSONCursor) throws(JSONReadError) -> [Entry] {
            var result: [Entry] = []
            for item in try list.objects() {
                guard let operation = Entry.Operation(rawValue: try item.optionalString("op") ?? "") else {
                    throw item.error("unknown \"op\"; msgc writes uploadImage, uploadMessage and configureDefault")
                }
                let file = try item.string("file", as: { BundleReader.isSafeRelativePath($0) && $0 != RealtimeFacts.file ? $0 : nil }) {
                    $0 == RealtimeFacts.file
                        ? "\"file\" must not be \(RealtimeFacts.file), which is no request body" : "\"file\" must be a path inside the bundle, not '\($0)'"
                }
                let sha256 = try item.string("sha256", as: { isHex($0[...]) ? $0 : nil }) { _ in "\"sha256\" must be 64 lower-case hexadecimal digits" }
                var entry = Entry(operation: operation, identifier: nil, file: file, sha256: sha256, source: try item.string("source"))
                entry.translation = try item.optionalString("translation")
                entry.state = try item.optionalString("state")
                entry.reason = try item.optionalString("reason")
                switch operation {
                case .uploadImage:
                    entry.identifier = try item.identifier("identifier")
                    guard case .string(let sizeText)? = item.member("query")?.member("imageSize")?.node.value,
                          let size = ImageSize(rawValue: sizeText) else {
                        throw item.error("an uploadImage entry needs \"query\": {\"imageSize\": \"FULL_SIZE\" or \"BULLET_POINT\"}")
                    }
                    entry.imageSize = size
                case .uploadMessage, .configureDefault:
                    if operation == .uploadMessage { entry.identifier = try item.identifier("identifier") }
                    entry.product = try item.segment("product")
                    entry.locale = try item.segment("locale")
                    entry.key = try item.string("key")
                }
                if operation == .uploadMessage {
                    entry.messageType = try item.optionalString("messageType", as: MessageType.init(rawValue:)) {
                        "\"messageType\" must be text, promotional-offer or switch-plan, not '\($0)'"
                    }
                    if item.has("switchTo") { entry.switchTo = try item.segment("switchTo") }
                    entry.billingPlanType = try item.optionalString("billingPlanType", as: { BillingPlanType(appleValue: $0) == nil ? nil : $0 }) {
                        "\"billingPlanType\" must be MONTHLY or BILLED_UPFRONT, not '\($0)'"
                    }
                    entry.offer = try item.optionalString("offer", as: { isOfferIdentifier($0) ? $0 : nil }) {
                        "\"offer\" must hold only ASCII letters, digits, '.', '_' and '-', not '\($0)'"
                    }
                }
                if let requires = item.member("requires") {
                    guard let items = try? requires.array() else { throw requires.error("\"requires\" must be an array of identifiers") }
                    for required in items {
                        guard let text = try? required.string(), isIdentifier(text) else { throw required.error("\"requires\" must list lower-case UUIDs") }
                        entry.requires.append(text)
                    }
                }
                guard try item.optionalString("method") == entry.method, try item.optionalString("path") == entry.path else {
                    throw item.error("\"method\" and \"path\" must be \(entry.method) \(entry.path), the request this entry describes")
                }
                result.append(entry)
            }
            return result
        }

        static func isOfferIdentifier(_ text: String) -> Bool {
            !text.isEmpty && text.utf8.count <= 255 && text.utf8.allSatisfy {
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == UInt8(ascii: ".")
                    || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            }
        }

        static func products(_ list: JSONCursor) throws(JSONReadError) -> [Product] {
            var result: [Product] = []
            for item in try list.objects() {
                var product = Product(id: try item.segment("id"), group: try item.optionalString("group"), choice: nil, realtime: [])
                product.choice = try item.optionalString("choice", as: RealtimeChoice.Mode.init(rawValue:)) {
                    "\"choice\" must be first-usable or weighted, not '\($0)'"
                }
                if let arms = item.member("realtime") {
                    for arm in try arms.objects() {
                        let message = try arm.string("message")
                        guard let weight = try? arm.integer("weight"), (1...RealtimeChoice.maxWeight).contains(weight) else {
                            throw arm.error("a realtime entry needs \"weight\", a whole number from 1 to \(RealtimeChoice.maxWeight)")
                        }
                        product.realtime.append((message, weight))
                    }
                }
                guard (product.choice == nil) == product.realtime.isEmpty else {
                    throw item.error("\"choice\" and \"realtime\" are given together or not at all")
                }
                result.append(product)
            }
            return result
        }

        static func unreferenced(_ list: JSONCursor) throws(JSONReadError) -> [Unreferenced] {
            var result: [Unreferenced] = []
            for item in try list.objects() {
                let kind = try item.string("kind", as: Unreferenced.Kind.init(rawValue:)) { "\"kind\" must be image or message, not '\($0)'" }
                // As Apple listed it, a lower-case UUID (the state file's reader drops any other):
                // the bundle never sends a request for it, but its path is written for clean-ups.
                var entry = Unreferenced(kind: kind, identifier: try item.identifier("identifier"), state: try item.string("state"))
                if kind == .image { entry.imageSize = try item.optionalString("imageSize") }
                result.append(entry)
            }
            return result
        }
    }
}

extension JSONCursor {
    /// The required member `key`, a lower-case UUID, as msgc writes every identifier.
    public func identifier(_ key: String) throws(JSONReadError) -> String {
        try string(key, as: { Manifest.isIdentifier($0) ? $0 : nil }) { "\"\(key)\" must be a lower-case UUID, not '\($0)'" }
    }

    /// The required member `key`, a name that becomes one segment of a request path (a
    /// product, a locale).
    func segment(_ key: String) throws(JSONReadError) -> String {
        try string(key, as: { PathSegment.isSafe($0) && !$0.unicodeScalars.contains(where: { "?#% ".unicodeScalars.contains($0) }) ? $0 : nil }) {
            "\"\(key)\" must be one path segment, not '\($0)'"
        }
    }
}

extension Manifest.Entry {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "op": .string(operation.rawValue),
            "method": .string(method),
            "path": .string(path),
            "file": .string(file),
            "sha256": .string(sha256),
            "source": .string(source),
        ]
        if let identifier { object["identifier"] = .string(identifier) }
        if let imageSize { object["query"] = ["imageSize": .string(imageSize.rawValue)] }
        if let product { object["product"] = .string(product) }
        if let locale { object["locale"] = .string(locale) }
        if let key { object["key"] = .string(key) }
        if let translation { object["translation"] = .string(translation) }
        // A message without images has no `requires`; a default configuration always has one.
        if !requires.isEmpty || operation == .configureDefault { object["requires"] = .array(requires.map { .string($0) }) }
        if let state { object["state"] = .string(state) }
        if let reason { object["reason"] = .string(reason) }
        if let messageType { object["messageType"] = .string(messageType.rawValue) }
        if let switchTo { object["switchTo"] = .string(switchTo) }
        if let billingPlanType { object["billingPlanType"] = .string(billingPlanType) }
        if let offer { object["offer"] = .string(offer) }
        return .object(object)
    }
}

extension Manifest.Product {
    var json: JSONValue {
        var object: [String: JSONValue] = ["id": .string(id)]
        if let group { object["group"] = .string(group) }
        if let choice {
            object["choice"] = .string(choice.rawValue)
            object["realtime"] = .array(realtime.map { ["message": .string($0.message), "weight": .integer($0.weight)] })
        }
        return .object(object)
    }
}

extension Manifest.Unreferenced {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(kind.rawValue),
            "identifier": .string(identifier),
            "state": .string(state),
            "path": .string(path),
        ]
        if kind == .image { object["imageSize"] = .string(imageSize ?? "") }
        return .object(object)
    }
}
