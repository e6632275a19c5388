import CoreMetrics
import Metrics
import Prometheus
import Realtime
import Synchronization

/// What `GET /metrics` says, in Prometheus' text format.
///
/// The metrics are swift-metrics types made by a factory of their own (never the process-wide
/// `MetricsSystem`), over a Prometheus registry this server alone writes to, so a team that
/// mounts the server in a process with its own metrics backend keeps both apart. Every label
/// value is made at start (or, for a snapshot's products and messages, when the snapshot is
/// swapped in), so a series reads 0 before its first event instead of missing.
final class ServerMetrics: Sendable {
    /// The registry /metrics renders.
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let answers: [RealtimeSnapshot.Answer.Kind: CoreMetrics.Counter]
    private let unanswered: [RealtimeReply.Unanswered: CoreMetrics.Counter]
    private let refusals: [String: CoreMetrics.Counter]
    private let latency: CoreMetrics.Timer
    private let reloadsApplied: CoreMetrics.Counter
    private let reloadsRejected: CoreMetrics.Counter
    private let generation: CoreMetrics.Gauge
    /// Answers per product and message key, one series for each of the served snapshot's
    /// messages: bounded by the snapshot, and replaced with it.
    private let messageAnswers = Mutex<[MessageSeries: CoreMetrics.Counter]>([:])

    struct MessageSeries: Hashable {
        var product: String
        var message: String
    }

    /// Refusals the HTTP layer makes before a body reaches the responder.
    static let transportRefusals = [BodyRefusal.tooLarge.rawValue, BodyRefusal.tooSlow.rawValue]

    /// `version`: msgc's, the value of `msgc_build_info{version}`.
    init(version: String) {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Apple allows 700 ms; the buckets resolve the few milliseconds an answer takes.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(700),
        ]
        self.registry = registry
        self.factory = factory
        answers = Dictionary(uniqueKeysWithValues: RealtimeSnapshot.Answer.Kind.allCases.map {
            ($0, CoreMetrics.Counter(label: "msgc_realtime_answers_total", dimensions: [("kind", $0.rawValue)], factory: factory))
        })
        unanswered = Dictionary(uniqueKeysWithValues: RealtimeReply.Unanswered.allCases.map {
            ($0, CoreMetrics.Counter(label: "msgc_realtime_unanswered_total", dimensions: [("reason", $0.rawValue)], factory: factory))
        })
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
        CoreMetrics.Gauge(label: "msgc_build_info", dimensions: [("version", version)], factory: factory).record(1)
    }

    /// Makes the per-message series of `snapshot` (and drops those of the one it replaces
    /// that it no longer has). A snapshot can have tens of thousands of series: they are made
    /// outside the lock, which answers take to count themselves, so that a reload never holds
    /// an answer while the registry fills; the lock is held only to swap the two tables.
    /// Called by one reload at a time.
    func serve(_ snapshot: RealtimeSnapshot) {
        var wanted = Set<MessageSeries>()
        for product in snapshot.products {
            for locale in product.locales {
                for message in locale.messages { wanted.insert(MessageSeries(product: product.id, message: message.key)) }
            }
        }
        let current = messageAnswers.withLock { $0 }
        var next: [MessageSeries: CoreMetrics.Counter] = [:]
        for key in wanted {
            next[key] = current[key] ?? CoreMetrics.Counter(
                label: "msgc_realtime_message_answers_total", dimensions: [("product", key.product), ("message", key.message)],
                factory: factory)
        }
        let installed = next
        messageAnswers.withLock { $0 = installed }
        for (key, counter) in current where !wanted.contains(key) { counter.destroy() }
    }

    /// One realtime request answered (or not) by the responder, and how long it took from its
    /// head to the reply, in nanoseconds.
    func record(_ reply: RealtimeReply, nanoseconds: Int64) {
        switch reply.outcome {
        case .answered(let kind):
            answers[kind]?.increment()
            if let product = reply.productId, let message = reply.messageKey {
                let counter = messageAnswers.withLock { $0[MessageSeries(product: product, message: message)] }
                counter?.increment()
            }
        case .unanswered: unanswered[reply.unansweredReason ?? .nothingUsable]?.increment()
        case .refused(let refusal): refusals[refusal.rawValue]?.increment()
        }
        latency.recordNanoseconds(nanoseconds)
    }

    /// A realtime body the HTTP layer refused.
    func record(_ refusal: BodyRefusal, nanoseconds: Int64) {
        refusals[refusal.rawValue]?.increment()
        latency.recordNanoseconds(nanoseconds)
    }

    /// A body on another route (`/healthz`, `/metrics`…) refused: counted with the realtime
    /// refusals of the same reason, without a latency (it was not Apple's request).
    func recordRefusedBody(_ refusal: BodyRefusal) {
        refusals[refusal.rawValue]?.increment()
    }

    func recordReload(appliedGeneration: Int?) {
        if let appliedGeneration {
            reloadsApplied.increment()
            generation.record(appliedGeneration)
        } else {
            reloadsRejected.increment()
        }
    }

    /// A counter in this server's registry, for what only some servers count (the experiment
    /// store's metrics, made only when there is a store, so a server without one says nothing
    /// of them).
    func counter(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        CoreMetrics.Counter(label: label, dimensions: dimensions, factory: factory)
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
