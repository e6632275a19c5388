/// One verified request the realtime server answered or declined, as the decision log keeps it:
/// a row of the `decisions` table (docs/experiments-store.md).
///
/// Times are milliseconds since 1970 (UTC). The subscriber is a `SubjectHash`, never the
/// originalTransactionId; it is nil when the request named no transaction.
public struct Decision: Equatable, Sendable {
    /// How the arm of this exposure was settled.
    public enum Assignment: String, CaseIterable, Sendable {
        /// The subscriber's first exposure in this experiment: this arm is now theirs.
        case first
        /// The arm recorded at their first exposure, answered again.
        case sticky
        /// Their recorded arm could not answer (gone from the snapshot, or unusable in this
        /// locale), so another answer was given: the report does not count it as that arm.
        case marked
        /// The store did not settle the assignment in time: answered from the hash of the
        /// subscriber, and marked as such.
        case hashed
        /// No experiment, or no subscriber to assign.
        case none
    }

    public var timeMilliseconds: Int64
    /// `Production` or `Sandbox`, as Apple's request says.
    public var environment: String
    public var requestId: String
    public var product: String
    /// The locale the device sent (Apple's `userLocale`).
    public var deviceLocale: String
    /// The locale whose text answered; nil when nothing answered.
    public var answeringLocale: String?
    /// The experiment: a stable identifier of the product's arms (the server makes it).
    public var experimentId: String
    /// The arms and their weights as text, `key=weight` joined by commas, as the snapshot had them.
    public var arms: String
    /// The digest of the bundle the snapshot came from.
    public var bundleDigest: String
    /// The arm assigned to the subscriber; nil when there is no experiment or no subscriber.
    public var arm: String?
    /// What was answered: `message`, `product` (switch plan), `offer`, or `declined`.
    public var answerKind: String
    /// The message key, product id or offer identifier answered; nil when declined.
    public var answer: String?
    public var snapshotGeneration: Int64
    public var subject: SubjectHash?
    public var assignment: Assignment
    /// The decision's own key, made by the server that answered (a UUID): the store keeps one
    /// row per key, so a batch written twice (a retry of one that timed out after it was
    /// committed) stores each decision once. Nil for rows written before schema version 2, and
    /// for decisions that are not the server's (the report's inputs in tests).
    public var id: String?

    public init(
        timeMilliseconds: Int64, environment: String, requestId: String, product: String, deviceLocale: String,
        answeringLocale: String?, experimentId: String, arms: String, bundleDigest: String, arm: String?,
        answerKind: String, answer: String?, snapshotGeneration: Int64, subject: SubjectHash?, assignment: Assignment,
        id: String? = nil
    ) {
        self.timeMilliseconds = timeMilliseconds
        self.environment = environment
        self.requestId = requestId
        self.product = product
        self.deviceLocale = deviceLocale
        self.answeringLocale = answeringLocale
        self.experimentId = experimentId
        self.arms = arms
        self.bundleDigest = bundleDigest
        self.arm = arm
        self.answerKind = answerKind
        self.answer = answer
        self.snapshotGeneration = snapshotGeneration
        self.subject = subject
        self.assignment = assignment
        self.id = id
    }
}
