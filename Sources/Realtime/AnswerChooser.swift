import Foundation
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
/// The weighted split is weighted rendezvous hashing (docs/realtime.md, "Stable arms"): each
/// usable arm scores `-ln(u) / weight`, `u` a hash of the subscriber, the product and the arm's
/// message key mapped into (0, 1), and the lowest score wins. A subscriber's score for an arm
/// depends on nothing else, so a subscriber changes arm only when their own arm stops being
/// usable, and comes back when it does; arms leaving and coming back, and new snapshot
/// generations, move nobody else. Each arm wins with probability weight / total.
///
/// `excluding` makes whole kinds of answer unusable: a server that cannot sign offers (no In-App
/// Purchase key) passes `[.promotionalOffer]`, and an offer arm then counts as a message the
/// locale does not have (the next arm, the split over the others, the default), rather than
/// an answer Apple would reject for its missing signature.
///
/// `preferring` names the arm a caller already settled for the subscriber (a server with an
/// experiment store keeps each subscriber's first arm, docs/realtime.md, "Experiments"): of a
/// weighted product, that arm answers whenever it is usable here; when it is not, the choice is
/// made as without it.
public enum AnswerChooser {
    public static func choose(
        in snapshot: RealtimeSnapshot, product: String, userLocale: String, originalTransactionId: String,
        excluding: Set<RealtimeSnapshot.Answer.Kind> = [], preferring: String? = nil
    ) -> RealtimeSnapshot.Answer? {
        guard let product = snapshot.product(product), let locale = product.answering(userLocale) else { return nil }
        return choose(for: product, in: locale, originalTransactionId: originalTransactionId, excluding: excluding, preferring: preferring)
    }

    /// The choice among `locale`'s messages (the locale of `product` that answers the request).
    public static func choose(
        for product: RealtimeSnapshot.Product, in locale: RealtimeSnapshot.Locale, originalTransactionId: String,
        excluding: Set<RealtimeSnapshot.Answer.Kind> = [], preferring: String? = nil
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
            if let preferring, let preferred = usable.first(where: { $0.answer.key == preferring && $0.weight > 0 }) {
                return preferred.answer
            }
            var best: (answer: RealtimeSnapshot.Answer, score: Double)?
            for arm in usable where arm.weight > 0 {
                let score = rendezvousScore(subscriber: originalTransactionId, product: product.id, arm: arm.answer.key, weight: arm.weight)
                if best == nil || score < best!.score { best = (arm.answer, score) }
            }
            return best?.answer ?? usable[0].answer
        }
    }

    /// `-ln(u) / weight`, `u` in (0, 1) from the subscriber, product and arm: the arm with the
    /// lowest score wins. Exponentially distributed with rate `weight`, so each arm's chance of
    /// the minimum is its weight's share. No integer arithmetic on the weight: any weight is safe.
    static func rendezvousScore(subscriber: String, product: String, arm: String, weight: Int) -> Double {
        let hash = mixed(stableHash(subscriber + "\n" + product + "\n" + arm))
        // The top 53 bits, plus one half: never 0 or 1, so the logarithm is finite and negative.
        let unit = (Double(hash >> 11) + 0.5) / 9_007_199_254_740_992.0
        return -log(unit) / Double(weight)
    }

    /// SplitMix64's finalizer: FNV-1a of texts that differ in their last bytes differ little in
    /// their high bits; this spreads every input bit over all 64.
    static func mixed(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
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
