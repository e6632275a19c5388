/// The rule that turns an experiment's statistics into a verdict. The verdict is
/// "inconclusive" unless every step below passes, and it always says which step stopped it:
///
/// 1. The sample ratio is checked first: a split that is off (chi-square p below the
///    report's `sampleRatioAlpha`) says so and concludes nothing else, because a broken
///    assignment makes every comparison suspect.
/// 2. At least two arms, each with subscribers whose window has ended.
/// 3. Every arm has reached the subscribers needed per arm for the report's minimum
///    difference (stopping as soon as a p-value dips below 0.05 would find differences that
///    are not there).
/// 4. The best arm differs from every other with a p-value below `alpha` (Fisher's exact
///    test) after Holm's correction over those comparisons: then it is the winner.
enum VerdictRule {
    static func verdict(of result: ExperimentResult, settings: ReportSettings) -> Verdict {
        let arms = result.arms
        if result.sampleRatio.isMismatch {
            let counts = arms.map { "\(ReportText.count($0.exposed)) \($0.message)" }.joined(separator: ", ")
            let weights = arms.map { String($0.weight) }.joined(separator: ":")
            return Verdict(kind: .sampleRatioMismatch, reason:
                "the split is off: \(counts) against weights \(weights) (chi-square p \(ReportText.pValue(result.sampleRatio.pValue ?? 0))); "
                + "nothing else is concluded until the assignment is explained")
        }
        guard arms.count > 1 else {
            return Verdict(kind: .inconclusive, reason: "the experiment has \(arms.count) arm: nothing to compare")
        }
        let empty = arms.filter { $0.subscribers == 0 }.map(\.message)
        guard empty.isEmpty else {
            return Verdict(kind: .inconclusive, reason:
                "no subscriber of \(ReportText.list(empty)) has reached the end of the \(ReportText.duration(settings.windowMilliseconds)) window yet")
        }
        guard let needed = result.subscribersNeededPerArm else {
            return Verdict(kind: .inconclusive, reason: "the subscribers needed cannot be worked out for a minimum difference of \(ReportText.points(settings.minimumDifference))")
        }
        let short = arms.filter { $0.subscribers < needed }
        guard short.isEmpty else {
            let counts = short.map { "\($0.message) has \(ReportText.count($0.subscribers))" }.joined(separator: ", ")
            return Verdict(kind: .inconclusive, reason:
                "too few subscribers: \(counts) of the \(ReportText.count(needed)) each arm needs to find a difference of "
                + "\(ReportText.points(settings.minimumDifference))")
        }
        guard let best = result.best, let bestArm = arms.first(where: { $0.message == best }) else {
            return Verdict(kind: .inconclusive, reason: "no arm has subscribers")
        }
        let comparisons = arms.compactMap { arm in arm.againstBest.map { (arm: arm, comparison: $0) } }
        let weakest = comparisons.max { ($0.comparison.adjustedPValue, $1.arm.message) < ($1.comparison.adjustedPValue, $0.arm.message) }
        guard let weakest else { return Verdict(kind: .inconclusive, reason: "no arm to compare with \(best)") }
        let rates = "\(ReportText.percent(bestArm.saveRate ?? 0)) against \(ReportText.percent(weakest.arm.saveRate ?? 0)) for \(weakest.arm.message)"
        guard weakest.comparison.adjustedPValue < settings.alpha else {
            return Verdict(kind: .inconclusive, reason:
                "no clear difference: \(best) saves \(rates), p \(ReportText.pValue(weakest.comparison.adjustedPValue)) after Holm's correction "
                + "(needs below \(ReportText.decimal(settings.alpha, digits: 2)))")
        }
        return Verdict(kind: .winner, winner: best, reason:
            "\(best) saves most: \(rates), p \(ReportText.pValue(weakest.comparison.adjustedPValue)) after Holm's correction, "
            + "probability of being best \(ReportText.percent(bestArm.probabilityBest ?? 0))")
    }
}
