import Foundation

/// A two-sided confidence interval: of a proportion (0…1) or of a difference of two (−1…1).
public struct ConfidenceInterval: Hashable, Sendable {
    public var lower: Double
    public var upper: Double

    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }
}

/// The experiment report's statistics, each a pure function of counts (docs/experiments.md has
/// the formulas). Every one is checked against scipy or statsmodels in ExperimentsTests.
///
/// Nothing here draws random numbers: the probability of being best is integrated numerically,
/// so a report computed twice is the same to the last bit.
public enum Statistics {
    /// z for a two-sided 95 % interval, Φ⁻¹(0.975).
    public static let z95 = SpecialFunctions.normalQuantile(0.975)

    /// The Wilson score interval of `successes` out of `trials`, nil when there are no trials.
    ///
    /// centre = (p̂ + z²/2n) / (1 + z²/n), half-width = z / (1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²).
    /// Unlike the normal ("Wald") interval it stays inside 0…1 and is usable at 0 % and 100 %,
    /// which a small arm often shows.
    public static func wilsonInterval(successes: Int, trials: Int, z: Double = z95) -> ConfidenceInterval? {
        guard trials > 0, successes >= 0, successes <= trials else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        return ConfidenceInterval(lower: max(0, centre - half), upper: min(1, centre + half))
    }

    /// Newcombe's hybrid score interval (his method 10) of p₁ − p₂, from the two Wilson
    /// intervals (l₁, u₁) and (l₂, u₂): d − √((p₁ − l₁)² + (u₂ − p₂)²) to
    /// d + √((u₁ − p₁)² + (p₂ − l₂)²). Nil when either side has no trials.
    public static func newcombeInterval(
        successes1: Int, trials1: Int, successes2: Int, trials2: Int, z: Double = z95
    ) -> ConfidenceInterval? {
        guard let first = wilsonInterval(successes: successes1, trials: trials1, z: z),
              let second = wilsonInterval(successes: successes2, trials: trials2, z: z) else { return nil }
        let p1 = Double(successes1) / Double(trials1)
        let p2 = Double(successes2) / Double(trials2)
        let d = p1 - p2
        let below = ((p1 - first.lower) * (p1 - first.lower) + (second.upper - p2) * (second.upper - p2)).squareRoot()
        let above = ((first.upper - p1) * (first.upper - p1) + (p2 - second.lower) * (p2 - second.lower)).squareRoot()
        return ConfidenceInterval(lower: d - below, upper: d + above)
    }

    /// Fisher's exact test, two-sided, of the 2×2 table [[a, b], [c, d]]: the probability, with
    /// every margin fixed, of a table no more likely than the one observed.
    ///
    /// Each table's hypergeometric probability is taken in log space relative to the most
    /// likely table, from `lgamma`, and the sum is divided by the sum over all tables, so the
    /// normalising constant cancels and margins of 200,000 lose no precision. Tables count as
    /// "no more likely" up to a relative 1e-7: mirror-image tables have exactly equal
    /// probabilities that rounding would otherwise split (R's fisher.test uses the same margin).
    /// Negative counts give nil.
    public static func fisherExactTwoSided(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double? {
        guard a >= 0, b >= 0, c >= 0, d >= 0 else { return nil }
        let total = a + b + c + d
        let row = a + b, column = a + c
        let lowest = max(0, row + column - total), highest = min(row, column)
        guard highest > lowest else { return 1 }
        func logWeight(_ x: Int) -> Double {
            -(lgamma(Double(x + 1)) + lgamma(Double(row - x + 1)) + lgamma(Double(column - x + 1))
              + lgamma(Double(total - row - column + x + 1)))
        }
        // The mode of the hypergeometric distribution, and its neighbour that may tie with it.
        let mode = min(highest, max(lowest, (row + 1) * (column + 1) / (total + 2)))
        let peak = max(logWeight(mode), logWeight(min(highest, mode + 1)), logWeight(max(lowest, mode - 1)))
        let observed = logWeight(a) - peak
        var all = 0.0
        var asExtreme = 0.0
        for x in lowest...highest {
            let relative = logWeight(x) - peak
            let weight = exp(relative)
            all += weight
            if relative <= observed + 1e-7 { asExtreme += weight }
        }
        return min(1, asExtreme / all)
    }

    /// For arms with `successes` and `failures` each, the probability that each has the highest
    /// rate, under independent Beta(1 + s, 1 + f) posteriors (a uniform prior):
    /// P(i best) = ∫ fᵢ(x) Πⱼ≠ᵢ Fⱼ(x) dx.
    ///
    /// The integral runs over arm i's posterior, μ ± 12σ cut to 0…1 (beyond it the density is
    /// below 1e-30 of the whole), split at every other arm's μ − 12σ, μ and μ + 12σ so that a
    /// narrow arm's step is resolved, each piece by 16 panels of 20-point Gauss–Legendre. No
    /// sampling: the same counts give the same probabilities every run. The probabilities sum
    /// to 1 within about 1e-9.
    public static func probabilityOfBeingBest(_ arms: [(successes: Int, failures: Int)]) -> [Double] {
        guard arms.count > 1 else { return arms.map { _ in 1 } }
        let shapes = arms.map { (a: 1 + Double(max(0, $0.successes)), b: 1 + Double(max(0, $0.failures))) }
        let spans = shapes.map { shape -> (low: Double, mean: Double, high: Double) in
            let sum = shape.a + shape.b
            let mean = shape.a / sum
            let sd = (shape.a * shape.b / (sum * sum * (sum + 1))).squareRoot()
            return (max(0, mean - 12 * sd), mean, min(1, mean + 12 * sd))
        }
        return shapes.indices.map { index in
            let span = spans[index]
            var cuts = [span.low, span.high]
            for other in spans.indices where other != index {
                for cut in [spans[other].low, spans[other].mean, spans[other].high] where cut > span.low && cut < span.high {
                    cuts.append(cut)
                }
            }
            cuts.sort()
            var total = 0.0
            for (start, end) in zip(cuts, cuts.dropFirst()) where end > start {
                total += GaussLegendre.integrate(from: start, to: end, panels: 16) { x in
                    var value = SpecialFunctions.betaDensity(x, shapes[index].a, shapes[index].b)
                    for other in shapes.indices where other != index && value > 0 {
                        value *= SpecialFunctions.regularizedIncompleteBeta(x, shapes[other].a, shapes[other].b)
                    }
                    return value
                }
            }
            return min(1, max(0, total))
        }
    }

    /// Pearson's chi-square goodness of fit of `observed` counts against shares proportional to
    /// `weights`: χ² = Σ (oᵢ − eᵢ)² / eᵢ with eᵢ = N·wᵢ/Σw, and its p-value Q((k − 1)/2, χ²/2)
    /// on k − 1 degrees of freedom (k the arms of positive weight). Nil when there is nothing to
    /// test: no counts, fewer than two arms of positive weight, or a negative input. A count in
    /// an arm of weight 0 cannot be explained by the weights: its p-value is 0.
    public static func chiSquareGoodnessOfFit(observed: [Int], weights: [Int]) -> (chiSquare: Double, pValue: Double)? {
        guard observed.count == weights.count, !observed.contains(where: { $0 < 0 }), !weights.contains(where: { $0 < 0 }) else { return nil }
        let total = observed.reduce(0, +)
        let weightSum = weights.reduce(0, +)
        let arms = weights.filter { $0 > 0 }.count
        guard total > 0, arms >= 2 else { return nil }
        if zip(observed, weights).contains(where: { $0.0 > 0 && $0.1 == 0 }) { return (.infinity, 0) }
        var chiSquare = 0.0
        for (count, weight) in zip(observed, weights) where weight > 0 {
            let expected = Double(total) * Double(weight) / Double(weightSum)
            chiSquare += (Double(count) - expected) * (Double(count) - expected) / expected
        }
        return (chiSquare, SpecialFunctions.regularizedUpperGamma(Double(arms - 1) / 2, chiSquare / 2))
    }

    /// Subscribers each of two equal arms needs for a two-sided test at `alpha` to find a
    /// difference of `difference` from a rate of `baseline` with probability `power`, by the
    /// normal approximation with the pooled variance under the null:
    ///
    ///     n = ( z₁₋α/₂ · √(2 p̄ (1 − p̄)) + z_power · √(p₁(1 − p₁) + p₂(1 − p₂)) )² / δ²
    ///
    /// with p₁ the baseline, p₂ = p₁ + δ (or p₁ − δ when that would pass 1) and p̄ their mean;
    /// rounded up. Nil when the inputs make no sense (a rate outside 0…1, δ ≤ 0 or ≥ 1).
    public static func subscribersPerArm(baseline: Double, difference: Double, alpha: Double = 0.05, power: Double = 0.8) -> Int? {
        guard baseline >= 0, baseline <= 1, difference > 0, difference < 1, alpha > 0, alpha < 1, power > 0, power < 1 else { return nil }
        let p1 = baseline
        let p2 = baseline + difference <= 1 ? baseline + difference : baseline - difference
        guard p2 >= 0 else { return nil }
        let mean = (p1 + p2) / 2
        let zAlpha = SpecialFunctions.normalQuantile(1 - alpha / 2)
        let zPower = SpecialFunctions.normalQuantile(power)
        let root = zAlpha * (2 * mean * (1 - mean)).squareRoot() + zPower * (p1 * (1 - p1) + p2 * (1 - p2)).squareRoot()
        let n = root * root / (difference * difference)
        // A hair below an integer is that integer: the formula's rounding must not add one.
        return Int((n - 1e-9).rounded(.up))
    }

    /// Holm's step-down adjustment of `pValues`, in their order: the i-th smallest becomes
    /// max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎). Equal p-values keep their input order.
    public static func holmAdjusted(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = Array(repeating: 0.0, count: pValues.count)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(pValues.count - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}

/// Composite Gauss–Legendre quadrature of 20 points a panel; the nodes are found once by
/// Newton's method on the Legendre polynomial, so no table of constants is copied in.
enum GaussLegendre {
    static let rule: [(node: Double, weight: Double)] = {
        let n = 20
        var rule: [(Double, Double)] = []
        for i in 1...n {
            var x = cos(Double.pi * (Double(i) - 0.25) / (Double(n) + 0.5))
            var derivative = 0.0
            for _ in 0..<100 {
                var p0 = 1.0, p1 = x
                for k in 2...n {
                    let p2 = ((2 * Double(k) - 1) * x * p1 - (Double(k) - 1) * p0) / Double(k)
                    p0 = p1
                    p1 = p2
                }
                derivative = Double(n) * (x * p1 - p0) / (x * x - 1)
                let step = p1 / derivative
                x -= step
                if abs(step) < 1e-16 { break }
            }
            rule.append((x, 2 / ((1 - x * x) * derivative * derivative)))
        }
        return rule
    }()

    static func integrate(from start: Double, to end: Double, panels: Int, _ function: (Double) -> Double) -> Double {
        let width = (end - start) / Double(panels)
        var total = 0.0
        for panel in 0..<panels {
            let middle = start + (Double(panel) + 0.5) * width
            for point in rule {
                total += point.weight * function(middle + point.node * width / 2)
            }
        }
        return total * width / 2
    }
}
