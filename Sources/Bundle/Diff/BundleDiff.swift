import Foundation
import Model

/// What applying a new bundle changes compared with an earlier one (`msgc diff`), so that a
/// reviewer knows what will be uploaded, what Apple will have to review again, and where each
/// product's default message will point.
///
/// - Messages are matched by product, locale and key; images by their content-tree path and
///   size; default configurations by product and locale.
/// - A message or image whose identifier differs is **changed**: identifiers derive from the
///   content, so new content means a new upload, which Apple reviews before it can be shown
///   (production; sandbox approves by itself). One whose identifier the old bundle already held
///   somewhere (an image moved to another path) needs no review.
/// - A default configuration pointing at another message identifier is **re-pointed**, whether
///   it now names another key or the same key with changed content. It needs no review of its
///   own, but its message must be approved first.
/// - Bundles of different apps or environments are refused: their identifiers can never match.
public struct BundleDiff: Sendable {
    public enum Change: String, Sendable, CaseIterable {
        case new
        case gone
        case changed
        case repointed = "re-pointed"
        /// In the old bundle, and in the new one's `notShipped`: the sources still have it, but
        /// the locale waits for its translation (or a rule's fix), so Apple keeps what it has.
        case withheld
        case unchanged
    }

    /// One bundle, as the diff names it.
    public struct Side: Sendable {
        public var path: String
        public var bundleId: String
        public var environment: String
        public var release: String?
        public var digest: String
    }

    public struct MessageChange: Sendable {
        public var product: String
        public var locale: String
        public var key: String
        public var change: Change
        public var oldIdentifier: String?
        public var newIdentifier: String?
        /// For a changed message: which parts differ (`header`, `body`, `image`, `bullet 2 text`, …).
        public var changedFields: [String]
        /// Whether the new upload is content Apple has not seen in the old bundle.
        public var needsReview: Bool
        /// For a withheld message: why the new bundle does not ship it (its `notShipped` reason).
        public var withheldReason: String?
    }

    public struct ImageChange: Sendable {
        /// The image's path in the content tree.
        public var source: String
        public var imageSize: String
        public var change: Change
        public var oldIdentifier: String?
        public var newIdentifier: String?
        public var needsReview: Bool
    }

    public struct DefaultChange: Sendable {
        public var product: String
        public var locale: String
        public var change: Change
        public var oldKey: String?
        public var newKey: String?
        public var oldMessage: String?
        public var newMessage: String?
        /// The new bundle defers this configuration until Apple approves what it points at.
        public var isDeferred: Bool
        /// For a withheld default: why the new bundle does not ship its message (`notShipped`).
        public var withheldReason: String?
    }

    /// A realtime fact that differs between the bundles (what `realtime.json` holds): a message's
    /// `messageType`, `switchTo`, `billingPlanType` or `offer`, for a message both bundles ship
    /// (matched by product, locale and key, whatever its identifier), or a product's `group`,
    /// `choice` or `realtime` entries (`field` "product" when only one bundle lists it). These
    /// change no upload, but change what a snapshot of the new bundle answers and signs.
    public struct RealtimeChange: Sendable, Equatable {
        public var product: String
        /// A message's place; nil for a fact of the product.
        public var locale: String?
        public var key: String?
        public var field: String
        /// The values as written (`realtime` entries as `KEY:WEIGHT, …`); nil when absent.
        public var old: String?
        public var new: String?
    }

    public var old: Side
    public var new: Side
    /// Every message, image and default configuration of either bundle, unchanged ones included,
    /// sorted by product, locale and key (images by path and size).
    public var messages: [MessageChange]
    public var images: [ImageChange]
    public var defaults: [DefaultChange]
    /// What `msgc prune NEW --previous OLD` would delete once the new bundle is applied, if Apple
    /// still holds it (`BundleDiff+Prune.swift`).
    public var prunable: [Prunable] = []
    /// What that prune keeps although the new bundle does not use it, and why.
    public var pruneKept: [PrunePlan.Kept] = []
    /// Realtime facts that differ, products first (by id), then messages by product, locale and key.
    public var realtime: [RealtimeChange] = []

    /// Whether the bundles differ at all, realtime facts included.
    public var hasChanges: Bool { hasUploadChanges || !realtime.isEmpty }

    /// Whether the uploads or default configurations differ.
    public var hasUploadChanges: Bool {
        messages.contains { $0.change != .unchanged } || images.contains { $0.change != .unchanged }
            || defaults.contains { $0.change != .unchanged }
    }

    /// The identifiers Apple must review before they can be shown, sorted.
    public var identifiersToReview: [String] {
        let ids = messages.filter(\.needsReview).compactMap(\.newIdentifier) + images.filter(\.needsReview).compactMap(\.newIdentifier)
        return Array(Set(ids)).sorted()
    }

    // MARK: - Reading and comparing

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads both bundles, checks each against its own digest, and compares them.
    public static func compare(old oldURL: URL, oldPath: String, new newURL: URL, newPath: String) throws(Failure) -> BundleDiff {
        let old = try load(oldURL, path: oldPath)
        let new = try load(newURL, path: newPath)
        guard old.manifest.bundleId == new.manifest.bundleId else {
            throw Failure("the bundles are for different apps ('\(old.manifest.bundleId)' and '\(new.manifest.bundleId)'); compare bundles of one app")
        }
        guard old.manifest.environment == new.manifest.environment else {
            throw Failure("the bundles are for different environments (\(old.manifest.environment) and \(new.manifest.environment)); identifiers include the environment, so compare bundles of one environment")
        }
        return compare(old: old, oldPath: oldPath, new: new, newPath: newPath)
    }

    /// Reads a bundle and checks that its files are the ones its manifest describes.
    static func load(_ url: URL, path: String) throws(Failure) -> BundleContents {
        do {
            return try BundleReader.readVerified(url, displayPath: path)
        } catch {
            throw Failure(error.description)
        }
    }

    static func compare(old: BundleContents, oldPath: String, new: BundleContents, newPath: String) -> BundleDiff {
        let oldIdentifiers = Set(old.manifest.entries.compactMap(\.identifier))
        /// New content Apple has not seen in the old bundle under any name.
        func needsReview(_ change: Change, _ identifier: String?) -> Bool {
            (change == .new || change == .changed) && !oldIdentifiers.contains(identifier ?? "")
        }

        // What the new bundle's sources have but it does not ship is withheld, never gone.
        var notShipped: [[String]: Manifest.NotShipped.Reason] = [:]
        for entry in new.manifest.notShipped { notShipped[[entry.product, entry.locale, entry.key]] = entry.reason }
        let messages = pairs(old, new, .uploadMessage) { [$0.product ?? "", $0.locale ?? "", $0.key ?? ""] }.map { key, before, after in
            var change = classify(before?.identifier, after?.identifier, different: .changed)
            let withheld = change == .gone ? notShipped[key] : nil
            if withheld != nil { change = .withheld }
            var fields: [String] = []
            if change == .changed, let before, let after, let oldBody = old.messageBodies[before.file], let newBody = new.messageBodies[after.file] {
                fields = changedFields(oldBody, newBody)
            }
            return MessageChange(
                product: key[0], locale: key[1], key: key[2], change: change, oldIdentifier: before?.identifier,
                newIdentifier: after?.identifier, changedFields: fields, needsReview: needsReview(change, after?.identifier),
                withheldReason: withheld?.rawValue)
        }
        let images = pairs(old, new, .uploadImage) { [$0.source, $0.imageSize?.rawValue ?? ""] }.map { key, before, after in
            let change = classify(before?.identifier, after?.identifier, different: .changed)
            return ImageChange(
                source: key[0], imageSize: key[1], change: change, oldIdentifier: before?.identifier, newIdentifier: after?.identifier,
                needsReview: needsReview(change, after?.identifier))
        }
        let deferredFiles = Set((new.manifest.deferred ?? []).map(\.file))
        let defaults = pairs(old, new, .configureDefault) { [$0.product ?? "", $0.locale ?? ""] }.map { key, before, after in
            let oldMessage = before.map { old.defaultTargets[$0.file] ?? "" }
            let newMessage = after.map { new.defaultTargets[$0.file] ?? "" }
            var change = classify(oldMessage, newMessage, different: .repointed)
            let withheld = change == .gone ? before?.key.flatMap { notShipped[[key[0], key[1], $0]] } : nil
            if withheld != nil { change = .withheld }
            return DefaultChange(
                product: key[0], locale: key[1], change: change, oldKey: before?.key,
                newKey: after?.key, oldMessage: oldMessage, newMessage: newMessage, isDeferred: after.map { deferredFiles.contains($0.file) } ?? false,
                withheldReason: withheld?.rawValue)
        }

        func side(_ bundle: BundleContents, _ path: String) -> Side {
            Side(path: path, bundleId: bundle.manifest.bundleId, environment: bundle.manifest.environment.rawValue,
                 release: bundle.manifest.release, digest: bundle.manifest.digest)
        }
        var diff = BundleDiff(old: side(old, oldPath), new: side(new, newPath), messages: messages, images: images, defaults: defaults)
        let plan = prunePlan(old: old, oldPath: oldPath, new: new)
        diff.prunable = prunable(plan)
        diff.pruneKept = plan.kept
        diff.realtime = realtimeChanges(old: old.manifest, new: new.manifest)
        return diff
    }

    /// The realtime facts that differ. A manifest written before msgc recorded them (no
    /// `products`, an upload without `messageType`) has nothing to compare there.
    static func realtimeChanges(old: Manifest, new: Manifest) -> [RealtimeChange] {
        var changes: [RealtimeChange] = []
        if let before = old.products, let after = new.products {
            func arms(_ product: Manifest.Product) -> String? {
                product.realtime.isEmpty ? nil : product.realtime.map { "\($0.message):\($0.weight)" }.joined(separator: ", ")
            }
            let oldProducts = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let newProducts = Dictionary(after.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for id in Set(oldProducts.keys).union(newProducts.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                guard let was = oldProducts[id], let now = newProducts[id] else {
                    changes.append(RealtimeChange(product: id, field: "product", old: oldProducts[id]?.id, new: newProducts[id]?.id))
                    continue
                }
                for (field, value, other) in [
                    ("group", was.group, now.group), ("choice", was.choice?.rawValue, now.choice?.rawValue), ("realtime", arms(was), arms(now)),
                ] where value != other {
                    changes.append(RealtimeChange(product: id, field: field, old: value, new: other))
                }
            }
        }
        for (key, before, after) in pairs(
            BundleContents(manifest: old, files: [], messageBodies: [:], defaultTargets: [:]),
            BundleContents(manifest: new, files: [], messageBodies: [:], defaultTargets: [:]), .uploadMessage,
            key: { [$0.product ?? "", $0.locale ?? "", $0.key ?? ""] })
        {
            guard let before, let after, before.messageType != nil, after.messageType != nil else { continue }
            for (field, value, other) in [
                ("messageType", before.messageType?.rawValue, after.messageType?.rawValue), ("switchTo", before.switchTo, after.switchTo),
                ("billingPlanType", before.billingPlanType, after.billingPlanType), ("offer", before.offer, after.offer),
            ] where value != other {
                changes.append(RealtimeChange(product: key[0], locale: key[1], key: key[2], field: field, old: value, new: other))
            }
        }
        return changes
    }

    /// The entries of one operation in both bundles, matched by `key` and sorted by it.
    static func pairs(
        _ old: BundleContents, _ new: BundleContents, _ operation: Manifest.Entry.Operation, key: (Manifest.Entry) -> [String]
    ) -> [(key: [String], old: Manifest.Entry?, new: Manifest.Entry?)] {
        func index(_ bundle: BundleContents) -> [[String]: Manifest.Entry] {
            var result: [[String]: Manifest.Entry] = [:]
            for entry in bundle.manifest.entries where entry.operation == operation { result[key(entry)] = entry }
            return result
        }
        let before = index(old)
        let after = index(new)
        return Set(before.keys).union(after.keys).sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, before[$0], after[$0]) }
    }

    /// New, gone, unchanged, or `different` when both have it with other values.
    static func classify(_ old: String?, _ new: String?, different: Change) -> Change {
        old == nil ? .new : new == nil ? .gone : old == new ? .unchanged : different
    }

    /// The parts of a message that differ, in the order the sheet shows them.
    static func changedFields(_ old: UploadedMessageBody, _ new: UploadedMessageBody) -> [String] {
        var fields: [String] = []
        if old.header != new.header { fields.append("header") }
        if old.body != new.body { fields.append("body") }
        if old.headerPosition != new.headerPosition { fields.append("header position") }
        if old.image?.identifier != new.image?.identifier { fields.append("image") }
        if old.image?.altText != new.image?.altText { fields.append("image alt text") }
        if old.bullets.count != new.bullets.count { fields.append("bullet count") }
        for (index, (before, after)) in zip(old.bullets, new.bullets).enumerated() {
            if before.text != after.text { fields.append("bullet \(index + 1) text") }
            if before.imageIdentifier != after.imageIdentifier { fields.append("bullet \(index + 1) image") }
            if before.altText != after.altText { fields.append("bullet \(index + 1) alt text") }
        }
        return fields
    }
}
