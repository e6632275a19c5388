@testable import Experiments
import Testing

/// Values written down from scipy 1.17.1 and statsmodels 0.15.0 (OracleTests asks them afresh
/// when the venv is there), and the properties every input must keep: no crash, no NaN.
struct StatisticsTests {
    static func close(_ actual: Double?, _ expected: Double, _ tolerance: Double = 1e-12) -> Bool {
        guard let actual else { return false }
        return abs(actual - expected) <= tolerance * max(1, abs(expected))
    }

    @Test func wilsonAsStatsmodelsGivesIt() throws {
        let interval = try #require(Statistics.wilsonInterval(successes: 81, trials: 100))
        #expect(Self.close(interval.lower, 0.7222115462093562) && Self.close(interval.upper, 0.8748524849023126))
        let none = try #require(Statistics.wilsonInterval(successes: 0, trials: 7))
        #expect(none.lower == 0 && Self.close(none.upper, 0.3543304350666875))
        let all = try #require(Statistics.wilsonInterval(successes: 5, trials: 5))
        #expect(Self.close(all.lower, 0.5655175352168252) && all.upper == 1)
        #expect(Statistics.wilsonInterval(successes: 0, trials: 0) == nil)
        #expect(Statistics.wilsonInterval(successes: 3, trials: 2) == nil)
    }

    @Test func newcombeAsStatsmodelsGivesIt() throws {
        let interval = try #require(Statistics.newcombeInterval(successes1: 40, trials1: 50, successes2: 30, trials2: 50))
        #expect(Self.close(interval.lower, 0.02013390086920816) && Self.close(interval.upper, 0.36359235205533585))
        #expect(Statistics.newcombeInterval(successes1: 1, trials1: 0, successes2: 1, trials2: 2) == nil)
    }

    @Test func fisherAsScipyGivesIt() {
        #expect(Self.close(Statistics.fisherExactTwoSided(3, 1, 1, 3), 0.48571428571428565, 1e-10))
        #expect(Self.close(Statistics.fisherExactTwoSided(10, 2, 3, 15), 0.0005367241191434357, 1e-10))
        #expect(Self.close(Statistics.fisherExactTwoSided(80_000, 20_000, 79_000, 21_000), 3.137457963462706e-08, 1e-8))
        // Mirror-image tables tie exactly: both tails count.
        #expect(Statistics.fisherExactTwoSided(50, 50, 50, 50) == 1)
        #expect(Statistics.fisherExactTwoSided(0, 0, 0, 0) == 1)
        #expect(Statistics.fisherExactTwoSided(-1, 0, 0, 0) == nil)
    }

    @Test func chiSquareAsScipyGivesIt() throws {
        let even = try #require(Statistics.chiSquareGoodnessOfFit(observed: [520, 480], weights: [1, 1]))
        #expect(Self.close(even.chiSquare, 1.6) && Self.close(even.pValue, 0.20590321073206466, 1e-10))
        let off = try #require(Statistics.chiSquareGoodnessOfFit(observed: [620, 380], weights: [1, 1]))
        #expect(Self.close(off.chiSquare, 57.6) && Self.close(off.pValue, 3.212255932012357e-14, 1e-8))
        #expect(Statistics.chiSquareGoodnessOfFit(observed: [0, 0], weights: [1, 1]) == nil)
        #expect(Statistics.chiSquareGoodnessOfFit(observed: [5], weights: [1]) == nil)
        #expect(Statistics.chiSquareGoodnessOfFit(observed: [5, 1], weights: [1, 0])?.pValue == 0)
    }

    @Test func subscribersNeededAsStatsmodelsGivesIt() {
        // statsmodels: samplesize_proportions_2indep_onetail(0.05, 0.8, 0.8) = 905.37.
        #expect(Statistics.subscribersPerArm(baseline: 0.8, difference: 0.05) == 906)
        #expect(Statistics.subscribersPerArm(baseline: 0.5, difference: 0) == nil)
        #expect(Statistics.subscribersPerArm(baseline: 1.2, difference: 0.05) == nil)
        #expect(Statistics.subscribersPerArm(baseline: 1, difference: 0.05) != nil)
    }

    @Test func holmAsStatsmodelsGivesIt() {
        #expect(Statistics.holmAdjusted([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06])
        #expect(Statistics.holmAdjusted([]) == [])
    }

    @Test func probabilityOfBeingBestSumsToOneAndFavoursTheBetterArm() {
        let two = Statistics.probabilityOfBeingBest([(successes: 8, failures: 2), (successes: 6, failures: 4)])
        #expect(abs(two.reduce(0, +) - 1) < 1e-9 && two[0] > two[1])
        let even = Statistics.probabilityOfBeingBest([(successes: 0, failures: 0), (successes: 0, failures: 0)])
        #expect(abs(even[0] - 0.5) < 1e-12)
        // A narrow arm of 100,000 beside a broad one of 10: the split at the narrow arm's
        // posterior keeps the integral right.
        let mixed = Statistics.probabilityOfBeingBest([(successes: 80_000, failures: 20_000), (successes: 8, failures: 2), (successes: 79_000, failures: 21_000)])
        #expect(abs(mixed.reduce(0, +) - 1) < 1e-8)
        #expect(Statistics.probabilityOfBeingBest([(successes: 3, failures: 1)]) == [1])
    }

    @Test func normalQuantileIsExactEnough() {
        #expect(abs(Statistics.z95 - 1.959963984540054) < 1e-14)
        #expect(abs(SpecialFunctions.normalQuantile(0.8) - 0.8416212335729143) < 1e-14)
        #expect(abs(SpecialFunctions.normalQuantile(1e-10) + 6.361340902404056) < 1e-12)
    }
}
