import CoreMetrics
import ExperimentStore

/// A weighted product's subscriber keeps the arm of their first exposure: the arm kept in the
/// process (`AssignmentCache`) when there is one, else the store's (`settleAssignment`, within
/// `deadline`), which is then kept.
///
/// A subscriber seen again costs no store round trip, so the store's single answer lane serves
/// only first exposures and subscribers this server has not seen lately (or another server
/// settled): at full speed it was the bottleneck, and answers past the deadline fall back to
/// the hash (`hashed`). `msgc_experiment_assignment_cache_total{result}` counts `hit` (answered
/// from the process) and `miss` (the store was asked).
struct StickyArms: Sendable {
    let store: ExperimentStore
    let cache: AssignmentCache
    let deadline: Duration
    let hits: CoreMetrics.Counter
    let misses: CoreMetrics.Counter

    init(store: ExperimentStore, cache: AssignmentCache, deadline: Duration, metrics: ServerMetrics) {
        self.store = store
        self.cache = cache
        self.deadline = deadline
        hits = metrics.counter("msgc_experiment_assignment_cache_total", [("result", "hit")])
        misses = metrics.counter("msgc_experiment_assignment_cache_total", [("result", "miss")])
    }

    /// The subscriber's arm in the experiment and whether this exposure made it theirs; nil when
    /// the store did not settle it in time (the caller answers from the hash).
    func settle(experiment: String, subject: SubjectHash, proposedArm: String, at milliseconds: Int64) async -> (arm: String, isFirst: Bool)? {
        if let arm = cache.arm(experiment: experiment, subject: subject, at: milliseconds) {
            hits.increment()
            return (arm, false)
        }
        misses.increment()
        do {
            let settled = try await store.settleAssignment(
                experiment: experiment, subject: subject, proposedArm: proposedArm, timeMilliseconds: milliseconds,
                deadline: .now + deadline)
            cache.keep(settled.arm, experiment: experiment, subject: subject, at: milliseconds)
            return (settled.arm, settled.isFirst)
        } catch {
            return nil
        }
    }
}
