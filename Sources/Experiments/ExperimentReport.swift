/// What a report is computed for: the moment it describes and the thresholds it applies.
public struct ReportSettings: Hashable, Sendable {
    /// The report's moment, milliseconds since 1970: later exposures and events are left out,
    /// and a subscriber whose window has not ended by then is pending. An input, never the clock.
    public var now: Int64
    /// How long after a subscriber's first exposure a cancellation counts (`--window`).
    public var windowMilliseconds: Int64
    /// The smallest difference in save rate worth finding, as a fraction (0.05 is 5 percentage
    /// points): the subscribers each arm needs are worked out for it.
    public var minimumDifference: Double
    /// The two-sided significance level of the comparisons and of the subscribers needed.
    public var alpha: Double
    /// The power the subscribers needed are worked out for.
    public var power: Double
    /// Below this p-value the sample-ratio check says the split is off.
    public var sampleRatioAlpha: Double

    /// 48 hours, as `--window` defaults to.
    public static let defaultWindowMilliseconds: Int64 = 48 * 3_600_000

    /// The defaults: a 48-hour window, 5 percentage points, alpha 0.05, power 0.8, and a
    /// sample-ratio threshold of 0.001 (strict, because the check runs every time a report is
    /// looked at, and a false alarm stops every conclusion).
    public init(
        now: Int64, windowMilliseconds: Int64 = defaultWindowMilliseconds, minimumDifference: Double = 0.05,
        alpha: Double = 0.05, power: Double = 0.8, sampleRatioAlpha: Double = 0.001
    ) {
        self.now = now
        self.windowMilliseconds = windowMilliseconds
        self.minimumDifference = minimumDifference
        self.alpha = alpha
        self.power = power
        self.sampleRatioAlpha = sampleRatioAlpha
    }
}

/// How many of an arm's counted subscribers ended each way.
public struct OutcomeCounts: Hashable, Sendable {
    public var stayed = 0
    public var cancelled = 0
    public var offerRedeemed = 0
    public var switched = 0

    public init(stayed: Int = 0, cancelled: Int = 0, offerRedeemed: Int = 0, switched: Int = 0) {
        self.stayed = stayed
        self.cancelled = cancelled
        self.offerRedeemed = offerRedeemed
        self.switched = switched
    }

    /// The subscribers counted: every outcome but pending.
    public var total: Int { stayed + cancelled + offerRedeemed + switched }
}

/// An arm against the experiment's best arm.
public struct ArmComparison: Hashable, Sendable {
    /// This arm's save rate minus the best arm's (zero or negative).
    public var difference: Double
    /// Newcombe's 95 % interval of `difference`.
    public var interval: ConfidenceInterval
    /// Fisher's exact test, two-sided, of saved against cancelled in the two arms.
    public var pValue: Double
    /// `pValue` after Holm's correction over the experiment's comparisons with the best.
    public var adjustedPValue: Double

    public init(difference: Double, interval: ConfidenceInterval, pValue: Double, adjustedPValue: Double) {
        self.difference = difference
        self.interval = interval
        self.pValue = pValue
        self.adjustedPValue = adjustedPValue
    }
}

/// One arm of an experiment in the report.
public struct ArmReport: Hashable, Sendable {
    public var message: String
    public var weight: Int
    public var offerIdentifier: String?
    public var switchTo: String?
    /// Subscribers whose first exposure was to this arm and whose window has ended.
    public var subscribers: Int
    public var outcomes: OutcomeCounts
    /// Subscribers whose first exposure was to this arm and whose window has not ended.
    public var pending: Int
    /// This arm's exposures (first or later) that were answered with something else.
    public var markedExposures: Int
    /// (subscribers − cancelled) / subscribers; nil without subscribers.
    public var saveRate: Double?
    /// Wilson's 95 % interval of `saveRate`.
    public var interval: ConfidenceInterval?
    /// Against the best arm; nil for the best arm itself and for an arm without subscribers.
    public var againstBest: ArmComparison?
    /// The posterior probability that this arm's save rate is the highest; nil without subscribers.
    public var probabilityBest: Double?
    /// Subscribers this arm still needs to reach the experiment's `subscribersNeededPerArm`.
    public var subscribersStillNeeded: Int?

    /// Subscribers and pending together: everyone first exposed to the arm.
    public var exposed: Int { subscribers + pending }
}

/// The check that subscribers were split as the weights say, on everyone exposed.
public struct SampleRatioCheck: Hashable, Sendable {
    /// Pearson's chi-square of the first exposures per arm against the weights; nil with
    /// nothing to test (fewer than two arms or nobody exposed).
    public var chiSquare: Double?
    public var pValue: Double?
    /// The p-value is below the report's `sampleRatioAlpha`: the split is off.
    public var isMismatch: Bool

    public init(chiSquare: Double?, pValue: Double?, isMismatch: Bool) {
        self.chiSquare = chiSquare
        self.pValue = pValue
        self.isMismatch = isMismatch
    }
}

/// What the data say about an experiment, with the reason in a sentence.
public struct Verdict: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// The default: nothing can be concluded yet.
        case inconclusive
        /// One arm saves more than every other.
        case winner
        /// The split does not match the weights: nothing else is concluded.
        case sampleRatioMismatch
    }

    public var kind: Kind
    /// The winning arm's message, for `.winner` only.
    public var winner: String?
    public var reason: String

    public init(kind: Kind, winner: String? = nil, reason: String) {
        self.kind = kind
        self.winner = winner
        self.reason = reason
    }
}

/// One product's experiment in the report.
public struct ExperimentResult: Hashable, Sendable {
    public var product: String
    public var experiment: String
    /// Sorted by message key, bytewise.
    public var arms: [ArmReport]
    /// The arm with the highest save rate (ties: more subscribers, then the message key).
    public var best: String?
    /// The save rate of all arms' subscribers together: the baseline of `subscribersNeededPerArm`.
    public var pooledSaveRate: Double?
    /// Subscribers each arm needs to find the report's minimum difference from the pooled rate.
    public var subscribersNeededPerArm: Int?
    public var sampleRatio: SampleRatioCheck
    public var verdict: Verdict
}

/// The experiment report of `msgc realtime report`: per product and experiment, per arm, the
/// subscribers, their outcomes and the statistics, with a verdict (docs/experiments.md).
///
/// A pure function of exposures and events: it reads no clock (`settings.now` is an input) and
/// its order is fixed (experiments by product then identifier, arms by message key, bytewise),
/// so the same inputs give the same report.
public struct ExperimentReport: Hashable, Sendable {
    public var settings: ReportSettings
    /// Sorted by product, then experiment identifier, bytewise.
    public var experiments: [ExperimentResult]

    public init(settings: ReportSettings, experiments: [ExperimentResult]) {
        self.settings = settings
        self.experiments = experiments
    }

    /// The report of `exposures` and `events` at `settings.now`. Every arm of a definition is
    /// listed even with nobody exposed (a definition alone makes an experiment of empty arms);
    /// an arm seen in exposures but not in its definition is listed with the weight, offer and
    /// switch-to product of its earliest exposure.
    public static func make(
        exposures: [Exposure], events: [SubscriberEvent], definitions: [ExperimentDefinition] = [], settings: ReportSettings
    ) -> ExperimentReport {
        let attributions = Attribution.attribute(
            exposures: exposures, events: events, now: settings.now, windowMilliseconds: settings.windowMilliseconds)
        var arms: [ArmKey: ArmReport] = [:]
        for definition in definitions {
            for arm in definition.arms {
                let key = ArmKey(product: definition.product, experiment: definition.experiment, message: arm.message)
                if arms[key] == nil { arms[key] = ArmReport(arm) }
            }
        }
        for exposure in exposures.filter({ $0.time <= settings.now }).sorted(by: Attribution.isEarlier) {
            let key = ArmKey(product: exposure.product, experiment: exposure.experiment, message: exposure.arm)
            if arms[key] == nil {
                arms[key] = ArmReport(ExperimentArm(
                    message: exposure.arm, weight: exposure.weight, offerIdentifier: exposure.offerIdentifier, switchTo: exposure.switchTo))
            }
            if exposure.marked { arms[key]?.markedExposures += 1 }
        }
        for attribution in attributions {
            let key = ArmKey(product: attribution.product, experiment: attribution.experiment, message: attribution.arm)
            switch attribution.outcome {
            case .stayed: arms[key]?.outcomes.stayed += 1
            case .cancelled: arms[key]?.outcomes.cancelled += 1
            case .offerRedeemed: arms[key]?.outcomes.offerRedeemed += 1
            case .switched: arms[key]?.outcomes.switched += 1
            case .pending: arms[key]?.pending += 1
            }
        }
        let grouped = Dictionary(grouping: arms, by: { ExperimentKey(product: $0.key.product, experiment: $0.key.experiment, subject: "") })
        let experiments = grouped.keys.sorted().map { key in
            let list = (grouped[key] ?? []).sorted { Array($0.key.message.utf8).lexicographicallyPrecedes($1.key.message.utf8) }.map(\.value)
            return result(product: key.product, experiment: key.experiment, arms: list, settings: settings)
        }
        return ExperimentReport(settings: settings, experiments: experiments)
    }

    /// The statistics and the verdict of one experiment whose arms are counted.
    static func result(product: String, experiment: String, arms countedArms: [ArmReport], settings: ReportSettings) -> ExperimentResult {
        var arms = countedArms.map { arm -> ArmReport in
            var arm = arm
            arm.subscribers = arm.outcomes.total
            if arm.subscribers > 0 {
                let saved = arm.subscribers - arm.outcomes.cancelled
                arm.saveRate = Double(saved) / Double(arm.subscribers)
                arm.interval = Statistics.wilsonInterval(successes: saved, trials: arm.subscribers)
            }
            return arm
        }
        let withSubscribers = arms.indices.filter { arms[$0].subscribers > 0 }
        let best = withSubscribers.max { lhs, rhs in
            let left = arms[lhs], right = arms[rhs]
            if left.saveRate != right.saveRate { return (left.saveRate ?? 0) < (right.saveRate ?? 0) }
            if left.subscribers != right.subscribers { return left.subscribers < right.subscribers }
            // The smaller key wins a full tie, so it must compare as the larger here.
            return Array(right.message.utf8).lexicographicallyPrecedes(left.message.utf8)
        }
        if withSubscribers.count > 1 {
            let probabilities = Statistics.probabilityOfBeingBest(withSubscribers.map {
                (successes: arms[$0].subscribers - arms[$0].outcomes.cancelled, failures: arms[$0].outcomes.cancelled)
            })
            for (index, probability) in zip(withSubscribers, probabilities) { arms[index].probabilityBest = probability }
        } else if let only = withSubscribers.first {
            arms[only].probabilityBest = 1
        }
        if let best {
            let others = withSubscribers.filter { $0 != best }
            let bestSaved = arms[best].subscribers - arms[best].outcomes.cancelled
            let pValues = others.map { index in
                Statistics.fisherExactTwoSided(
                    arms[index].subscribers - arms[index].outcomes.cancelled, arms[index].outcomes.cancelled,
                    bestSaved, arms[best].outcomes.cancelled) ?? 1
            }
            for (position, (index, adjusted)) in zip(others, Statistics.holmAdjusted(pValues)).enumerated() {
                let saved = arms[index].subscribers - arms[index].outcomes.cancelled
                guard let interval = Statistics.newcombeInterval(
                    successes1: saved, trials1: arms[index].subscribers, successes2: bestSaved, trials2: arms[best].subscribers)
                else { continue }
                arms[index].againstBest = ArmComparison(
                    difference: (arms[index].saveRate ?? 0) - (arms[best].saveRate ?? 0), interval: interval,
                    pValue: pValues[position], adjustedPValue: adjusted)
            }
        }
        let subscribers = arms.reduce(0) { $0 + $1.subscribers }
        let pooled = subscribers > 0 ? Double(subscribers - arms.reduce(0) { $0 + $1.outcomes.cancelled }) / Double(subscribers) : nil
        let needed = pooled.flatMap {
            Statistics.subscribersPerArm(baseline: $0, difference: settings.minimumDifference, alpha: settings.alpha, power: settings.power)
        }
        if let needed {
            for index in arms.indices { arms[index].subscribersStillNeeded = max(0, needed - arms[index].subscribers) }
        }
        let fit = Statistics.chiSquareGoodnessOfFit(observed: arms.map(\.exposed), weights: arms.map(\.weight))
        let sampleRatio = SampleRatioCheck(
            chiSquare: fit?.chiSquare, pValue: fit?.pValue, isMismatch: (fit?.pValue ?? 1) < settings.sampleRatioAlpha)
        var result = ExperimentResult(
            product: product, experiment: experiment, arms: arms, best: best.map { arms[$0].message }, pooledSaveRate: pooled,
            subscribersNeededPerArm: needed, sampleRatio: sampleRatio,
            verdict: Verdict(kind: .inconclusive, reason: ""))
        result.verdict = VerdictRule.verdict(of: result, settings: settings)
        return result
    }
}

extension ArmReport {
    init(_ arm: ExperimentArm) {
        self.init(
            message: arm.message, weight: arm.weight, offerIdentifier: arm.offerIdentifier, switchTo: arm.switchTo,
            subscribers: 0, outcomes: OutcomeCounts(), pending: 0, markedExposures: 0)
    }
}

/// An arm within a product's experiment.
struct ArmKey: Hashable {
    var product: String
    var experiment: String
    var message: String
}
