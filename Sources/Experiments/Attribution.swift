/// What one subscriber did after their first exposure to an experiment.
public enum Outcome: String, Hashable, Sendable, CaseIterable {
    /// No cancellation within the window (and no redeemed offer or switch).
    case stayed
    /// AUTO_RENEW_DISABLED within the window of the first exposure, not re-enabled by its end.
    case cancelled
    /// OFFER_REDEEMED naming the arm's offer.
    case offerRedeemed
    /// DID_CHANGE_RENEWAL_PREF to the arm's switch-to product.
    case switched
    /// The window has not ended at the report's `now`: not counted as anything yet.
    case pending
}

/// The outcome of one subscriber in one experiment, decided from their first exposure.
///
/// The rule (docs/experiments.md, "Definitions"), from the first exposure's time t₀ on, by each
/// notification's signedDate, events after the report's `now` left out:
///
/// 1. **pending** while `now` < t₀ + window: the subscriber is not counted in any rate yet,
///    whatever they did so far (counting early offers and switches but not yet-undecided
///    cancellations would favour arms that save at once);
/// 2. **offer redeemed** if an OFFER_REDEEMED at or after t₀ names the arm's offer;
/// 3. else **switched** if a DID_CHANGE_RENEWAL_PREF at or after t₀ names the arm's switch-to
///    product;
/// 4. else **cancelled** if an AUTO_RENEW_DISABLED falls in [t₀, t₀ + window) and the last
///    renewal-status change in that span is a disable (not re-enabled by the window's end);
/// 5. else **stayed**.
///
/// An offer redeemed or a switch counts at any time from t₀ (the issue bounds only the
/// cancellation by the window); events before t₀ are ignored (a subscriber who cancelled before
/// they saw the sheet is not the sheet's doing). Events of one signed date are ordered by
/// `SubscriberEvent.precedes`, so a disable and an enable at the same instant read as re-enabled.
public struct Attribution: Hashable, Sendable {
    public var product: String
    public var experiment: String
    public var subject: String
    /// The first exposure's arm.
    public var arm: String
    /// The first exposure's time, in milliseconds since 1970.
    public var firstExposure: Int64
    public var outcome: Outcome

    public init(product: String, experiment: String, subject: String, arm: String, firstExposure: Int64, outcome: Outcome) {
        self.product = product
        self.experiment = experiment
        self.subject = subject
        self.arm = arm
        self.firstExposure = firstExposure
        self.outcome = outcome
    }

    /// One attribution per subscriber per product and experiment, sorted by product,
    /// experiment and subject (bytewise). `now` and `windowMilliseconds` are milliseconds; a
    /// negative window counts as 0.
    public static func attribute(
        exposures: [Exposure], events: [SubscriberEvent], now: Int64, windowMilliseconds: Int64
    ) -> [Attribution] {
        let window = max(0, windowMilliseconds)
        let firsts = firstExposures(exposures, now: now)
        let eventsBySubject = Dictionary(grouping: uniqueEvents(events, now: now), by: \.subject)
        return firsts.map { first in
            let events = eventsBySubject[first.subject] ?? []
            return Attribution(
                product: first.product, experiment: first.experiment, subject: first.subject, arm: first.arm,
                firstExposure: first.time, outcome: outcome(of: first, events: events, now: now, window: window))
        }
    }

    /// Each subscriber's first exposure per product and experiment, sorted.
    static func firstExposures(_ exposures: [Exposure], now: Int64) -> [Exposure] {
        var firsts: [ExperimentKey: Exposure] = [:]
        for exposure in exposures where exposure.time <= now {
            let key = ExperimentKey(product: exposure.product, experiment: exposure.experiment, subject: exposure.subject)
            if let current = firsts[key], !isEarlier(exposure, than: current) { continue }
            firsts[key] = exposure
        }
        return firsts.values.sorted { lhs, rhs in
            ExperimentKey(product: lhs.product, experiment: lhs.experiment, subject: lhs.subject)
                < ExperimentKey(product: rhs.product, experiment: rhs.experiment, subject: rhs.subject)
        }
    }

    /// Earlier time first; at one time, the arm bytewise, then unmarked before marked, then the
    /// rest of the exposure, so the choice never depends on the input's order.
    static func isEarlier(_ lhs: Exposure, than rhs: Exposure) -> Bool {
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        if lhs.arm != rhs.arm { return Array(lhs.arm.utf8).lexicographicallyPrecedes(rhs.arm.utf8) }
        if lhs.marked != rhs.marked { return !lhs.marked }
        if lhs.weight != rhs.weight { return lhs.weight < rhs.weight }
        let left = [lhs.offerIdentifier ?? "", lhs.switchTo ?? ""], right = [rhs.offerIdentifier ?? "", rhs.switchTo ?? ""]
        return left.lexicographicallyPrecedes(right) { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
    }

    /// The events up to `now`, one per notificationUUID, in reading order.
    static func uniqueEvents(_ events: [SubscriberEvent], now: Int64) -> [SubscriberEvent] {
        var seen = Set<String>()
        var unique: [SubscriberEvent] = []
        for event in events.sorted(by: SubscriberEvent.precedes) where event.signedDate <= now {
            if seen.insert(event.notificationUUID).inserted { unique.append(event) }
        }
        return unique
    }

    static func outcome(of first: Exposure, events: [SubscriberEvent], now: Int64, window: Int64) -> Outcome {
        let (end, overflow) = first.time.addingReportingOverflow(window)
        let windowEnd = overflow ? Int64.max : end
        guard now >= windowEnd else { return .pending }
        let after = events.filter { $0.signedDate >= first.time }
        if let offer = first.offerIdentifier, after.contains(where: { $0.kind == .offerRedeemed(offerIdentifier: offer) }) {
            return .offerRedeemed
        }
        if let product = first.switchTo, after.contains(where: { $0.kind == .switched(toProduct: product) }) {
            return .switched
        }
        var isDisabled = false
        for event in after where event.signedDate < windowEnd {
            switch event.kind {
            case .autoRenewDisabled: isDisabled = true
            case .autoRenewEnabled: isDisabled = false
            case .offerRedeemed, .switched: break
            }
        }
        return isDisabled ? .cancelled : .stayed
    }
}

/// A subscriber within a product's experiment; sorted by product, experiment and subject, bytewise.
struct ExperimentKey: Hashable, Comparable {
    var product: String
    var experiment: String
    var subject: String

    static func < (lhs: ExperimentKey, rhs: ExperimentKey) -> Bool {
        [lhs.product, lhs.experiment, lhs.subject].lexicographicallyPrecedes([rhs.product, rhs.experiment, rhs.subject]) {
            Array($0.utf8).lexicographicallyPrecedes($1.utf8)
        }
    }
}
