import Model

/// The report as JSON, in msgc's canonical form (sorted keys, two-space indentation, a final
/// newline), versioned: `format` is always `msgc-experiment-report` and `schemaVersion` 1; a
/// change that removes or retypes a member raises the version. docs/experiments.md lists
/// every member. Fractions and p-values carry six significant digits; a member that does not
/// apply (the interval of an arm without subscribers, the best arm's `againstBest`) is left out
/// rather than written as null.
public enum ExperimentJSONRenderer {
    public static let format = "msgc-experiment-report"
    public static let schemaVersion = 1
    static let digits = 6

    public static func render(_ report: ExperimentReport) -> String {
        var writer = CanonicalJSONWriter()
        let settings = report.settings
        // Keys in UTF-8 byte order, as the writer requires.
        writer.openObject()
        writer.member("alpha", settings.alpha, significantDigits: digits)
        writer.member("format", format)
        writer.member("minimumDifference", settings.minimumDifference, significantDigits: digits)
        writer.member("now", Int(settings.now))
        writer.member("power", settings.power, significantDigits: digits)
        writer.key("products")
        writer.openArray(isEmpty: report.experiments.isEmpty)
        for experiment in report.experiments {
            writer.element()
            write(experiment, into: &writer)
        }
        if !report.experiments.isEmpty { writer.closeArray() }
        writer.member("sampleRatioAlpha", settings.sampleRatioAlpha, significantDigits: digits)
        writer.member("schemaVersion", schemaVersion)
        writer.member("windowMilliseconds", Int(settings.windowMilliseconds))
        writer.closeObject()
        return String(decoding: writer.bytes, as: UTF8.self) + "\n"
    }

    static func write(_ experiment: ExperimentResult, into writer: inout CanonicalJSONWriter) {
        writer.openObject()
        writer.key("arms")
        writer.openArray(isEmpty: experiment.arms.isEmpty)
        for arm in experiment.arms {
            writer.element()
            write(arm, into: &writer)
        }
        if !experiment.arms.isEmpty { writer.closeArray() }
        if let best = experiment.best { writer.member("best", best) }
        writer.member("experiment", experiment.experiment)
        writer.member("pooledSaveRate", experiment.pooledSaveRate, significantDigits: digits)
        writer.member("product", experiment.product)
        writer.key("sampleRatio")
        writer.openObject()
        writer.member("chiSquare", experiment.sampleRatio.chiSquare, significantDigits: digits)
        writer.member("mismatch", experiment.sampleRatio.isMismatch)
        writer.member("pValue", experiment.sampleRatio.pValue, significantDigits: digits)
        writer.closeObject()
        writer.member("subscribersNeededPerArm", experiment.subscribersNeededPerArm)
        writer.key("verdict")
        writer.openObject()
        writer.member("kind", experiment.verdict.kind.rawValue)
        writer.member("reason", experiment.verdict.reason)
        if let winner = experiment.verdict.winner { writer.member("winner", winner) }
        writer.closeObject()
        writer.closeObject()
    }

    static func write(_ arm: ArmReport, into writer: inout CanonicalJSONWriter) {
        writer.openObject()
        if let comparison = arm.againstBest {
            writer.key("againstBest")
            writer.openObject()
            writer.member("difference", comparison.difference, significantDigits: digits)
            write(comparison.interval, into: &writer)
            writer.member("pValue", comparison.pValue, significantDigits: digits)
            writer.member("pValueHolm", comparison.adjustedPValue, significantDigits: digits)
            writer.closeObject()
        }
        if let interval = arm.interval { write(interval, into: &writer) }
        writer.member("markedExposures", arm.markedExposures)
        writer.member("message", arm.message)
        if let offer = arm.offerIdentifier { writer.member("offerIdentifier", offer) }
        writer.key("outcomes")
        writer.openObject()
        writer.member("cancelled", arm.outcomes.cancelled)
        writer.member("offerRedeemed", arm.outcomes.offerRedeemed)
        writer.member("stayed", arm.outcomes.stayed)
        writer.member("switched", arm.outcomes.switched)
        writer.closeObject()
        writer.member("pending", arm.pending)
        writer.member("probabilityBest", arm.probabilityBest, significantDigits: digits)
        writer.member("saveRate", arm.saveRate, significantDigits: digits)
        writer.member("subscribers", arm.subscribers)
        writer.member("subscribersStillNeeded", arm.subscribersStillNeeded)
        if let product = arm.switchTo { writer.member("switchTo", product) }
        writer.member("weight", arm.weight)
        writer.closeObject()
    }

    static func write(_ interval: ConfidenceInterval, into writer: inout CanonicalJSONWriter) {
        writer.key("interval")
        writer.openObject()
        writer.member("lower", interval.lower, significantDigits: digits)
        writer.member("upper", interval.upper, significantDigits: digits)
        writer.closeObject()
    }
}
