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
///
/// `excluding` makes whole kinds of answer unusable: a server that cannot sign offers (no In-App
/// Purchase key) passes `[.promotionalOffer]`, and an offer arm then counts as a message the
/// locale does not have (the next arm, the split over the others, the default), rather than
/// an answer Apple would reject for its missing signature.
public enum AnswerChooser {
    public static func choose(
        in snapshot: RealtimeSnapshot, product: String, userLocale: String, originalTransactionId: String,
        excluding: Set<RealtimeSnapshot.Answer.Kind> = []
    ) -> RealtimeSnapshot.Answer? {
        guard let product = snapshot.product(product), let locale = product.answering(userLocale) else { return nil }
        return choose(for: product, in: locale, originalTransactionId: originalTransactionId, excluding: excluding)
    }

    /// The choice among `locale`'s messages (the locale of `product` that answers the request).
    public static func choose(
        for product: RealtimeSnapshot.Product, in locale: RealtimeSnapshot.Locale, originalTransactionId: String,
        excluding: Set<RealtimeSnapshot.Answer.Kind> = []
    ) -> RealtimeSnapshot.Answer? {
        func allowed(_ answer: RealtimeSnapshot.Answer) -> Bool { !excluding.contains(answer.kind) }
        let usable = product.realtime.compactMap { arm in
            locale.message(key: arm.message).flatMap { allowed($0) ? (answer: $0, weight: arm.weight) : nil }
        }
        guard !usable.isEmpty, let choice = product.choice else { return locale.defaultMessage.flatMap { allowed($0) ? $0 : nil } }
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
