/// The cells and lines the text renderers share (table, Markdown, HTML), as plain unescaped
/// text: each renderer escapes them for its own format. Only wording and number formatting
/// live here; what is computed is the report's.
enum ReportRows {
    /// Whether a column holds numbers (aligned right) or text.
    enum Alignment { case left, right }

    static let columns: [(title: String, alignment: Alignment)] = [
        ("arm", .left), ("weight", .right), ("subscribers", .right), ("pending", .right), ("stayed", .right),
        ("cancelled", .right), ("offer", .right), ("switched", .right), ("marked", .right), ("save rate", .right),
        ("95 % interval", .right), ("vs best", .right), ("95 % interval", .right), ("p (Holm)", .right), ("P(best)", .right),
    ]

    static func cells(_ arm: ArmReport, best: String?) -> [String] {
        let isBest = arm.message == best
        var cells = [
            arm.message, String(arm.weight), ReportText.count(arm.subscribers), ReportText.count(arm.pending),
            ReportText.count(arm.outcomes.stayed), ReportText.count(arm.outcomes.cancelled),
            ReportText.count(arm.outcomes.offerRedeemed), ReportText.count(arm.outcomes.switched), ReportText.count(arm.markedExposures),
            arm.saveRate.map(ReportText.percent) ?? "–",
            arm.interval.map(intervalText) ?? "–",
        ]
        if isBest {
            cells += ["best", "", "", ]
        } else if let comparison = arm.againstBest {
            cells += [
                ReportText.signedPoints(comparison.difference), differenceText(comparison.interval),
                ReportText.pValueCell(comparison.adjustedPValue),
            ]
        } else {
            cells += ["–", "–", "–"]
        }
        cells.append(arm.probabilityBest.map(ReportText.percent) ?? "–")
        return cells
    }

    /// `76.3–83.2 %`.
    static func intervalText(_ interval: ConfidenceInterval) -> String {
        ReportText.decimal(interval.lower * 100, digits: 1) + "–" + ReportText.percent(interval.upper)
    }

    /// `-9.9 to +0.4 pts`.
    static func differenceText(_ interval: ConfidenceInterval) -> String {
        let lower = ReportText.signedPoints(interval.lower)
        return String(lower.dropLast(4)) + " to " + ReportText.signedPoints(interval.upper)
    }

    /// The experiment's heading: `com.example.yearly: offer-half-price=1,winback=1`.
    static func title(_ experiment: ExperimentResult) -> String { "\(experiment.product): \(experiment.experiment)" }

    /// `inconclusive: too few subscribers: …`.
    static func verdictLine(_ experiment: ExperimentResult) -> String {
        let kind = switch experiment.verdict.kind {
        case .inconclusive: "inconclusive"
        case .winner: "winner " + (experiment.verdict.winner ?? "")
        case .sampleRatioMismatch: "sample ratio mismatch"
        }
        return "\(kind): \(experiment.verdict.reason)"
    }

    /// The sample-ratio check, the subscribers needed and the settings, a line each.
    static func detailLines(_ experiment: ExperimentResult, settings: ReportSettings) -> [String] {
        let check = experiment.sampleRatio
        let ratio: String
        if let chiSquare = check.chiSquare, let pValue = check.pValue {
            ratio = "sample ratio: \(check.isMismatch ? "off" : "as weighted") (chi-square \(ReportText.decimal(chiSquare, digits: 2)), "
                + "p \(ReportText.pValue(pValue)); below \(ReportText.decimal(settings.sampleRatioAlpha, digits: 3)) would be off)"
        } else {
            ratio = "sample ratio: not tested (fewer than two arms, or nobody exposed)"
        }
        let needed: String
        if let perArm = experiment.subscribersNeededPerArm, let pooled = experiment.pooledSaveRate {
            needed = "subscribers needed per arm to find \(ReportText.points(settings.minimumDifference)): \(ReportText.count(perArm)) "
                + "(pooled save rate \(ReportText.percent(pooled)), two-sided alpha \(ReportText.decimal(settings.alpha, digits: 2)), "
                + "power \(ReportText.decimal(settings.power, digits: 2)))"
        } else {
            needed = "subscribers needed per arm: not known until a subscriber's window has ended"
        }
        let window = "window \(ReportText.duration(settings.windowMilliseconds)) after the first exposure; "
            + "report at \(ReportText.timestamp(settings.now))"
        return [ratio, needed, window]
    }
}
