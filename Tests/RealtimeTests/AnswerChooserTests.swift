import Model
import Testing

@testable import Realtime

@Suite struct AnswerChooserTests {
    static let product = "com.example.news.premium.yearly"

    @Test func firstUsableThenDefault() {
        var snapshot = RealtimeDiagnostics.exampleSnapshot
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-GB", originalTransactionId: "1")?.key == "half-price")
        snapshot.products[2].realtime = [.init(message: "last-chance", weight: 1), .init(message: "go-monthly", weight: 1)]
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "1")?.key == "go-monthly")
        snapshot.products[2].realtime = [.init(message: "last-chance", weight: 1)]
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "1")?.key == "winback")
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "ja", originalTransactionId: "1") == nil)
        #expect(AnswerChooser.choose(in: snapshot, product: "com.example.other", userLocale: "en-US", originalTransactionId: "1") == nil)
    }

    /// A split by weight: stable per subscriber, and near the weights over many subscribers.
    @Test func weightedSplitIsStableAndFollowsTheWeights() {
        var snapshot = RealtimeDiagnostics.exampleSnapshot
        snapshot.products[2].choice = .weighted
        snapshot.products[2].realtime = [.init(message: "half-price", weight: 3), .init(message: "winback", weight: 1)]
        var counts: [String: Int] = [:]
        for subscriber in 0..<4_000 {
            let id = "2000000\(subscriber)"
            let first = AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: id)
            #expect(first == AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: id))
            counts[first?.key ?? "none", default: 0] += 1
        }
        #expect((2_800...3_200).contains(counts["half-price"] ?? 0), "\(counts)")
        #expect((counts["half-price"] ?? 0) + (counts["winback"] ?? 0) == 4_000)
        #expect(AnswerChooser.stableHash("abc") == 0xe71f_a219_0541_574b)
    }
}

extension AnswerChooserTests {
    /// Kinds excluded (offers, when no key can sign them) are messages the locale does not have.
    @Test func excludedKindsFallThroughToTheNextArmOrTheDefault() {
        var snapshot = RealtimeDiagnostics.exampleSnapshot
        let offers: Set<RealtimeSnapshot.Answer.Kind> = [.promotionalOffer]
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "1", excluding: offers)?.key == "winback")
        snapshot.products[2].realtime = [.init(message: "half-price", weight: 1), .init(message: "go-monthly", weight: 1)]
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "1", excluding: offers)?.key == "go-monthly")
        snapshot.products[2].choice = .weighted
        snapshot.products[2].realtime = [.init(message: "half-price", weight: 1_000), .init(message: "go-monthly", weight: 1)]
        for subscriber in 0..<50 {
            #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "\(subscriber)", excluding: offers)?.key == "go-monthly")
        }
        snapshot.products[2].locales[0].defaultKey = "half-price"
        snapshot.products[2].realtime = [.init(message: "half-price", weight: 1)]
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "1", excluding: offers) == nil)
        #expect(AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "1")?.key == "half-price")
    }
}

extension AnswerChooserTests {
    /// Issue 43 case 5: an arm that becomes unusable (in review, rejected) moves only its own
    /// subscribers; when it comes back they return, and nobody else ever moves. Over 10,000 ids
    /// the shares follow the weights within 2 points (the hash is fixed, so the figures are too).
    @Test func stableArmsMoveOnlyTheSubscribersOfTheArmThatLeft() {
        var snapshot = RealtimeDiagnostics.exampleSnapshot
        snapshot.products[2].choice = .weighted
        // en-US, its only locale, holds go-monthly, half-price and winback.
        snapshot.products[2].realtime = [
            .init(message: "go-monthly", weight: 1), .init(message: "half-price", weight: 2), .init(message: "winback", weight: 1),
        ]
        let ids = (0..<10_000).map { "20000\(7_000_000 + $0 * 37)" }
        func arms(_ snapshot: RealtimeSnapshot) -> [String] {
            ids.map { AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: $0)?.key ?? "none" }
        }
        func shares(_ chosen: [String]) -> [String: Double] {
            chosen.reduce(into: [:]) { $0[$1, default: 0] += 100.0 / Double(chosen.count) }
        }
        let before = arms(snapshot)
        let share = shares(before)
        #expect(abs((share["go-monthly"] ?? 0) - 25) < 2 && abs((share["half-price"] ?? 0) - 50) < 2 && abs((share["winback"] ?? 0) - 25) < 2, "\(share)")

        // half-price stops being usable (its edit waits for review): only its subscribers move.
        var without = snapshot
        without.products[2].locales[0].messages.removeAll { $0.key == "half-price" }
        let during = arms(without)
        var moved = 0
        for (old, new) in zip(before, during) where old != new {
            #expect(old == "half-price", "a subscriber of \(old) moved to \(new)")
            moved += 1
        }
        #expect(moved == before.count { $0 == "half-price" })
        let split = shares(during)
        #expect(abs((split["go-monthly"] ?? 0) - 50) < 2 && abs((split["winback"] ?? 0) - 50) < 2, "\(split)")

        // It comes back, in a new snapshot generation with other identifiers: everybody is where they were.
        var back = snapshot
        back.bundleDigest = "sha256:" + String(repeating: "1", count: 64)
        for index in back.products[2].locales[0].messages.indices { back.products[2].locales[0].messages[index].identifier = "00000000-0000-5000-8000-00000000ffff" }
        #expect(arms(back) == before)

        // Another arm joins: subscribers move only onto it, never between the arms that stayed.
        var joined = snapshot
        joined.products[2].realtime.append(.init(message: "go-monthly-2", weight: 1))
        var extra = joined.products[2].locales[0].messages[0]
        extra.key = "go-monthly-2"
        joined.products[2].locales[0].messages.append(extra)
        for (old, new) in zip(before, arms(joined)) where old != new { #expect(new == "go-monthly-2", "\(old) → \(new)") }
    }

    /// Weights as large as msgc.yaml allows, and beyond, neither overflow nor starve an arm of weight 1.
    @Test func anyWeightIsSafe() {
        var snapshot = RealtimeDiagnostics.exampleSnapshot
        snapshot.products[2].choice = .weighted
        snapshot.products[2].realtime = [.init(message: "go-monthly", weight: Int.max), .init(message: "winback", weight: Int.max)]
        var counts: [String: Int] = [:]
        for subscriber in 0..<2_000 {
            counts[AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "\(subscriber)")?.key ?? "none", default: 0] += 1
        }
        #expect((900...1_100).contains(counts["go-monthly"] ?? 0), "\(counts)")
        snapshot.products[2].realtime = [.init(message: "go-monthly", weight: 1_000_000), .init(message: "winback", weight: 1)]
        let winback = (0..<20_000).count { AnswerChooser.choose(in: snapshot, product: Self.product, userLocale: "en-US", originalTransactionId: "\($0)")?.key == "winback" }
        #expect(winback <= 5, "\(winback)")
    }
}
