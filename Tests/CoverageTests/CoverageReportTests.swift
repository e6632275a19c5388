import Bundle
import Compiler
import Coverage
import Foundation
import Model
import Testing

@Suite struct CoverageReportTests {
    static let compilation = KnownGaps.compilation()

    static func reasons(_ report: CoverageReport, _ product: String, _ locale: String, _ key: String) -> [CoverageReason]? {
        report.cell(product: product, locale: locale)?.notReady.first { $0.key == key }?.reasons
    }

    @Test func fixtureHasNoBlockingErrors() {
        let blocking = ReleasePlan(compilation: Self.compilation).blockingErrors
        #expect(blocking.isEmpty, "\(blocking)")
    }

    @Test func everyCellIsClassifiedWithoutState() throws {
        let report = Coverage.report(compilation: Self.compilation, environment: .sandbox, state: nil)
        #expect(report.locales == ["en-US", "de-DE", "fr-FR", "ar-SA"])
        #expect(report.products.map(\.product) == [KnownGaps.yearly, KnownGaps.monthly])
        let yearly = KnownGaps.yearly
        let monthly = KnownGaps.monthly

        let counts = report.products.flatMap { product in product.cells.map { "\($0.locale) \($0.readyCount)/\($0.messageCount) \($0.status.rawValue)" } }
        #expect(counts == [
            "en-US 3/3 complete", "de-DE 2/3 partial", "fr-FR 1/3 partial", "ar-SA 3/3 complete",
            "en-US 1/1 complete", "de-DE 0/1 without-default",
        ])
        #expect(Self.reasons(report, yearly, "de-DE", "benefits") == [.stale(fields: ["header"]), .ambiguous(fields: ["body"])])
        #expect(Self.reasons(report, yearly, "fr-FR", "benefits") == [.belowMinimumState(fields: ["body"], states: ["translated"])])
        #expect(Self.reasons(report, yearly, "fr-FR", "offer") == [
            .missing(fields: ["body"]), .notTranslated(fields: ["header"], states: ["new"]),
        ])
        let failing = try #require(Self.reasons(report, monthly, "de-DE", "stay"))
        #expect(failing.map(\.kind) == [.failingRule])
        if case .failingRule(let code, _) = failing.first { #expect(code == "LEN001") }
        #expect(report.cell(product: monthly, locale: "fr-FR") == nil)
        #expect(report.cell(product: monthly, locale: "de-DE")?.notReady.first?.isDefault == true)

        #expect(report.totals == Tally(messages: 14, ready: 10, cells: 6, defaultsReady: 5))
        #expect(report.products[0].totals == Tally(messages: 12, ready: 9, cells: 4, defaultsReady: 4))
        #expect(report.localeTotals.map(\.locale) == report.locales)
        #expect(report.localeTotals[1].totals == Tally(messages: 4, ready: 2, cells: 2, defaultsReady: 1))
        #expect(!report.hasState)
        #expect(report.blockingErrorCount == 0)
    }

    @Test func reviewStateAtAppleComesFromTheStateFile() throws {
        let state = try KnownGaps.state(for: Self.compilation, environment: .production)
        let report = Coverage.report(compilation: Self.compilation, environment: .production, state: state)
        let yearly = KnownGaps.yearly
        let arabic = try #require(report.cell(product: yearly, locale: "ar-SA"))
        #expect(arabic.readyCount == 2)
        #expect(!arabic.isDefaultReady)
        #expect(arabic.status == .withoutDefault)
        let pending = try #require(Self.reasons(report, yearly, "ar-SA", "winback"))
        guard case .pending(let upload, let raw) = pending.first else { Issue.record("not pending: \(pending)"); return }
        #expect(upload.kind == .message)
        #expect(raw == "PENDING")
        let rejected = try #require(Self.reasons(report, yearly, "de-DE", "offer"))
        guard case .rejected(let rejectedUpload) = rejected.first else { Issue.record("not rejected: \(rejected)"); return }
        #expect(rejectedUpload.kind == .message)
        // Gaps and failing rules are reported as before; state is not consulted for them.
        #expect(Self.reasons(report, yearly, "de-DE", "benefits") == [.stale(fields: ["header"]), .ambiguous(fields: ["body"])])
        #expect(report.cell(product: yearly, locale: "en-US")?.readyCount == 3)
        #expect(report.totals.ready == 8)
    }

    @Test func identifiersOfTheOtherEnvironmentDoNotMatch() throws {
        let state = try KnownGaps.state(for: Self.compilation, environment: .production)
        let report = Coverage.report(compilation: Self.compilation, environment: .sandbox, state: state)
        let reasons = try #require(Self.reasons(report, KnownGaps.yearly, "en-US", "winback"))
        #expect(reasons.allSatisfy { if case .pending(_, nil) = $0 { true } else { false } })
        #expect(reasons.count == 2)  // the message and its image: neither uploaded to sandbox
    }

    @Test func failUnderComparesWithoutRounding() {
        var report = Coverage.report(compilation: Self.compilation, environment: .sandbox, state: nil)
        // 10 of 14 is 71.43%.
        #expect(!report.isBelow(percent: 71.4))
        #expect(report.isBelow(percent: 71.5))
        #expect(!report.isBelow(percent: 0))
        report.totals = Tally()
        #expect(!report.isBelow(percent: 0))
        #expect(report.isBelow(percent: 1))
    }

    @Test func sameInputSameBytes() throws {
        let state = try KnownGaps.state(for: Self.compilation, environment: .production)
        let first = Coverage.report(compilation: KnownGaps.compilation(), environment: .production, state: state)
        let second = Coverage.report(compilation: KnownGaps.compilation(), environment: .production, state: state)
        #expect(first == second)
        #expect(CoverageJSONRenderer.render(first) == CoverageJSONRenderer.render(second))
        #expect(CoverageHTMLRenderer.render(first) == CoverageHTMLRenderer.render(second))
    }
}
