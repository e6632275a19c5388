import Model
import Testing

/// `Verdict.status`, the one place msgc chooses an exit status.
@Suite struct VerdictTests {
    @Test func eachKindHasItsStatus() {
        #expect(Verdict.success.status == .success)
        #expect(Verdict(failingFindings: 2).status == .findings)
        #expect(Verdict(awaitingReview: 1).status == .waiting)
        #expect(Verdict(.usage).status == .failure)
        #expect(Verdict(.io).status == .failure)
        #expect(Verdict(.waitExceeded).status == .waiting)
        #expect(Verdict(.exitWithoutShutdown).status == .findings)
    }

    /// The most serious wins: a failure over findings, findings over a wait.
    @Test func theMostSeriousWins() {
        #expect(Verdict(failingFindings: 1, awaitingReview: 3).status == .findings)
        #expect(Verdict(failingFindings: 1, failures: [.waitExceeded]).status == .findings)
        #expect(Verdict(failingFindings: 1, failures: [.io]).status == .failure)
        #expect(Verdict(awaitingReview: 1, failures: [.waitExceeded, .usage]).status == .failure)
        #expect(Verdict(failingFindings: 1).merged(with: Verdict(.io)).status == .failure)
    }
}
