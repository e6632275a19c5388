import ExperimentStore
import Realtime

/// A verified notification as the store keeps it (`StoredNotification`): its facts, the
/// subscriber as a `SubjectHash`, never the signed payload nor the originalTransactionId. The
/// one mapping of the server's notifications endpoint and of `msgc realtime outcomes import`.
public enum NotificationRecord {
    /// Why a verified notification is not kept for the report.
    public enum Skipped: Error, Equatable {
        /// Its type is not one the report reads (TEST, SUBSCRIBED, EXPIRED, one Apple adds later).
        case notRelevant
        /// It lacks what ties it to a subscriber and a moment: a notificationUUID, an
        /// originalTransactionId or a signedDate.
        case unlinked
    }

    /// The row to store, or why there is none. A type that is not relevant, but that names
    /// its UUID, subscriber and date, is stored with `isRelevant` false, so that another copy of
    /// it (Apple's retry, the server's own receipt) is recognised as a duplicate.
    public static func make(
        _ notification: DecodedNotification, key: SubjectKey, environment: String, receivedMilliseconds: Int64
    ) -> Result<StoredNotification, Skipped> {
        guard let uuid = notification.notificationUUID, !uuid.isEmpty,
            let originalTransactionId = notification.originalTransactionId, !originalTransactionId.isEmpty,
            let signedDate = notification.signedDate
        else { return .failure(notification.kind == .notRelevant ? .notRelevant : .unlinked) }
        return .success(StoredNotification(
            notificationUUID: uuid, subject: key.hash(originalTransactionId: originalTransactionId), signedDateMilliseconds: signedDate,
            type: notification.notificationType ?? "", subtype: notification.subtype, offerIdentifier: notification.offerIdentifier,
            autoRenewProductId: notification.autoRenewProductId, autoRenewStatus: notification.renewalInfo?.autoRenewStatus,
            environment: notification.environment ?? environment, receivedMilliseconds: receivedMilliseconds,
            isRelevant: notification.kind != .notRelevant))
    }
}
