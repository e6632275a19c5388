import Bundle
import Model

/// Makes the realtime snapshot of a bundle from what Apple holds (the state file), keeping
/// the last approved version of a message while its edit waits for review.
///
/// A message is answerable when its type's realtime fields are given (`switchTo`, `offer`)
/// and Apple holds it and every image it shows: APPROVED in production; in sandbox, which
/// approves by itself, anything but REJECTED. One that is not, but whose version in the
/// previous snapshot Apple still holds approved (images included), is answered with that
/// version meanwhile. Every message left out is listed with its reason, and so is every message
/// the sources configure that the bundle does not ship (the manifest's `notShipped`: a locale
/// waiting for its translation, …), answered meanwhile with the previous snapshot's version
/// where Apple still holds it approved, unless the writer withheld the old text on purpose
/// (`withheld-stale`).
public enum SnapshotBuilder {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public static func build(
        bundle: BundleContents, state: StateFile, previous: RealtimeSnapshot?, generatorVersion: String
    ) throws(Failure) -> RealtimeSnapshot {
        let manifest = bundle.manifest
        guard let productConfigs = manifest.products else {
            throw Failure("the bundle's manifest does not say the products' groups and the messages' types (it was written by an earlier msgc); build it again with this msgc")
        }
        if let previous {
            guard previous.bundleId == manifest.bundleId, previous.environment == manifest.environment else {
                throw Failure("the previous snapshot is for \(previous.bundleId) in \(previous.environment.rawValue), the bundle for \(manifest.bundleId) in \(manifest.environment.rawValue); give --previous the snapshot of the same app and environment")
            }
        }
        let judge = Judge(state: state, environment: manifest.environment)

        // The key of each product's default message in each locale.
        var uploadKeys: [String: String] = [:]
        for entry in manifest.entries where entry.operation == .uploadMessage {
            if let identifier = entry.identifier, let key = entry.key { uploadKeys[identifier] = key }
        }
        var defaultKeys: [String: String] = [:]
        for entry in manifest.entries where entry.operation == .configureDefault {
            guard let product = entry.product, let locale = entry.locale, let target = bundle.defaultTargets[entry.file] else { continue }
            defaultKeys["\(product)\n\(locale)"] = uploadKeys[target]
        }

        var answers: [String: [String: [RealtimeSnapshot.Answer]]] = [:]
        var omitted: [RealtimeSnapshot.Omission] = []
        for entry in manifest.entries where entry.operation == .uploadMessage {
            guard let identifier = entry.identifier, let product = entry.product, let locale = entry.locale, let key = entry.key else { continue }
            guard let type = entry.messageType else {
                throw Failure("the bundle's manifest does not say the type of message '\(key)' (\(identifier)); build it again with this msgc")
            }
            func omit(_ reason: RealtimeSnapshot.Omission.Reason, _ detail: String) {
                omitted.append(.init(product: product, locale: locale, key: key, identifier: identifier, reason: reason, detail: detail))
            }
            var answer = RealtimeSnapshot.Answer(
                key: key, type: type, identifier: identifier, images: entry.requires, productId: entry.switchTo,
                billingPlanType: entry.billingPlanType, offerIdentifier: entry.offer,
                version: .current)
            switch type {
            case .switchPlan where entry.switchTo == nil:
                omit(.noSwitchProduct, "switch-plan message without `switchTo`: an answer must name the product it offers")
                continue
            case .promotionalOffer where entry.offer == nil:
                omit(.noOfferId, "promotional-offer message without `offer`: an answer's signature must name the offer's identifier in App Store Connect")
                continue
            default:
                if type != .switchPlan {
                    answer.productId = nil
                    answer.billingPlanType = nil
                }
                if type != .promotionalOffer { answer.offerIdentifier = nil }
            }
            guard let problem = judge.problem(message: identifier, images: entry.requires) else {
                answers[product, default: [:]][locale, default: []].append(answer)
                continue
            }
            if var kept = previous?.product(product)?.locale(locale)?.message(key: key), kept.identifier != identifier,
               kept.type == type, judge.problem(message: kept.identifier, images: kept.images) == nil {
                kept.version = .previous
                answers[product, default: [:]][locale, default: []].append(kept)
                omit(problem.reason, "\(problem.detail); the previous version \(kept.identifier), which Apple holds approved, answers meanwhile")
            } else {
                omit(problem.reason, problem.detail)
            }
        }

        for item in manifest.notShipped {
            let reason = RealtimeSnapshot.Omission.Reason(rawValue: item.reason.rawValue).flatMap { Self.notShippedReasons.contains($0) ? $0 : nil } ?? .notShipped
            let what = "the bundle does not ship \(item.product)/\(item.key) in \(item.locale) (\(item.reason.rawValue)), which its sources configure"
            if reason != .withheldStale, var kept = previous?.product(item.product)?.locale(item.locale)?.message(key: item.key),
               judge.problem(message: kept.identifier, images: kept.images) == nil,
               answers[item.product]?[item.locale]?.contains(where: { $0.key == item.key }) != true {
                kept.version = .previous
                answers[item.product, default: [:]][item.locale, default: []].append(kept)
                omitted.append(.init(
                    product: item.product, locale: item.locale, key: item.key, identifier: kept.identifier, reason: reason,
                    detail: "\(what); the previous version \(kept.identifier), which Apple holds approved, answers meanwhile"))
            } else {
                omitted.append(.init(
                    product: item.product, locale: item.locale, key: item.key, identifier: "", reason: reason,
                    detail: reason == .withheldStale ? "\(what): its sources withhold the previous translation, so nothing answers there until the new one is built" : what))
            }
        }

        var products: [RealtimeSnapshot.Product] = []
        for config in productConfigs {
            var locales: [RealtimeSnapshot.Locale] = []
            for (locale, list) in answers[config.id] ?? [:] {
                let sorted = list.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                let defaultKey = defaultKeys["\(config.id)\n\(locale)"].flatMap { key in sorted.contains { $0.key == key && $0.type == .text } ? key : nil }
                locales.append(.init(locale: locale, defaultKey: defaultKey, messages: sorted))
            }
            locales.sort { $0.locale.utf8.lexicographicallyPrecedes($1.locale.utf8) }
            products.append(.init(
                id: config.id, group: config.group, choice: config.choice,
                realtime: config.realtime.map { RealtimeSnapshot.Arm(message: $0.message, weight: $0.weight) }, locales: locales))
        }
        products.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        omitted.sort { lhs, rhs in
            [lhs.product, lhs.locale, lhs.key, lhs.identifier].joined(separator: "\n").utf8
                .lexicographicallyPrecedes([rhs.product, rhs.locale, rhs.key, rhs.identifier].joined(separator: "\n").utf8)
        }
        return RealtimeSnapshot(
            generatorVersion: generatorVersion, bundleId: manifest.bundleId, environment: manifest.environment,
            bundleDigest: manifest.digest, release: manifest.release, products: products, omitted: omitted)
    }

    static let notShippedReasons: Set<RealtimeSnapshot.Omission.Reason> = [.untranslated, .withheldStale, .belowMinimumState, .failingRules, .unreadableFile]

    /// The (product, locale) pairs and messages `previous` answers with that `snapshot` does not:
    /// what a new snapshot takes away from subscribers, sorted.
    public static func lost(from previous: RealtimeSnapshot, in snapshot: RealtimeSnapshot) -> (pairs: [String], messages: [String]) {
        var pairs: [String] = []
        var messages: [String] = []
        for product in previous.products {
            for locale in product.locales where !locale.messages.isEmpty {
                let now = snapshot.product(product.id)?.locale(locale.locale)
                if now?.messages.isEmpty ?? true { pairs.append("\(product.id) in \(locale.locale)") }
                for answer in locale.messages where now?.message(key: answer.key) == nil {
                    messages.append("\(product.id)/\(answer.key) in \(locale.locale)")
                }
            }
        }
        return (pairs.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, messages.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Whether Apple shows an upload, as the environment decides.
    struct Judge {
        let state: StateFile
        let environment: Environment

        /// Why the message `identifier` with `images` cannot be answered with, or nil when it can.
        func problem(message identifier: String, images: [String]) -> (reason: RealtimeSnapshot.Omission.Reason, detail: String)? {
            var found: [(reason: RealtimeSnapshot.Omission.Reason, detail: String)] = []
            func judge(_ what: String, _ held: HeldUpload?) {
                guard let held else {
                    found.append((.notUploaded, "\(what) is not uploaded to Apple"))
                    return
                }
                switch (held.state, environment) {
                case (.approved, _): return
                case (.rejected, _): found.append((.rejected, "\(what) is REJECTED at Apple"))
                case (_, .sandbox): return
                case (.pending, .production): found.append((.pending, "\(what) is PENDING at Apple (in review)"))
                case (.other(let raw), .production): found.append((.notApproved, "\(what) is '\(raw.isEmpty ? "without a state" : raw)' at Apple, not APPROVED"))
                }
            }
            judge("message \(identifier)", state.message(identifier))
            for image in images { judge("image \(image)", state.image(image)) }
            guard !found.isEmpty else { return nil }
            let order: [RealtimeSnapshot.Omission.Reason] = [.rejected, .notUploaded, .notApproved, .pending]
            let reason = order.first { wanted in found.contains { $0.reason == wanted } } ?? found[0].reason
            return (reason, found.map(\.detail).joined(separator: "; "))
        }
    }
}
