import Bundle
import Diagnostics
import Model

/// The findings of `msgc realtime snapshot` and `msgc realtime check`. A snapshot or a server's
/// answer is not part of the content tree, so these codes are explained by `msgc explain`
/// beside the tree's, and their examples are answers (`response.json`) judged against the
/// example snapshot of `RealtimeDiagnostics.exampleSnapshot` for product
/// `com.example.news.premium.yearly` in `en-US`.
public enum RealtimeDiagnostics {
    static let text = "0f6c1c7e-6a55-5e0b-9d2e-4f1a8b2c3d4e"
    static let withImage = "6b1d0c2a-1e3f-5a7b-8c9d-0e1f2a3b4c5d"
    static let switchPlan = "9a0e7a54-3c1b-5d2e-8f40-1b2c3d4e5f60"
    static let offer = "c3d4e5f6-a7b8-5c9d-8e0f-1a2b3c4d5e6f"
    static let pending = "d1e2f3a4-b5c6-5d7e-8f90-a1b2c3d4e5f6"
    static let image = "e5f6a7b8-c9d0-5e1f-9a2b-3c4d5e6f7a8b"
    /// A switch-plan message that shows an image: msgc's lint refuses one (IMG006), but a
    /// snapshot made by hand, or by another tool, may hold it.
    static let switchWithImage = "f7a8b9c0-d1e2-5f3a-8b4c-5d6e7f8a9b0c"

    public static let messageLeftOut = RuleInfo(
        code: "RTM001", name: "realtime-message-left-out", severity: .warning,
        summary: "The realtime snapshot leaves a message out for a reason the sources or Apple's review must settle.",
        rationale: "A message Apple rejected, a promotional-offer message without `offer` or a switch-plan message without `switchTo` can never be a realtime answer, and no later review changes that. The snapshot lists every message it leaves out with its reason; these reasons are said as warnings, while one waiting for review or upload is only counted, as a release waits for it.",
        examples: [
            .validFile("snapshot.json", #"{"omitted": [{"key": "half-price", "reason": "pending", "detail": "message … is PENDING at Apple (in review)"}]}"#),
            .invalidFile("snapshot.json", #"{"omitted": [⟦{"key": "half-price", "reason": "no-offer-id", "detail": "promotional-offer message without `offer`"}⟧]}"#),
        ])

    public static let invalidResponse = RuleInfo(
        code: "RTM002", name: "invalid-realtime-response", severity: .error,
        summary: "A realtime answer is not the JSON object Apple reads, or one of its members has the wrong shape.",
        rationale: "Apple reads a `RealtimeResponseBody`: a JSON object whose answer carries a `messageIdentifier` (a UUID string) and, for `alternateProduct`, a `productId`. Anything else is an answer Apple cannot use, and it falls back silently to a message set up in App Store Connect or the default.",
        examples: [
            .validFile("response.json", #"{"message": {"messageIdentifier": "\#(text)"}}"#),
            .invalidFile("response.json", #"{"message": {"messageIdentifier": ⟦42⟧}}"#),
        ])

    public static let notExactlyOneAnswer = RuleInfo(
        code: "RTM003", name: "not-exactly-one-answer", severity: .error,
        summary: "A realtime answer has none, or more than one, of `message`, `alternateProduct` and `promotionalOffer`.",
        rationale: "Apple's `RealtimeResponseBody` takes exactly one answer. A server that sends two, or puts `messageIdentifier` at the top level as some published servers do, gets no message shown from its answer.",
        examples: [
            .validFile("response.json", #"{"message": {"messageIdentifier": "\#(text)"}}"#),
            .invalidFile("response.json", #"⟦{⟧"messageIdentifier": "\#(text)"}"#),
        ])

    public static let messageNotAnswerable = RuleInfo(
        code: "RTM004", name: "message-not-answerable", severity: .error,
        summary: "A realtime answer names a message that is not approved, or not meant for the request's product and locale.",
        rationale: "Apple shows only an APPROVED message (and approved images); msgc's identifiers differ per product, locale and environment, so an identifier from another product, locale or environment, or one still in review, is an answer Apple cannot show.",
        examples: [
            .validFile("response.json", #"{"message": {"messageIdentifier": "\#(text)"}}"#),
            .invalidFile("response.json", #"{"message": {"messageIdentifier": ⟦"\#(pending)"⟧}}"#),
        ])

    public static let answerKindMismatch = RuleInfo(
        code: "RTM005", name: "answer-kind-mismatch", severity: .error,
        summary: "A realtime answer carries a message in the wrong member: a text message as an offer, a switch-plan message as `message`.",
        rationale: "Apple shows a text message through `message`, a switch-plan message through `alternateProduct` (with the product it offers) and a promotional-offer message through `promotionalOffer` (with the offer's signature). A message in another member lacks what Apple shows beside it.",
        examples: [
            .validFile("response.json", #"{"alternateProduct": {"messageIdentifier": "\#(switchPlan)", "productId": "com.example.news.premium.monthly"}}"#),
            .invalidFile("response.json", #"{⟦"message"⟧: {"messageIdentifier": "\#(switchPlan)"}}"#),
        ])

    public static let imageOnOfferAnswer = RuleInfo(
        code: "RTM006", name: "image-on-offer-answer", severity: .error,
        summary: "An `alternateProduct` or `promotionalOffer` answer names a message that has an image or bullet points.",
        rationale: "Apple shows the plan or the offer where the image would be: the message of an `alternateProduct` or `promotionalOffer` answer must have no image.",
        examples: [
            .validFile("response.json", #"{"message": {"messageIdentifier": "\#(withImage)"}}"#),
            .invalidFile("response.json", #"{"alternateProduct": {"messageIdentifier": ⟦"\#(switchWithImage)"⟧, "productId": "com.example.news.premium.monthly"}}"#),
        ])

    public static let alternateProductNotInGroup = RuleInfo(
        code: "RTM007", name: "alternate-product-not-in-group", severity: .error,
        summary: "An `alternateProduct` answer offers a product that is not another product of the same subscription group, or not the one (or not billed as) its message offers.",
        rationale: "Apple switches a subscriber only to another subscription of the same group. The message's text speaks of the plan its `switchTo` names, billed as its `billingPlanType` says; another plan or another billing under that text misleads the subscriber.",
        examples: [
            .validFile("response.json", #"{"alternateProduct": {"messageIdentifier": "\#(switchPlan)", "productId": "com.example.news.premium.monthly"}}"#),
            .invalidFile("response.json", #"{"alternateProduct": {"messageIdentifier": "\#(switchPlan)", "productId": ⟦"com.example.news.basic.monthly"⟧}}"#),
        ])

    public static let offerSignatureMismatch = RuleInfo(
        code: "RTM008", name: "offer-signature-mismatch", severity: .error,
        summary: "A `promotionalOffer` answer has no signature, or its signature names another offer, product or audience.",
        rationale: "Apple applies the offer the signature names, for the product it names. A `promotionalOfferSignatureV2` is a JWS whose claims must name the message's offer (`offerIdentifier`), the request's product (`productId`) and the audience `promotional-offer`; msgc reads the claims (the signature itself needs the key's public half, which Apple checks).",
        examples: [
            .validFile("response.json", #"{"promotionalOffer": {"messageIdentifier": "\#(offer)", "promotionalOfferSignatureV2": "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJhdWQiOiJwcm9tb3Rpb25hbC1vZmZlciIsIm9mZmVySWRlbnRpZmllciI6InByZW1pdW0uaGFsZl9wcmljZSIsInByb2R1Y3RJZCI6ImNvbS5leGFtcGxlLm5ld3MucHJlbWl1bS55ZWFybHkiLCJpc3MiOiI1NzI0NjU0Mi05NmZlLTFhNjMtZTA1My0wODI0ZDAxMTA3MmEiLCJiaWQiOiJjb20uZXhhbXBsZS5uZXdzIn0.c2lnbmF0dXJl"}}"#),
            .invalidFile("response.json", #"{⟦"promotionalOffer"⟧: {"messageIdentifier": "\#(offer)"}}"#),
        ])

    public static let unknownResponseMember = RuleInfo(
        code: "RTM009", name: "unknown-response-member", severity: .warning,
        summary: "A realtime answer has a member Apple's `RealtimeResponseBody` does not define.",
        rationale: "Apple ignores members it does not know; one there is usually a misspelt answer (`promotionalOffers`) or a field meant for another place, and what it meant never reaches the subscriber.",
        examples: [
            .validFile("response.json", #"{"message": {"messageIdentifier": "\#(text)"}}"#),
            .invalidFile("response.json", #"{"message": {"messageIdentifier": "\#(text)"}, ⟦"locale"⟧: "en-US"}"#),
        ])

    public static let answerExpected = RuleInfo(
        code: "RTM010", name: "answer-expected", severity: .error,
        summary: "A server answered nothing (404) where the snapshot has an answer for the request's product and locale.",
        rationale: "`msgc realtime check --no-answer` asserts that answering nothing is right: no locale of the product answers the request's `userLocale`, or the locale that does has neither a usable `realtime:` message nor a default. Where the snapshot has an answer, a server that answers nothing leaves Apple to fall back to a message set up in App Store Connect or the default it holds, and the realtime message is never shown.",
        examples: [
            .validFile("request.txt", "--no-answer --product com.example.news.premium.yearly --locale ko-KR"),
            .invalidFile("request.txt", "--no-answer --product com.example.news.premium.yearly --locale ⟦en-GB⟧"),
        ])

    /// Every code, sorted.
    public static let all: [RuleInfo] = [
        messageLeftOut, invalidResponse, notExactlyOneAnswer, messageNotAnswerable, answerKindMismatch, imageOnOfferAnswer,
        alternateProductNotInGroup, offerSignatureMismatch, unknownResponseMember, answerExpected,
    ]

    /// The info for a code or a rule name, case-insensitively.
    public static func info(for codeOrName: String) -> RuleInfo? {
        let wanted = codeOrName.lowercased()
        return all.first { $0.code.lowercased() == wanted || $0.name == wanted }
    }

    /// The snapshot the response examples are judged against: product
    /// `com.example.news.premium.yearly` of group `premium`, locale `en-US`.
    public static var exampleSnapshot: RealtimeSnapshot {
        let yearly = "com.example.news.premium.yearly"
        let monthly = "com.example.news.premium.monthly"
        let messages: [RealtimeSnapshot.Answer] = [
            .init(key: "winback", type: .text, identifier: text, images: [], version: .current),
            .init(key: "benefits", type: .text, identifier: withImage, images: [image], version: .current),
            .init(key: "go-monthly", type: .switchPlan, identifier: switchPlan, images: [], productId: monthly, version: .current),
            .init(key: "go-monthly-pictured", type: .switchPlan, identifier: switchWithImage, images: [image], productId: monthly, version: .current),
            .init(key: "half-price", type: .promotionalOffer, identifier: offer, images: [], offerIdentifier: "premium.half_price", version: .current),
        ]
        return RealtimeSnapshot(
            generatorVersion: "example", bundleId: "com.example.news", environment: .production,
            bundleDigest: "sha256:" + String(repeating: "0", count: 64), release: nil,
            products: [
                .init(id: monthly, group: "premium", choice: nil, realtime: [], locales: []),
                .init(id: "com.example.news.basic.monthly", group: "basic", choice: nil, realtime: [], locales: []),
                .init(id: yearly, group: "premium", choice: .firstUsable, realtime: [.init(message: "half-price", weight: 1)], locales: [
                    .init(locale: "en-US", defaultKey: "winback", messages: messages.sorted { $0.key < $1.key }),
                ]),
            ],
            omitted: [.init(product: yearly, locale: "en-US", key: "last-chance", identifier: pending, reason: .pending, detail: "message \(pending) is PENDING at Apple (in review)")])
    }
}

extension RuleInfo {
    func finding(_ message: String, at location: SourceLocation, fixIts: [FixIt] = []) -> Diagnostic {
        Diagnostic(code: code, severity: severity, location: location, message: message, fixIts: fixIts)
    }
}
