import Model
/// Picks the message a realtime server answers with, from a snapshot: for the request's product,
/// its subscriber (`originalTransactionId`) and locale (`userLocale`).
///
/// The locale that answers `userLocale` (`LocaleMatcher`) holds the usable messages. A product
/// whose `realtime:` is a list answers with the first listed message the locale has; a weighted
/// one splits the listed messages the locale has by weight, by a hash of the subscriber and the
/// product, so the same subscriber always gets the same arm while the arms stay the same. Nothing
/// listed is usable, or no `realtime:`: the locale's default. Nil: the server has nothing to
/// answer with, and Apple falls back by itself.
public enum AnswerChooser {
    public static func choose(
        in snapshot: RealtimeSnapshot, product: String, userLocale: String, originalTransactionId: String
    ) -> RealtimeSnapshot.Answer? {
        guard let product = snapshot.product(product), let locale = product.answering(userLocale) else { return nil }
        let usable = product.realtime.compactMap { arm in locale.message(key: arm.message).map { (answer: $0, weight: arm.weight) } }
        guard !usable.isEmpty, let choice = product.choice else { return locale.defaultMessage }
        switch choice {
        case .firstUsable:
            return usable[0].answer
        case .weighted:
            let total = usable.reduce(0) { $0 + UInt64($1.weight) }
            var point = stableHash(originalTransactionId + "\n" + product.id) % total
            for arm in usable {
                if point < UInt64(arm.weight) { return arm.answer }
                point -= UInt64(arm.weight)
            }
            return usable[usable.count - 1].answer
        }
    }

    /// FNV-1a over the UTF-8 bytes: the same on every platform and in every process, unlike
    /// Swift's `Hasher`, which is seeded per process.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
