import CoreMetrics
import Metrics
import Prometheus
import Realtime

/// What `GET /metrics` says, in Prometheus' text format.
///
/// The metrics are swift-metrics types made by a factory of their own (never the process-wide
/// `MetricsSystem`), over a Prometheus registry this server alone writes to, so a team that
/// mounts the server in a process with its own metrics backend keeps both apart. Every label
/// value is made at start, so a series reads 0 before its first event instead of missing.
final class ServerMetrics: Sendable {
    /// The registry /metrics renders.
    let registry: PrometheusCollectorRegistry
    private let answers: [RealtimeSnapshot.Answer.Kind: CoreMetrics.Counter]
    private let unanswered: CoreMetrics.Counter
    private let refusals: [String: CoreMetrics.Counter]
    private let latency: CoreMetrics.Timer
    private let reloadsApplied: CoreMetrics.Counter
    private let reloadsRejected: CoreMetrics.Counter
    private let generation: CoreMetrics.Gauge

    /// Refusals the HTTP layer makes before a body reaches the responder.
    static let transportRefusals = [BodyRefusal.tooLarge.rawValue, BodyRefusal.tooSlow.rawValue]

    init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Apple allows 700 ms; the buckets resolve the few milliseconds an answer takes.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(700),
        ]
        self.registry = registry
        answers = Dictionary(uniqueKeysWithValues: RealtimeSnapshot.Answer.Kind.allCases.map {
            ($0, CoreMetrics.Counter(label: "msgc_realtime_answers_total", dimensions: [("kind", $0.rawValue)], factory: factory))
        })
        unanswered = CoreMetrics.Counter(label: "msgc_realtime_unanswered_total", dimensions: [], factory: factory)
        // The responder's reasons and the HTTP layer's share one label; a reason both name
        // (a body too large) is one series.
        let reasons = Set(RealtimeRefusal.allCases.map(\.rawValue) + Self.transportRefusals).sorted()
        refusals = Dictionary(uniqueKeysWithValues: reasons.map {
            ($0, CoreMetrics.Counter(label: "msgc_realtime_refusals_total", dimensions: [("reason", $0)], factory: factory))
        })
        latency = CoreMetrics.Timer(label: "msgc_realtime_request_duration_seconds", dimensions: [], factory: factory)
        reloadsApplied = CoreMetrics.Counter(label: "msgc_realtime_reloads_total", dimensions: [("result", "applied")], factory: factory)
        reloadsRejected = CoreMetrics.Counter(label: "msgc_realtime_reloads_total", dimensions: [("result", "rejected")], factory: factory)
        generation = CoreMetrics.Gauge(label: "msgc_realtime_snapshot_generation", dimensions: [], factory: factory)
        generation.record(1)
    }

    /// One realtime request answered (or not) by the responder, and how long it took from its
    /// head to the reply, in nanoseconds.
    func record(_ outcome: RealtimeReply.Outcome, nanoseconds: Int64) {
        switch outcome {
        case .answered(let kind): answers[kind]?.increment()
        case .unanswered: unanswered.increment()
        case .refused(let refusal): refusals[refusal.rawValue]?.increment()
        }
        latency.recordNanoseconds(nanoseconds)
    }

    /// A body the HTTP layer refused.
    func record(_ refusal: BodyRefusal, nanoseconds: Int64) {
        refusals[refusal.rawValue]?.increment()
        latency.recordNanoseconds(nanoseconds)
    }

    func recordReload(appliedGeneration: Int?) {
        if let appliedGeneration {
            reloadsApplied.increment()
            generation.record(appliedGeneration)
        } else {
            reloadsRejected.increment()
        }
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
