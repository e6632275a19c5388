import Model

/// What `msgc prune` deletes at Apple and what it keeps, worked out from what is known and
/// nothing else: the one plan `msgc prune` acts on and `msgc diff` prints, so the two cannot
/// disagree (docs/live.md says what is live and why each rule is here).
///
/// In: the live bundle (the one this release applied), the bundles of earlier releases, what
/// Apple holds (its message and image lists with their review states, and the default it serves
/// for each product and locale asked about), and the deployed realtime snapshots' answers.
///
/// Nothing live is deleted:
/// - an identifier the live bundle uses;
/// - a message Apple serves as a default the live bundle keeps (or re-points: until applied);
/// - an approved message whose replacement for the same product, locale and key is not yet
///   shown by Apple (PENDING, REJECTED, not uploaded): Apple and the snapshot still show it;
/// - what an earlier bundle shipped for a product, locale and key the live bundle does not ship
///   but its sources still configure (`notShipped`: a locale waiting for its translation, …),
///   default configuration included;
/// - a message or image a deployed snapshot answers with;
/// - an image a kept message uses.
///
/// A product, locale and key in neither the live bundle nor its `notShipped` was removed from
/// the sources: what earlier bundles shipped for it goes.
public struct PrunePlan: Sendable, Equatable {
    /// A product and locale, where Apple may serve a default message.
    public struct Pair: Hashable, Comparable, Sendable {
        public var product: String
        public var locale: String

        public init(product: String, locale: String) {
            self.product = product
            self.locale = locale
        }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.product, lhs.locale) < (rhs.product, rhs.locale)
        }

        /// `PRODUCT in LOCALE`.
        public var name: String { "\(product) in \(locale)" }
    }

    public struct Deletion: Sendable, Equatable {
        public enum Kind: String, Sendable { case defaultConfiguration = "default", message, image }
        public var kind: Kind
        /// A message or image identifier; for a default, `PRODUCT/LOCALE`.
        public var identifier: String
        /// What an earlier bundle used it for: `PRODUCT/KEY in LOCALE`, an image's path and size,
        /// `PRODUCT in LOCALE`; empty for what no bundle names.
        public var what: String
        /// Why it goes, for the reviewer.
        public var why: String
        /// For a default: its product and locale, and the message Apple serves there, which may be
        /// deleted only after it.
        public var pair: Pair?
        public var serves: String?

        /// `message 1b2c…`, `default of PRODUCT in LOCALE`.
        public var name: String {
            kind == .defaultConfiguration ? "default of \(pair?.name ?? identifier)" : "\(kind.rawValue) \(identifier)"
        }
    }

    /// Something prune leaves although the live bundle does not use it.
    public struct Kept: Sendable, Equatable {
        /// `message 1b2c…`, `image …`, `default of PRODUCT in LOCALE`.
        public var name: String
        public var why: String
        /// Whether it stays only until Apple approves a replacement: the next prune after that deletes it.
        public var untilApproval: Bool

        public init(name: String, why: String, untilApproval: Bool = false) {
            self.name = name
            self.why = why
            self.untilApproval = untilApproval
        }
    }

    /// What Apple holds, as read (`msgc prune`) or as assumed (`msgc diff`).
    public struct Apple: Sendable {
        public var state: StateFile
        /// For each pair asked about: the message Apple serves there, or nil when it serves none.
        public var served: [Pair: String?]

        public init(state: StateFile, served: [Pair: String?]) {
            self.state = state
            self.served = served
        }

        /// Apple once `live` is applied and every upload approved: what a prune after this release
        /// meets when all goes well (`msgc diff`).
        public static func assumed(live: BundleContents, earlier: [BundleContents]) -> Apple {
            var messages: [String: HeldUpload] = [:]
            var images: [String: HeldUpload] = [:]
            var served: [Pair: String?] = [:]
            for bundle in earlier + [live] {
                for entry in bundle.manifest.entries {
                    guard let identifier = entry.identifier else { continue }
                    let held = HeldUpload(identifier: identifier, state: .approved, imageSize: entry.imageSize?.rawValue, location: SourceLocation(path: "(assumed)"))
                    if entry.operation == .uploadImage { images[identifier] = held } else { messages[identifier] = held }
                }
                for (pair, message) in configured(bundle) { served[pair] = .some(message) }
            }
            return Apple(
                state: StateFile(messages: messages.values.sorted { $0.identifier < $1.identifier }, images: images.values.sorted { $0.identifier < $1.identifier }),
                served: served)
        }
    }

    /// What a deployed realtime snapshot answers with.
    public struct Snapshot: Sendable {
        /// How the reviewer knows it: its path.
        public var path: String
        public var messages: Set<String>
        public var images: Set<String>

        public init(path: String, messages: Set<String>, images: Set<String>) {
            self.path = path
            self.messages = Set(messages.map { $0.lowercased() })
            self.images = Set(images.map { $0.lowercased() })
        }
    }

    /// Stray defaults, then messages, then images, each sorted.
    public var deletions: [Deletion] = []
    public var kept: [Kept] = []
    /// Identifiers an earlier bundle names that Apple no longer holds, and defaults an earlier
    /// bundle configured that Apple no longer serves: what a stopped run of the same prune may have done.
    public var alreadyGone = 0

    public init() {}

    public func count(_ kind: Deletion.Kind) -> Int { deletions.count { $0.kind == kind } }

    /// `12 deletions (2 default configurations, 8 messages, 2 images)`.
    public var headline: String {
        func part(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(part(deletions.count, "deletion")) (\(part(count(.defaultConfiguration), "default configuration")), \(part(count(.message), "message")), \(part(count(.image), "image")))"
    }

    /// Whether `--confirm confirmed` covers this plan: the same count, or a smaller one whose
    /// shortfall is what an earlier run of the same prune deleted before it was stopped. Never
    /// more than was confirmed.
    public func isCovered(by confirmed: Int) -> Bool {
        deletions.count == confirmed || (deletions.count < confirmed && deletions.count + alreadyGone >= confirmed)
    }

    /// Every product and locale of the live and earlier bundles: the defaults to ask Apple about.
    public static func pairs(live: BundleContents, earlier: [BundleContents]) -> [Pair] {
        var pairs = Set<Pair>()
        for bundle in [live] + earlier {
            for entry in bundle.manifest.entries {
                if let product = entry.product, let locale = entry.locale { pairs.insert(Pair(product: product, locale: locale)) }
            }
        }
        return pairs.sorted()
    }

    /// The message each default configuration of `contents` points at, by product and locale.
    public static func configured(_ contents: BundleContents) -> [Pair: String] {
        var result: [Pair: String] = [:]
        for entry in contents.manifest.entries where entry.operation == .configureDefault {
            guard let product = entry.product, let locale = entry.locale else { continue }
            result[Pair(product: product, locale: locale)] = contents.defaultTargets[entry.file] ?? ""
        }
        return result
    }

    /// A product, locale and key.
    struct Slot: Hashable {
        var product: String
        var locale: String
        var key: String
        var name: String { "\(product)/\(key) in \(locale)" }
    }

    public static func make(
        live: BundleContents, earlier: [(path: String, contents: BundleContents)], apple: Apple, snapshots: [Snapshot] = [],
        allUnreferenced: Bool = false
    ) -> PrunePlan {
        var plan = PrunePlan()
        let state = apple.state
        let environment = live.manifest.environment
        let used = Set(live.manifest.entries.compactMap(\.identifier))

        // What the live bundle ships for each slot, and what its sources configure but it does not ship.
        var liveSlots: [Slot: Manifest.Entry] = [:]
        for entry in live.manifest.entries where entry.operation == .uploadMessage {
            guard let product = entry.product, let locale = entry.locale, let key = entry.key else { continue }
            liveSlots[Slot(product: product, locale: locale, key: key)] = entry
        }
        var notShipped: [Slot: String] = [:]
        for item in live.manifest.notShipped {
            notShipped[Slot(product: item.product, locale: item.locale, key: item.key)] = item.reason.rawValue
        }

        // What each earlier bundle names: identifier → how the reviewer knows it, and its slot.
        var named: [String: (what: String, whereNamed: String)] = [:]
        var slots: [String: Slot] = [:]
        var imageUsers: [String: Set<String>] = [:]
        for bundle in earlier {
            for entry in bundle.contents.manifest.entries {
                guard let identifier = entry.identifier, named[identifier] == nil else { continue }
                switch entry.operation {
                case .uploadImage:
                    named[identifier] = ("\(entry.source) \(entry.imageSize?.rawValue ?? "")", "image \(entry.source) (\(entry.imageSize?.rawValue ?? "")) in \(bundle.path)")
                default:
                    let slot = Slot(product: entry.product ?? "", locale: entry.locale ?? "", key: entry.key ?? "")
                    slots[identifier] = slot
                    named[identifier] = (slot.name, "message \(slot.name) in \(bundle.path)")
                }
            }
        }
        for bundle in [(path: "", contents: live)] + earlier {
            for entry in bundle.contents.manifest.entries where entry.operation == .uploadMessage {
                guard let identifier = entry.identifier, let body = bundle.contents.messageBodies[entry.file] else { continue }
                for image in [body.image?.identifier].compactMap({ $0 }) + body.bullets.compactMap(\.imageIdentifier) {
                    imageUsers[image.lowercased(), default: []].insert(identifier)
                }
            }
        }

        /// Whether Apple shows an upload: APPROVED; in sandbox, which approves by itself, held and not REJECTED.
        func shows(_ held: HeldUpload?) -> Bool {
            guard let held else { return false }
            return held.state == .approved || (environment == .sandbox && held.state != .rejected)
        }
        func describe(_ identifier: String, _ held: HeldUpload?) -> String {
            guard let held else { return "\(identifier) is not uploaded to Apple" }
            return "\(identifier) is \(held.state.rawValue.isEmpty ? "without a state" : held.state.rawValue) at Apple"
        }
        /// Why an approved earlier version of `slot` stays, or nil when nothing live needs it.
        func waiting(_ slot: Slot) -> (why: String, untilApproval: Bool)? {
            if let replacement = liveSlots[slot], let identifier = replacement.identifier {
                let unshown = [(identifier, state.message(identifier))].filter { !shows($0.1) }
                    + replacement.requires.map { ($0, state.image($0)) }.filter { !shows($0.1) }
                guard let first = unshown.first else { return nil }
                return ("its replacement for \(slot.name) is not yet shown by Apple (\(describe(first.0, first.1))): Apple still shows this one; the next prune after approval deletes it", true)
            }
            if let reason = notShipped[slot] {
                return ("this bundle does not ship \(slot.name) (\(reason)) although its sources configure it: Apple keeps showing this version meanwhile", false)
            }
            return nil
        }
        var snapshotMessages: [String: String] = [:]
        var snapshotImages: [String: String] = [:]
        for snapshot in snapshots {
            for identifier in snapshot.messages where snapshotMessages[identifier] == nil { snapshotMessages[identifier] = snapshot.path }
            for identifier in snapshot.images where snapshotImages[identifier] == nil { snapshotImages[identifier] = snapshot.path }
        }

        // Defaults Apple serves for a pair the live bundle no longer configures go first, unless
        // what they serve waits; every other default Apple serves protects its message.
        let configured = configured(live)
        var previouslyConfigured = Set<Pair>()
        for bundle in earlier { previouslyConfigured.formUnion(Self.configured(bundle.contents).keys) }
        var protected: [String: (why: String, untilApproval: Bool)] = [:]
        for pair in apple.served.keys.sorted() {
            guard let servedHere = apple.served[pair] else { continue }
            guard let message = servedHere?.lowercased() else {
                if previouslyConfigured.contains(pair) && configured[pair] == nil { plan.alreadyGone += 1 }
                continue
            }
            if let wanted = configured[pair] {
                if protected[message] == nil {
                    protected[message] = wanted == message
                        ? ("this bundle configures it as the default of \(pair.name)", false)
                        : ("Apple serves it as the default of \(pair.name), which this bundle re-points to \(wanted): apply this bundle first, then prune", true)
                }
            } else if let slot = slots[message], let wait = waiting(slot) {
                plan.kept.append(Kept(name: "default of \(pair.name)", why: "Apple serves \(message) there; \(wait.why)", untilApproval: wait.untilApproval))
                if protected[message] == nil { protected[message] = ("Apple serves it as the default of \(pair.name), which stays: \(wait.why)", wait.untilApproval) }
            } else {
                plan.deletions.append(Deletion(
                    kind: .defaultConfiguration, identifier: "\(pair.product)/\(pair.locale)", what: pair.name,
                    why: "Apple serves \(message) there, and this bundle configures no default for \(pair.name)", pair: pair, serves: message))
            }
        }

        var deletedMessages = Set<String>()
        for held in state.messages.sorted(by: { $0.identifier < $1.identifier }) where !used.contains(held.identifier) {
            let origin = named[held.identifier]
            guard origin != nil || allUnreferenced else { continue }
            let name = "message \(held.identifier)"
            if let why = protected[held.identifier] {
                plan.kept.append(Kept(name: name, why: why.why, untilApproval: why.untilApproval))
                continue
            }
            if let slot = slots[held.identifier], shows(held), let wait = waiting(slot) {
                plan.kept.append(Kept(name: name, why: wait.why, untilApproval: wait.untilApproval))
                continue
            }
            if let path = snapshotMessages[held.identifier] {
                plan.kept.append(Kept(name: name, why: "the realtime snapshot \(path) answers with it"))
                continue
            }
            deletedMessages.insert(held.identifier)
            plan.deletions.append(Deletion(
                kind: .message, identifier: held.identifier, what: origin?.what ?? "",
                why: origin.map { "\($0.whereNamed), which this bundle no longer uses" } ?? "Apple lists it (\(Self.state(held))); no bundle of this project names it (--all-unreferenced)"))
        }
        let waitingMessages = Set(plan.kept.filter { $0.untilApproval && $0.name.hasPrefix("message ") }.map { String($0.name.dropFirst(8)) })
        for held in state.images.sorted(by: { $0.identifier < $1.identifier }) where !used.contains(held.identifier) {
            let origin = named[held.identifier]
            guard origin != nil || allUnreferenced else { continue }
            let name = "image \(held.identifier)"
            if let path = snapshotImages[held.identifier] {
                plan.kept.append(Kept(name: name, why: "the realtime snapshot \(path) answers with a message that shows it"))
                continue
            }
            let keptUsers = (imageUsers[held.identifier] ?? []).filter { state.message($0) != nil && !deletedMessages.contains($0) }
            if let user = keptUsers.sorted().first {
                let untilApproval = waitingMessages.contains(user)
                plan.kept.append(Kept(name: name, why: "message \(user), which stays at Apple, uses it", untilApproval: untilApproval))
                continue
            }
            plan.deletions.append(Deletion(
                kind: .image, identifier: held.identifier, what: origin?.what ?? "",
                why: origin.map { "\($0.whereNamed), which this bundle no longer uses" } ?? "Apple lists it (\(Self.state(held))); no bundle of this project names it (--all-unreferenced)"))
        }
        plan.alreadyGone += named.keys.count { !used.contains($0) && state.message($0) == nil && state.image($0) == nil }
        return plan
    }

    static func state(_ held: HeldUpload) -> String { held.state.rawValue.isEmpty ? "without a state" : held.state.rawValue }
}
