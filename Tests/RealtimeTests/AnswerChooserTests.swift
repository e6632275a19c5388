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
