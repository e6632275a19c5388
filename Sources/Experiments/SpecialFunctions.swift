import Foundation

/// The special functions the report's statistics stand on: the normal distribution and its
/// quantile, the regularized incomplete beta function (the Beta distribution's CDF) and the
/// regularized incomplete gamma function (the chi-square distribution's tail).
///
/// All are computed in double precision with fixed iteration limits, so the same inputs give
/// the same value on every run. Logarithms of gamma come from the C library's `lgamma`.
enum SpecialFunctions {
    /// ln Γ(x) for x > 0.
    static func logGamma(_ x: Double) -> Double { lgamma(x) }

    /// ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b).
    static func logBeta(_ a: Double, _ b: Double) -> Double {
        lgamma(a) + lgamma(b) - lgamma(a + b)
    }

    /// Φ(x), the standard normal distribution function.
    static func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    /// Φ⁻¹(p) for 0 < p < 1: Acklam's rational approximation (relative error below 1.2e-9),
    /// refined by one Halley step on `erfc`, which brings it to full double precision.
    static func normalQuantile(_ p: Double) -> Double {
        guard p > 0 else { return -.infinity }
        guard p < 1 else { return .infinity }
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                 -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5
            let r = q * q
            x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log1p(-p)).squareRoot()
            x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let error = normalCDF(x) - p
        let u = error * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }

    /// I_x(a, b), the regularized incomplete beta function, for a, b > 0: the continued fraction
    /// (modified Lentz), on whichever side of the mean it converges fast, with the front factor
    /// in log space so that parameters of a hundred thousand neither overflow nor underflow.
    static func regularizedIncompleteBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logFront = a * log(x) + b * log1p(-x) - logBeta(a, b)
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * betaContinuedFraction(x, a, b) / a
        }
        return 1 - exp(logFront) * betaContinuedFraction(1 - x, b, a) / b
    }

    private static func betaContinuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        let qab = a + b, qap = a + 1, qam = a - 1
        var c = 1.0
        var d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        // Converges in O(√max(a, b)) steps near the mean: a few hundred for counts of 100,000.
        for m in 1...100_000 {
            let m = Double(m)
            let m2 = 2 * m
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return h
    }

    /// Q(s, x) = Γ(s, x) / Γ(s), the regularized upper incomplete gamma function, for s > 0 and
    /// x ≥ 0: the series of P below s + 1, the continued fraction of Q above it.
    static func regularizedUpperGamma(_ s: Double, _ x: Double) -> Double {
        guard x > 0 else { return 1 }
        let logFront = s * log(x) - x - lgamma(s)
        if x < s + 1 {
            var term = 1 / s
            var sum = term
            var n = s
            for _ in 0..<100_000 {
                n += 1
                term *= x / n
                sum += term
                if abs(term) < abs(sum) * 1e-17 { break }
            }
            return max(0, 1 - sum * exp(logFront))
        }
        let tiny = 1e-300
        var b = x + 1 - s
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        for i in 1...100_000 {
            let an = -Double(i) * (Double(i) - s)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return exp(logFront) * h
    }

    /// The density of Beta(a, b) at x, 0 < x < 1.
    static func betaDensity(_ x: Double, _ a: Double, _ b: Double) -> Double {
        exp((a - 1) * log(x) + (b - 1) * log1p(-x) - logBeta(a, b))
    }
}
