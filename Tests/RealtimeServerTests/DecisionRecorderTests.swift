import ExperimentStore
@testable import RealtimeServer
import Testing

/// The decision log's retries: which failures are tried again, and how long it waits.
/// (RealtimeExperimentPostgreSQLTests shows a PostgreSQL outage losing no decision.)
@Suite struct DecisionRecorderTests {
    @Test func aStoreDownOrSlowIsTriedAgainAndARefusedStatementIsNot() {
        #expect(DecisionRecorder.isRetryable(.unavailable("connection refused")))
        #expect(DecisionRecorder.isRetryable(.timedOut))
        for error in [StoreError.failed("constraint"), .closed, .usage("url"), .schemaTooNew(found: 9, known: 1)] {
            #expect(!DecisionRecorder.isRetryable(error), "\(error)")
        }
    }

    @Test func retriesWaitHalfASecondThenTwiceAsLongEachTime() {
        let delays = DecisionRecorder.Settings.doublingDelays(retries: ExperimentSettings.defaultDecisionRetries)
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)])
        #expect(delays.reduce(.zero, +) == .milliseconds(31_500))
        #expect(DecisionRecorder.Settings.doublingDelays(retries: 0).isEmpty)
        #expect(DecisionRecorder.Settings(keepMilliseconds: 1).retryDelays == delays)
    }
}
