@testable import Experiments
import Foundation
import Testing
import TestSupport

/// The test venv's python, when the environment names it.
let oraclePython = ProcessInfo.processInfo.environment["MSGC_APPLE_LIBRARY_PYTHON"]

/// Every statistic against scipy and statsmodels (pinned in scripts/test-venv.sh) on fixed
/// tables, from small counts to 100,000 a side. The suite runs where MSGC_APPLE_LIBRARY_PYTHON
/// names the test venv's python, and says it skipped otherwise; StatisticsTests holds a few of
/// the same values written down, so something is checked either way.
@Suite(.ownThreads, .enabled(if: oraclePython != nil,
    "MSGC_APPLE_LIBRARY_PYTHON is unset; scripts/test-venv.sh makes the venv with scipy and statsmodels"))
struct OracleTests {
    static let python = oraclePython

    /// The oracle scripts of the tests below, by name: each prints one `repr` of a float a line
    /// (`inf` and `nan` included).
    static let scripts: KeyValuePairs<String, String> = [
        "wilson": wilsonScript, "newcombe": newcombeScript, "fisher": fisherScript, "chiSquare": chiSquareScript,
        "subscribersNeeded": subscribersNeededScript, "holm": holmScript, "probabilityOfBeingBest": probabilityOfBeingBestScript,
    ]

    /// Every script's numbers, from one python run: importing scipy and statsmodels costs about
    /// 2 s of processor time a process, which seven processes paid seven times. Each script runs
    /// in a namespace of its own, after a `## NAME` line that heads its output. Made once, on
    /// the first test's thread (the suite runs on threads of its own, so the others may wait).
    static let oracle: Result<[String: [Double]], OracleFailure> = {
        var program = "import base64\n"
        for (name, script) in scripts {
            let source = Data(script.utf8).base64EncodedString()
            program += "print('## \(name)', flush=True)\nexec(compile(base64.b64decode('\(source)').decode(), '\(name)', 'exec'), {})\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python ?? "/usr/bin/false")
        process.arguments = ["-c", program]
        let out = Pipe()
        process.standardOutput = out
        // A traceback goes to the test run's own standard error, beside the failure it explains.
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { return .failure(OracleFailure(message: "python could not start: \(error)")) }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(OracleFailure(message: "python exited \(process.terminationStatus) (its error is above)"))
        }
        var sections: [String: [Double]] = [:]
        var current: String?
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("## ") {
                current = String(line.dropFirst(3))
                sections[String(line.dropFirst(3))] = []
            } else if let name = current {
                sections[name, default: []].append(Double(line) ?? .nan)
            }
        }
        return .success(sections)
    }()

    struct OracleFailure: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// The numbers the script `name` printed.
    static func expected(_ name: String) throws -> [Double] {
        try #require(try oracle.get()[name], "the oracle printed nothing for \(name)")
    }

    /// Python's list of the given element texts.
    static func list(_ elements: [String]) -> String { "[" + elements.joined(separator: ", ") + "]" }

    /// |actual − expected| within `absolute`, or within `relative` of expected.
    static func close(_ actual: Double, _ expected: Double, absolute: Double = 1e-12, relative: Double = 1e-9) -> Bool {
        abs(actual - expected) <= max(absolute, relative * abs(expected))
    }

    static let wilsonCases = [(0, 1), (1, 1), (0, 7), (5, 5), (81, 100), (3, 1000), (99_000, 100_000), (50_123, 100_000), (1, 100_000)]
    static var wilsonScript: String {
        """
        from statsmodels.stats.proportion import proportion_confint
        for s, n in \(list(wilsonCases.map { "(\($0.0), \($0.1))" })):
            lo, hi = proportion_confint(s, n, alpha=0.05, method="wilson")
            print(repr(float(lo))); print(repr(float(hi)))
        """
    }

    @Test func wilsonMatchesStatsmodels() throws {
        let cases = Self.wilsonCases
        let expected = try Self.expected("wilson")
        #expect(expected.count == cases.count * 2)
        for (index, (successes, trials)) in cases.enumerated() where expected.count == cases.count * 2 {
            let interval = try #require(Statistics.wilsonInterval(successes: successes, trials: trials))
            #expect(Self.close(interval.lower, expected[2 * index]), "\(successes)/\(trials) lower \(interval.lower) against \(expected[2 * index])")
            #expect(Self.close(interval.upper, expected[2 * index + 1]), "\(successes)/\(trials) upper \(interval.upper) against \(expected[2 * index + 1])")
        }
    }

    static let newcombeCases = [(40, 50, 30, 50), (0, 10, 0, 10), (10, 10, 0, 10), (5, 20, 15, 20), (1, 3, 2, 2), (81_000, 100_000, 80_500, 100_000), (7, 9, 180, 300)]
    static var newcombeScript: String {
        """
        from statsmodels.stats.proportion import confint_proportions_2indep
        for s1, n1, s2, n2 in \(list(newcombeCases.map { "(\($0.0), \($0.1), \($0.2), \($0.3))" })):
            lo, hi = confint_proportions_2indep(s1, n1, s2, n2, method="newcomb", compare="diff", alpha=0.05)
            print(repr(float(lo))); print(repr(float(hi)))
        """
    }

    @Test func newcombeMatchesStatsmodels() throws {
        let cases = Self.newcombeCases
        let expected = try Self.expected("newcombe")
        #expect(expected.count == cases.count * 2)
        for (index, item) in cases.enumerated() where expected.count == cases.count * 2 {
            let interval = try #require(Statistics.newcombeInterval(successes1: item.0, trials1: item.1, successes2: item.2, trials2: item.3))
            #expect(Self.close(interval.lower, expected[2 * index]), "\(item) lower \(interval.lower) against \(expected[2 * index])")
            #expect(Self.close(interval.upper, expected[2 * index + 1]), "\(item) upper \(interval.upper) against \(expected[2 * index + 1])")
        }
    }

    /// Small tables, mirror-image tables whose probabilities tie exactly, empty rows, and
    /// 100,000 subscribers an arm.
    static let fisherTables = [
        (3, 1, 1, 3), (10, 2, 3, 15), (0, 0, 5, 5), (0, 5, 5, 0), (1, 9, 11, 3), (50, 50, 50, 50), (7, 13, 13, 7),
        (2, 3, 3, 2), (1, 0, 0, 1), (0, 0, 0, 0), (12, 5, 9, 14), (4, 6, 6, 4), (30, 10, 10, 30), (1, 99, 5, 95),
        (80_000, 20_000, 79_000, 21_000), (99_990, 10, 99_975, 25), (100_000, 0, 99_999, 1), (81_000, 19_000, 80_500, 19_500),
        (50_000, 50_000, 50_000, 50_000),
    ]
    static var fisherScript: String {
        """
        from scipy.stats import fisher_exact
        for a, b, c, d in \(list(fisherTables.map { "(\($0.0), \($0.1), \($0.2), \($0.3))" })):
            print(repr(float(fisher_exact([[a, b], [c, d]], alternative="two-sided").pvalue)))
        """
    }

    @Test func fisherMatchesScipy() throws {
        let cases = Self.fisherTables
        let expected = try Self.expected("fisher")
        #expect(expected.count == cases.count)
        for (index, table) in cases.enumerated() where expected.count == cases.count {
            let p = try #require(Statistics.fisherExactTwoSided(table.0, table.1, table.2, table.3))
            #expect(Self.close(p, expected[index], absolute: 1e-14, relative: 1e-8), "\(table): \(p) against scipy's \(expected[index])")
        }
    }

    static let chiSquareCases: [([Int], [Int])] = [
        ([520, 480], [1, 1]), ([620, 380], [1, 1]), ([100, 210, 290], [1, 2, 3]), ([3, 0], [1, 1]),
        ([50_000, 50_500], [1, 1]), ([1, 1, 1, 5], [1, 1, 1, 1]), ([33_000, 67_500], [1, 2]), ([7, 3], [3, 7]),
    ]
    static var chiSquareScript: String {
        """
        from scipy.stats import chisquare
        for obs, w in \(list(chiSquareCases.map { "(\($0.0), \($0.1))" })):
            total, wsum = sum(obs), sum(w)
            result = chisquare(obs, [total * x / wsum for x in w])
            print(repr(float(result.statistic))); print(repr(float(result.pvalue)))
        """
    }

    @Test func chiSquareMatchesScipy() throws {
        let cases = Self.chiSquareCases
        let expected = try Self.expected("chiSquare")
        #expect(expected.count == cases.count * 2)
        for (index, item) in cases.enumerated() where expected.count == cases.count * 2 {
            let fit = try #require(Statistics.chiSquareGoodnessOfFit(observed: item.0, weights: item.1))
            #expect(Self.close(fit.chiSquare, expected[2 * index]), "\(item) chi-square \(fit.chiSquare) against \(expected[2 * index])")
            #expect(Self.close(fit.pValue, expected[2 * index + 1], absolute: 1e-300), "\(item) p \(fit.pValue) against \(expected[2 * index + 1])")
        }
    }

    static let subscribersNeededCases: [(baseline: Double, difference: Double)] = [0.1, 0.2, 0.3, 0.5, 0.8, 0.97].flatMap { baseline in
        [0.02, 0.05, 0.1].map { (baseline, $0) }
    }
    // statsmodels takes the lower rate and the difference; ours goes up from the baseline
    // unless that passes 1.
    static var subscribersNeededScript: String {
        """
        import math
        from statsmodels.stats.proportion import samplesize_proportions_2indep_onetail
        for base, diff in \(list(subscribersNeededCases.map { "(\($0.baseline), \($0.difference))" })):
            low = base if base + diff <= 1 else base - diff
            n = samplesize_proportions_2indep_onetail(diff, low, 0.8, ratio=1, alpha=0.05, alternative="two-sided")
            print(repr(float(math.ceil(n - 1e-9))))
        """
    }

    @Test func subscribersNeededMatchStatsmodels() throws {
        let cases = Self.subscribersNeededCases
        let expected = try Self.expected("subscribersNeeded")
        #expect(expected.count == cases.count)
        for (index, item) in cases.enumerated() where expected.count == cases.count {
            let needed = Statistics.subscribersPerArm(baseline: item.baseline, difference: item.difference)
            #expect(needed.map(Double.init) == expected[index], "\(item): \(String(describing: needed)) against \(expected[index])")
        }
    }

    static let holmCases: [[Double]] = [[0.01, 0.04, 0.03], [0.5], [0.001, 0.2, 0.2, 0.03], [0.04, 0.04], [0.9, 0.01, 0.6]]
    static var holmScript: String {
        """
        from statsmodels.stats.multitest import multipletests
        for ps in \(holmCases):
            for p in multipletests(ps, method="holm")[1]: print(repr(float(p)))
        """
    }

    @Test func holmMatchesStatsmodels() throws {
        #expect(try Self.expected("holm") == Self.holmCases.flatMap(Statistics.holmAdjusted))
    }

    static let bestPairs: [[(Int, Int)]] = [
        [(8, 2), (6, 4)], [(0, 0), (0, 0)], [(800, 200), (760, 240)], [(1, 0), (0, 1)], [(80_000, 20_000), (79_800, 20_200)], [(3, 40), (9, 30)],
    ]
    static let bestTriples: [[(Int, Int)]] = [[(30, 10), (25, 15), (20, 20)], [(300, 100), (290, 110), (310, 90)], [(2, 1), (1, 2), (0, 0)], [(5000, 1000), (100, 20), (40, 10)]]
    /// Python's list of lists of (successes, failures) tuples.
    static func literal(_ list: [[(Int, Int)]]) -> String { "[" + list.map { "[" + $0.map { "(\($0.0), \($0.1))" }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]" }
    /// Two arms against the exact sum for integer Beta parameters (no integration on the
    /// oracle's side); three against scipy's adaptive quadrature.
    static var probabilityOfBeingBestScript: String {
        """
        import math
        from scipy.special import betaln
        from scipy.stats import beta
        from scipy.integrate import quad
        def b_beats_a(a1, b1, a2, b2):
            return math.fsum(math.exp(betaln(a1 + i, b1 + b2) - math.log(b2 + i) - betaln(1 + i, b2) - betaln(a1, b1)) for i in range(a2))
        for (s1, f1), (s2, f2) in \(literal(bestPairs)):
            p2 = b_beats_a(1 + s1, 1 + f1, 1 + s2, 1 + f2)
            print(repr(1 - p2)); print(repr(p2))
        for arms in \(literal(bestTriples)):
            shapes = [(1 + s, 1 + f) for s, f in arms]
            for i, (a, b) in enumerate(shapes):
                others = [shape for j, shape in enumerate(shapes) if j != i]
                f = lambda x: beta.pdf(x, a, b) * math.prod(beta.cdf(x, c, d) for c, d in others)
                print(repr(quad(f, 0, 1, points=[c / (c + d) for c, d in shapes], limit=500, epsabs=1e-13, epsrel=1e-12)[0]))
        """
    }

    @Test func probabilityOfBeingBestMatchesScipy() throws {
        let expected = try Self.expected("probabilityOfBeingBest")
        let all = Self.bestPairs + Self.bestTriples
        let computed = all.flatMap { Statistics.probabilityOfBeingBest($0.map { (successes: $0.0, failures: $0.1) }) }
        #expect(expected.count == computed.count)
        for (actual, oracle) in zip(computed, expected) {
            #expect(abs(actual - oracle) < 1e-8, "\(actual) against \(oracle)")
        }
    }
}
