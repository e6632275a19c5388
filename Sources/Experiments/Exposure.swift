/// One answer the realtime server gave a subscriber in an experiment: the decision log's row
/// as the report reads it (the store makes these).
///
/// A subscriber counts once per product and experiment, by their **first** exposure (the
/// earliest `time`; equal times are ordered by `arm`, then unmarked before marked): that
/// exposure's arm, offer and switch-to product decide their outcome, whatever later exposures
/// were. Marked exposures count like any other for that choice (sticky assignment keeps a
/// subscriber's first arm, so a marked exposure still names it); the report also says, per
/// arm, how many of its exposures were marked, so a team sees how often an arm was unusable.
/// Exposures later than the report's `now` are left out.
public struct Exposure: Hashable, Sendable {
    /// The subscriber: a keyed hash of the originalTransactionId, as hex. Opaque here: only
    /// compared for equality with other exposures' and events' subjects, never shown.
    public var subject: String
    /// When the server answered, in milliseconds since 1970-01-01T00:00:00Z.
    public var time: Int64
    /// The product the request was for.
    public var product: String
    /// The experiment's identifier, `ExperimentDefinition.identifier(arms:)`.
    public var experiment: String
    /// The subscriber's arm: its message key.
    public var arm: String
    /// The arm's weight in the experiment.
    public var weight: Int
    /// The promotional offer the arm's message carries, if any: an OFFER_REDEEMED naming it
    /// makes the subscriber's outcome "offer redeemed".
    public var offerIdentifier: String?
    /// The product the arm's message offers to switch to, if any: a DID_CHANGE_RENEWAL_PREF to
    /// it makes the subscriber's outcome "switched".
    public var switchTo: String?
    /// The subscriber was answered with something other than their arm, because their arm was
    /// unusable at that request (the answer's path took another message).
    public var marked: Bool

    public init(
        subject: String, time: Int64, product: String, experiment: String, arm: String, weight: Int,
        offerIdentifier: String? = nil, switchTo: String? = nil, marked: Bool = false
    ) {
        self.subject = subject
        self.time = time
        self.product = product
        self.experiment = experiment
        self.arm = arm
        self.weight = weight
        self.offerIdentifier = offerIdentifier
        self.switchTo = switchTo
        self.marked = marked
    }
}
