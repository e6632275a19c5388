import CoreMetrics
import ExperimentStore
import Experiments
import Foundation
import Model
import Realtime

/// What the server does with an experiment store (`--store`): each verified request answered
/// or declined becomes a `Decision` for the decision log (`DecisionRecorder`), a weighted
/// product's subscriber keeps the arm of their first exposure (`settleAssignment`), and App
/// Store Server Notifications are verified and stored (`receive`).
///
/// The subscriber is only ever the `SubjectHash` of their originalTransactionId
/// (`SubjectKey`): the id itself is never stored, logged or kept past the request.
public struct ExperimentSettings: Sendable {
    public var store: ExperimentStore
    public var subjectKey: SubjectKey
    /// Where Apple posts its notifications.
    public var notificationsPath: String
    /// How long decisions, assignments and notifications are kept (`--keep`).
    public var keep: Duration
    /// How long the answer path waits for the store to settle a subscriber's arm before it
    /// answers from the hash and marks the exposure `hashed`: a few milliseconds of Apple's 700.
    public var settleDeadline: Duration = .milliseconds(5)
    /// How long a notification waits for the store before it is answered 503 (Apple retries).
    public var notificationDeadline: Duration = .seconds(3)
    /// How many times the decision log tries again a batch the store could not take (down,
    /// restarting, locked), waiting 0.5 s before the first retry and twice as long before each
    /// next one: 6 rides out an outage of about half a minute. 0: a failed batch is lost at once.
    public var decisionRetries = ExperimentSettings.defaultDecisionRetries
    public static let defaultDecisionRetries = 6

    public init(store: ExperimentStore, subjectKey: SubjectKey, notificationsPath: String, keep: Duration) {
        self.store = store
        self.subjectKey = subjectKey
        self.notificationsPath = notificationsPath
        self.keep = keep
    }
}

/// The experiment store at work in a running server (see `ExperimentSettings`).
struct ExperimentLog: Sendable {
    let settings: ExperimentSettings
    let recorder: DecisionRecorder
    let stickyArms: StickyArms
    let notificationVerifier: NotificationVerifier
    let assignments: [Decision.Assignment: CoreMetrics.Counter]
    let notifications: [String: CoreMetrics.Counter]

    /// The outcomes of a notification, each a series of `msgc_experiment_notifications_total`.
    static let notificationOutcomes = ["stored", "duplicate", "acknowledged", "refused", "store-unavailable"]

    init(
        settings: ExperimentSettings, recorder: DecisionRecorder, assignmentCache: AssignmentCache,
        notificationVerifier: NotificationVerifier, metrics: ServerMetrics
    ) {
        self.settings = settings
        self.recorder = recorder
        stickyArms = StickyArms(store: settings.store, cache: assignmentCache, deadline: settings.settleDeadline, metrics: metrics)
        self.notificationVerifier = notificationVerifier
        assignments = Dictionary(uniqueKeysWithValues: Decision.Assignment.allCases.map {
            ($0, metrics.counter("msgc_experiment_exposures_total", [("assignment", $0.rawValue)]))
        })
        notifications = Dictionary(uniqueKeysWithValues: Self.notificationOutcomes.map {
            ($0, metrics.counter("msgc_experiment_notifications_total", [("outcome", $0)]))
        })
    }

    /// A verified request answered as the responder answers it, with a weighted product's arm
    /// kept sticky, and its decision queued for the log. The store is asked only to settle the
    /// arm of a subscriber this server does not keep one for (`StickyArms`), within
    /// `settleDeadline`; it never fails an answer.
    func answer(
        _ request: DecodedRealtimeRequest, served: ServedSnapshot, at now: Date
    ) async -> (reply: RealtimeReply, assignment: Decision.Assignment) {
        let responder = served.responder
        let snapshot = responder.snapshot
        let product = snapshot.product(request.productId)
        let arms = product?.realtime.map { ExperimentArm(message: $0.message, weight: $0.weight) } ?? []
        let experiment = ExperimentDefinition.identifier(arms: arms)
        let subject = settings.subjectKey.hash(originalTransactionId: request.originalTransactionId)
        let milliseconds = Self.milliseconds(now)
        var reply = responder.answer(request, at: now)
        var arm: String?
        var assignment = Decision.Assignment.none
        if product?.choice == .weighted, let hashed = reply.messageKey, arms.contains(where: { $0.message == hashed }) {
            if let settled = await stickyArms.settle(experiment: experiment, subject: subject, proposedArm: hashed, at: milliseconds) {
                arm = settled.arm
                if settled.isFirst {
                    assignment = .first
                } else if settled.arm == hashed {
                    assignment = .sticky
                } else {
                    let kept = responder.answer(request, at: now, preferredArm: settled.arm)
                    if kept.messageKey == settled.arm {
                        reply = kept
                        assignment = .sticky
                    } else {
                        assignment = .marked
                    }
                }
            } else {
                arm = hashed
                assignment = .hashed
            }
        }
        assignments[assignment]?.increment()
        recorder.enqueue(Decision(
            timeMilliseconds: milliseconds, environment: request.environment, requestId: request.requestIdentifier,
            product: request.productId, deviceLocale: request.userLocale,
            answeringLocale: reply.messageKey == nil ? nil : reply.locale, experimentId: experiment,
            arms: experiment, bundleDigest: snapshot.bundleDigest, arm: arm,
            answerKind: Self.answerKind(reply), answer: Self.answered(reply, product: product),
            snapshotGeneration: Int64(served.generation), subject: subject, assignment: assignment,
            id: UUID().uuidString))
        return (reply, assignment)
    }

    /// Apple's words for what was answered, as the decision log keeps them.
    static func answerKind(_ reply: RealtimeReply) -> String {
        switch reply.outcome {
        case .answered(.message): "message"
        case .answered(.alternateProduct): "product"
        case .answered(.promotionalOffer): "offer"
        case .unanswered, .refused: "declined"
        }
    }

    /// The message key, the product offered or the offer's identifier; nil when declined.
    static func answered(_ reply: RealtimeReply, product: RealtimeSnapshot.Product?) -> String? {
        guard let key = reply.messageKey else { return nil }
        let message = reply.locale.flatMap { product?.locale($0) }?.message(key: key)
        switch reply.outcome {
        case .answered(.alternateProduct): return message?.productId ?? key
        case .answered(.promotionalOffer): return message?.offerIdentifier ?? key
        default: return key
        }
    }

    /// A notification's HTTP status, its outcome (a series of `msgc_experiment_notifications_total`)
    /// and, when refused, why.
    struct Receipt: Sendable {
        var status: Int
        var outcome: String
        var reason: String?
    }

    /// Verifies a notification (`NotificationVerifier`) and stores it once per notificationUUID
    /// before answering 200; 503 when the store cannot take it in time, so that Apple retries; the
    /// refusal's 4xx for what is not Apple's, or not for this app and environment. A notification
    /// that names no UUID or no subscriber (Apple's TEST) is acknowledged and not stored.
    func receive(body: [UInt8], at now: Date) async -> Receipt {
        let receipt: Receipt
        switch notificationVerifier.verify(body: body, now: now) {
        case .failure(let refusal):
            receipt = Receipt(status: refusal.status, outcome: "refused", reason: refusal.reason.rawValue)
        case .success(let notification):
            switch NotificationRecord.make(
                notification, key: settings.subjectKey, environment: notification.environment ?? "",
                receivedMilliseconds: Self.milliseconds(now))
            {
            case .success(let record):
                do {
                    let stored = try await settings.store.store(notification: record, deadline: .now + settings.notificationDeadline)
                    receipt = Receipt(status: 200, outcome: stored == .inserted ? "stored" : "duplicate")
                } catch {
                    receipt = Receipt(status: 503, outcome: "store-unavailable")
                }
            case .failure:
                // Nothing ties it to a subscriber and a moment (Apple's TEST has no subscriber):
                // acknowledged, since a retry would carry the same.
                receipt = Receipt(status: 200, outcome: "acknowledged")
            }
        }
        notifications[receipt.outcome]?.increment()
        return receipt
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
