@testable import Experiments
import Testing

/// The report's counts and its verdict rule on planted experiments.
struct ExperimentReportTests {
    typealias Plant = ReportFixture.Plant

    static func arm(_ message: String, weight: Int = 1) -> ExperimentArm { ExperimentArm(message: message, weight: weight) }

    static func one(_ plants: [Plant]) -> ExperimentResult? {
        ReportFixture.report([ReportFixture.plant(product: "p", plants)]).experiments.first
    }

    @Test func countsWhatWasPlanted() throws {
        let experiment = try #require(ReportFixture.golden.experiments.first { $0.product == "com.example.yearly" })
        #expect(experiment.experiment == "offer-half-price=1,winback=1")
        let offer = experiment.arms[0], winback = experiment.arms[1]
        #expect(offer.message == "offer-half-price" && winback.message == "winback")
        #expect(offer.outcomes == OutcomeCounts(stayed: 70, cancelled: 20, offerRedeemed: 30))
        #expect(offer.subscribers == 120 && offer.pending == 5 && offer.markedExposures == 3)
        #expect(winback.outcomes == OutcomeCounts(stayed: 70, cancelled: 30, switched: 10))
        #expect(winback.subscribers == 110 && winback.pending == 4 && winback.markedExposures == 0)
        #expect(offer.saveRate == 100.0 / 120 && winback.saveRate == 80.0 / 110)
        #expect(experiment.best == "offer-half-price" && offer.againstBest == nil)
        let comparison = try #require(winback.againstBest)
        #expect(abs(comparison.difference - (80.0 / 110 - 100.0 / 120)) < 1e-15)
        #expect(comparison.pValue == Statistics.fisherExactTwoSided(80, 30, 100, 20))
        #expect(abs((offer.probabilityBest ?? 0) + (winback.probabilityBest ?? 0) - 1) < 1e-9)
        #expect(experiment.verdict.kind == .inconclusive)
        #expect(experiment.verdict.reason.hasPrefix("too few subscribers: offer-half-price has 120, winback has 110 of the "))
        let unused = try #require(ReportFixture.golden.experiments.last?.arms.last)
        #expect(unused.message == "unused" && unused.subscribers == 0 && unused.saveRate == nil && unused.probabilityBest == nil)
    }

    @Test func aClearDifferenceWithEnoughSubscribersWins() throws {
        let experiment = try #require(Self.one([Plant(arm: Self.arm("a"), stayed: 1700, cancelled: 300), Plant(arm: Self.arm("b"), stayed: 1500, cancelled: 500)]))
        #expect(experiment.sampleRatio.isMismatch == false)
        #expect(experiment.verdict.kind == .winner && experiment.verdict.winner == "a")
        #expect(experiment.verdict.reason.hasPrefix("a saves most: 85.0 % against 75.0 % for b, p < 0.0001 after Holm's correction"))
    }

    @Test func aSmallDifferenceIsNoWinner() throws {
        let experiment = try #require(Self.one([Plant(arm: Self.arm("a"), stayed: 1600, cancelled: 400), Plant(arm: Self.arm("b"), stayed: 1590, cancelled: 410)]))
        #expect(experiment.verdict.kind == .inconclusive)
        #expect(experiment.verdict.reason.hasPrefix("no clear difference: a saves 80.0 % against 79.5 % for b, p = "))
    }

    @Test func aSplitThatIsOffSaysSoFirstAndNothingElse() throws {
        let experiment = try #require(Self.one([Plant(arm: Self.arm("a"), stayed: 1000, cancelled: 200), Plant(arm: Self.arm("b"), stayed: 600, cancelled: 200)]))
        #expect(experiment.sampleRatio.isMismatch)
        #expect(experiment.verdict.kind == .sampleRatioMismatch && experiment.verdict.winner == nil)
        #expect(experiment.verdict.reason == "the split is off: 1,200 a, 800 b against weights 1:1 (chi-square p < 0.0001); nothing else is concluded until the assignment is explained")
    }

    @Test func theSplitIsCheckedAgainstTheWeightsOnEveryoneExposed() throws {
        // 2:1 weights and 2:1 exposures, pending included: no mismatch.
        let experiment = try #require(Self.one([Plant(arm: Self.arm("a", weight: 2), stayed: 1000, pending: 1000), Plant(arm: Self.arm("b"), stayed: 1000)]))
        #expect(experiment.sampleRatio.chiSquare == 0 && !experiment.sampleRatio.isMismatch)
    }

    @Test func pendingSubscribersAreLeftOutOfTheRates() throws {
        let experiment = try #require(Self.one([Plant(arm: Self.arm("a"), pending: 10), Plant(arm: Self.arm("b"), stayed: 3, pending: 2)]))
        #expect(experiment.arms[0].subscribers == 0 && experiment.arms[0].pending == 10 && experiment.arms[0].saveRate == nil)
        #expect(experiment.verdict.reason == "no subscriber of a has reached the end of the 48h window yet")
    }

    @Test func oneArmHasNothingToCompare() throws {
        let experiment = try #require(Self.one([Plant(arm: Self.arm("a"), stayed: 5)]))
        #expect(experiment.verdict == Verdict(kind: .inconclusive, reason: "the experiment has 1 arm: nothing to compare"))
        #expect(experiment.arms[0].probabilityBest == 1)
    }

    @Test func nothingAtAllIsAnEmptyReport() {
        let report = ExperimentReport.make(exposures: [], events: [], settings: ReportSettings(now: 0))
        #expect(report.experiments.isEmpty)
        for format in ExperimentReportFormat.allCases { #expect(format.render(report).hasSuffix("\n")) }
    }

    @Test func theIdentifierIsReadableAndIndependentOfOrder() {
        let arms = [ExperimentArm(message: "winback", weight: 1), ExperimentArm(message: "offer-half-price", weight: 3, offerIdentifier: "x")]
        #expect(ExperimentDefinition.identifier(arms: arms) == "offer-half-price=3,winback=1")
        #expect(ExperimentDefinition.identifier(arms: arms.reversed()) == "offer-half-price=3,winback=1")
        #expect(ExperimentDefinition(product: "p", arms: arms).experiment == "offer-half-price=3,winback=1")
        #expect(ExperimentDefinition.identifier(arms: [ExperimentArm(message: "a,b=1%", weight: 2)]) == "a%2Cb%3D1%25=2")
        #expect(ExperimentDefinition.identifier(arms: []) == "")
    }

    @Test func theSameInputInAnotherOrderGivesTheSameReport() {
        let planted = ReportFixture.plant(product: "p", [Plant(arm: Self.arm("a"), stayed: 30, cancelled: 7, pending: 2), Plant(arm: Self.arm("b"), stayed: 20, cancelled: 12)])
        let forward = ExperimentReport.make(exposures: planted.exposures, events: planted.events, settings: ReportSettings(now: ReportFixture.now))
        let backward = ExperimentReport.make(exposures: planted.exposures.reversed(), events: planted.events.reversed(), settings: ReportSettings(now: ReportFixture.now))
        #expect(forward == backward)
        #expect(ExperimentJSONRenderer.render(forward) == ExperimentJSONRenderer.render(backward))
    }

    @Test func textHelpersFormatAsDocumented() {
        #expect(ReportText.count(1_234_567) == "1,234,567" && ReportText.count(12) == "12" && ReportText.count(-1000) == "-1,000")
        #expect(ReportText.duration(48 * 3_600_000) == "48h" && ReportText.duration(7 * 86_400_000) == "7d" && ReportText.duration(90_000) == "90s")
        #expect(ReportText.timestamp(0) == "1970-01-01T00:00:00Z" && ReportText.timestamp(1_750_000_000_123) == "2025-06-15T15:06:40.123Z")
        #expect(ReportText.timestamp(-1) == "1969-12-31T23:59:59.999Z")
        #expect(ReportText.pValue(0.00001) == "< 0.0001" && ReportText.pValue(0.5) == "= 0.5000")
    }
}
