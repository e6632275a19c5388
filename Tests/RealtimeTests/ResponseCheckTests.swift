import Diagnostics
import Foundation
import Model
import Testing

@testable import Realtime

/// Every example of every realtime code, judged against the example snapshot; and answers
/// Apple reads one way whatever their spelling.
@Suite struct ResponseCheckTests {
    static let request = ResponseCheck.Request(product: "com.example.news.premium.yearly", userLocale: "en-US")

    struct Case: Sendable, CustomTestStringConvertible {
        var info: RuleInfo
        var example: RuleExample
        var testDescription: String { "\(info.code) \(example.kind.rawValue) \(example.text.prefix(40))" }
    }

    static let responseCases: [Case] = RealtimeDiagnostics.all.flatMap { info in
        info.examples.filter { $0.path == "response.json" }.map { Case(info: info, example: $0) }
    }

    /// `⟦…⟧` marks where the finding must point; removed before checking.
    static func unmarked(_ text: String) -> (text: String, spans: [(line: Int, column: Int, length: Int)]) {
        var clean = ""
        var spans: [(Int, Int, Int)] = []
        var line = 1
        var column = 1
        var open: (Int, Int)?
        for scalar in text.unicodeScalars {
            switch scalar {
            case "⟦": open = (line, column)
            case "⟧": if let start = open { spans.append((start.0, start.1, column - start.1)) }
            default:
                clean.unicodeScalars.append(scalar)
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            }
        }
        return (clean, spans)
    }

    @Test(arguments: responseCases)
    func example(_ testCase: Case) {
        let (text, spans) = Self.unmarked(testCase.example.text)
        let findings = ResponseCheck.check(Array(text.utf8), path: "response.json", snapshot: RealtimeDiagnostics.exampleSnapshot, request: Self.request)
        switch testCase.example.kind {
        case .valid:
            #expect(findings.isEmpty, "\(findings.map(\.message))")
        case .invalid:
            #expect(findings.map(\.code) == [testCase.info.code], "\(findings.map { "\($0.code) \($0.message)" })")
            let located = findings.map { ($0.location.line, $0.location.column, ($0.location.endColumn ?? 0) - ($0.location.column ?? 0)) }
            #expect(located.count == spans.count)
            for (found, span) in zip(located, spans) {
                #expect(found.0 == span.line && found.1 == span.column && found.2 == span.length, "found \(found), marked \(span)")
            }
        }
    }

    @Test func everyCodeHasValidAndInvalidExamples() {
        for info in RealtimeDiagnostics.all {
            #expect(info.examples.contains { $0.kind == .valid }, "\(info.code)")
            #expect(info.examples.contains { $0.kind == .invalid }, "\(info.code)")
            #expect(info.summary.hasSuffix("."))
        }
        let codes = RealtimeDiagnostics.all.map(\.code)
        #expect(codes == codes.sorted() && Set(codes).count == codes.count)
    }

    /// `--no-answer`: answering nothing is right only where the snapshot has no answer either.
    @Test func noAnswerIsRightOnlyWhereTheSnapshotHasNone() throws {
        let snapshot = RealtimeDiagnostics.exampleSnapshot
        let yearly = Self.request.product
        // No locale answers Korean: nothing is right.
        #expect(ResponseCheck.checkNoAnswer(path: "s.json", snapshot: snapshot, request: .init(product: yearly, userLocale: "ko-KR")).isEmpty)
        // A product with no locale at all: nothing is right.
        #expect(ResponseCheck.checkNoAnswer(path: "s.json", snapshot: snapshot, request: .init(product: "com.example.news.premium.monthly", userLocale: "en-US")).isEmpty)
        // en-GB is answered by en-US, whose realtime list offers half price: an answer was due.
        let due = ResponseCheck.checkNoAnswer(path: "s.json", snapshot: snapshot, request: .init(product: yearly, userLocale: "en-GB"))
        #expect(due.map(\.code) == ["RTM010"])
        #expect(due.first?.message.contains("'half-price' (its realtime: list)") == true, "\(due.map(\.message))")
        #expect(due.first?.location.path == "s.json" && due.first?.location.line == nil)
        // Without the realtime list, the locale's default is the answer that was due.
        var defaulted = snapshot
        let index = try #require(defaulted.products.firstIndex { $0.id == yearly })
        defaulted.products[index].realtime = []
        defaulted.products[index].choice = nil
        let fallback = ResponseCheck.checkNoAnswer(path: "s.json", snapshot: defaulted, request: .init(product: yearly, userLocale: "en-US"))
        #expect(fallback.first?.message.contains("its default 'winback'") == true, "\(fallback.map(\.message))")
        // Neither a realtime list nor a default: nothing is right.
        defaulted.products[index].locales[0].defaultKey = nil
        #expect(ResponseCheck.checkNoAnswer(path: "s.json", snapshot: defaulted, request: .init(product: yearly, userLocale: "en-US")).isEmpty)
    }

    /// An empty answer (what a 404 carries) says how to check that instead.
    @Test func anEmptyAnswerPointsToNoAnswer() {
        let findings = ResponseCheck.check([0x0A], path: "r.json", snapshot: RealtimeDiagnostics.exampleSnapshot, request: Self.request)
        #expect(findings.map(\.code) == ["RTM002"])
        #expect(findings.first?.fixIts.first?.message.contains("--no-answer") == true)
    }

    @Test func theRequestsLocaleIsMatched() {
        let snapshot = RealtimeDiagnostics.exampleSnapshot
        let answer = Array(#"{"message": {"messageIdentifier": "0F6C1C7E-6A55-5E0B-9D2E-4F1A8B2C3D4E"}}"#.utf8)
        #expect(ResponseCheck.check(answer, path: "r", snapshot: snapshot, request: .init(product: Self.request.product, userLocale: "en-GB")).isEmpty)
        let wrongLocale = ResponseCheck.check(answer, path: "r", snapshot: snapshot, request: .init(product: Self.request.product, userLocale: "de-DE"))
        #expect(wrongLocale.map(\.code) == ["RTM004"])
    }

    @Test func identifiersOfAnotherProductOrLeftOutSayWhy() {
        var snapshot = RealtimeDiagnostics.exampleSnapshot
        let pending = ResponseCheck.check(
            Array(#"{"message": {"messageIdentifier": "d1e2f3a4-b5c6-5d7e-8f90-a1b2c3d4e5f6"}}"#.utf8), path: "r", snapshot: snapshot, request: Self.request)
        #expect(pending.first?.message.contains("pending") == true)
        snapshot.products[0].locales = [.init(locale: "en-US", defaultKey: nil, messages: [
            .init(key: "stay", type: .text, identifier: "11111111-2222-5333-8444-555555555555", images: [], version: .current),
        ])]
        let other = ResponseCheck.check(
            Array(#"{"message": {"messageIdentifier": "11111111-2222-5333-8444-555555555555"}}"#.utf8), path: "r", snapshot: snapshot, request: Self.request)
        #expect(other.first?.message.contains("of com.example.news.premium.monthly in en-US") == true)
    }

    /// A member of the wrong kind is named by its path from the answer's root, and underlined.
    @Test func wrongKindsAreNamedByTheirPath() {
        let snapshot = RealtimeDiagnostics.exampleSnapshot
        func findings(_ text: String) -> [(String, Int?, Int?)] {
            ResponseCheck.check(Array(text.utf8), path: "r", snapshot: snapshot, request: Self.request)
                .filter { $0.code == "RTM002" }.map { ($0.message, $0.location.column, $0.location.endColumn) }
        }
        #expect(findings(#"{"message": []}"#).map(\.0) == ["'message' must be an object, not an array"])
        #expect(findings(#"{"message": {}}"#).map(\.0) == ["'message' has no 'messageIdentifier'"])
        let number = findings(#"{"message": {"messageIdentifier": 12}}"#)
        #expect(number.map(\.0) == ["'message.messageIdentifier' must be a string, not a number"])
        #expect(number.first.map { [$0.1, $0.2] } == [35, 37])
        let signature = #"{"promotionalOffer": {"messageIdentifier": "c3d4e5f6-a7b8-5c9d-8e0f-1a2b3c4d5e6f", "promotionalOfferSignatureV2": 1}}"#
        #expect(findings(signature).map(\.0) == ["'promotionalOffer.promotionalOfferSignatureV2' must be a string, not a number"])
    }

    @Test func hostileAnswersAreFindingsNeverCrashes() {
        let snapshot = RealtimeDiagnostics.exampleSnapshot
        for text in ["", "[]", "null", "{", #"{"message": []}"#, #"{"message": {}}"#, String(repeating: "[", count: 10_000),
                     #"{"promotionalOffer": {"messageIdentifier": "c3d4e5f6-a7b8-5c9d-8e0f-1a2b3c4d5e6f", "promotionalOfferSignatureV2": "a.%%%.c"}}"#,
                     #"{"promotionalOffer": {"messageIdentifier": "c3d4e5f6-a7b8-5c9d-8e0f-1a2b3c4d5e6f", "promotionalOfferSignatureV1": {}}}"#] {
            let findings = ResponseCheck.check(Array(text.utf8), path: "r", snapshot: snapshot, request: Self.request)
            #expect(findings.contains { $0.severity == .error }, "\(text.prefix(30))")
        }
    }
}

/// `alternateProduct.billingPlanType` (API 1.5): Apple's values only, and the message's.
@Suite struct BillingPlanCheckTests {
    static func findings(_ plan: String?, snapshot: RealtimeSnapshot = RealtimeFixtures.snapshot()) -> [Diagnostic] {
        let message = snapshot.products[1].locales.first { $0.locale == "de-DE" }!.messages.first { $0.key == "go-monthly" }!
        let billing = plan.map { #", "billingPlanType": \#($0)"# } ?? ""
        let answer = #"{"alternateProduct": {"messageIdentifier": "\#(message.identifier)", "productId": "\#(RealtimeFixtures.monthly)"\#(billing)}}"#
        return ResponseCheck.check(Array(answer.utf8), path: "answer.json", snapshot: snapshot,
                                   request: .init(product: RealtimeFixtures.yearly, userLocale: "de-DE"))
    }

    @Test func theMessagesPlanIsRequiredAndAnotherOrAnUnknownOneIsAFinding() {
        #expect(Self.findings(#""MONTHLY""#).isEmpty)
        #expect(Self.findings(nil).map(\.code) == ["RTM007"])
        #expect(Self.findings(nil).first?.message.contains("no billingPlanType") == true)
        #expect(Self.findings(#""BILLED_UPFRONT""#).map(\.code) == ["RTM007"])
        #expect(Self.findings(#""WEEKLY""#).map(\.code) == ["RTM002"])
        #expect(Self.findings(#""monthly""#).map(\.code) == ["RTM002"])
        #expect(Self.findings("12").map(\.code) == ["RTM002"])
    }

    @Test func aMessageWithoutAPlanTakesNone() {
        var snapshot = RealtimeFixtures.snapshot()
        for index in snapshot.products[1].locales.indices {
            for message in snapshot.products[1].locales[index].messages.indices {
                snapshot.products[1].locales[index].messages[message].billingPlanType = nil
            }
        }
        #expect(Self.findings(nil, snapshot: snapshot).isEmpty)
        #expect(Self.findings(#""MONTHLY""#, snapshot: snapshot).map(\.code) == ["RTM007"])
    }
}
