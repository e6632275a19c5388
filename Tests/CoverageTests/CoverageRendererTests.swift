import Coverage
import Bundle
import Foundation
import Model
import TestSupport
import Testing

/// Golden files for every format, made from the known-gaps fixture with its state file in
/// production: every kind of reason appears in them.
@Suite struct CoverageRendererTests {
    static let compilation = KnownGaps.compilation()

    static func report() throws -> CoverageReport {
        let state = try KnownGaps.state(for: compilation, environment: .production)
        return Coverage.report(compilation: compilation, environment: .production, state: state)
    }

    @Test func stateFileGolden() throws {
        KnownGaps.golden.check(KnownGaps.stateJSON(try KnownGaps.state(for: Self.compilation, environment: .production)), against: "known-gaps/state.json")
    }

    @Test func jsonGolden() throws {
        KnownGaps.golden.check(CoverageJSONRenderer.render(try Self.report()), against: "known-gaps/expected/coverage.json")
    }

    @Test func jsonWithoutStateGolden() throws {
        let report = Coverage.report(compilation: Self.compilation, environment: .sandbox, state: nil)
        KnownGaps.golden.check(CoverageJSONRenderer.render(report), against: "known-gaps/expected/coverage-sandbox.json")
    }

    @Test func markdownGolden() throws {
        KnownGaps.golden.check(CoverageMarkdownRenderer.render(try Self.report()), against: "known-gaps/expected/coverage.md")
    }

    @Test func tableGolden() throws {
        KnownGaps.golden.check(CoverageTableRenderer.render(try Self.report()), against: "known-gaps/expected/coverage.txt")
    }

    @Test func htmlGolden() throws {
        KnownGaps.golden.check(CoverageHTMLRenderer.render(try Self.report()), against: "known-gaps/expected/coverage.html")
    }

    @Test func jsonStartsWithItsSchemaVersionAndIsCanonical() throws {
        let text = CoverageJSONRenderer.render(try Self.report())
        #expect(text.contains("\n  \"schemaVersion\": 1,\n"))
        #expect(text.hasSuffix("}\n"))
        #expect(!text.contains("\\/"))
        #expect(text.contains("\"status\": \"without-default\""))
        for kind in CoverageReason.Kind.allCases { #expect(text.contains("\"reason\": \"\(kind.rawValue)\""), "\(kind)") }
    }

    @Test func everyFormatNamesEveryKindOfGap() throws {
        let report = try Self.report()
        let words = [
            "stale: header", "below minimumState (translated): body", "missing: body", "LEN001", "PENDING at Apple",
            "REJECTED at Apple", "not translated (new): header", "ambiguous (repeated units with different targets): body",
        ]
        for (name, text) in [
            ("table", CoverageTableRenderer.render(report)), ("markdown", CoverageMarkdownRenderer.render(report)),
            ("html", CoverageHTMLRenderer.render(report)),
        ] {
            for word in words { #expect(text.contains(word), "\(name) lacks \(word)") }
        }
    }

    @Test func tableFitsOneHundredColumnsAndColoursOnlyWhenAsked() throws {
        let report = try Self.report()
        let plain = CoverageTableRenderer.render(report)
        #expect(!plain.contains("\u{1B}["))
        for line in plain.split(separator: "\n") { #expect(line.count <= 100, "\(line)") }
        let coloured = CoverageTableRenderer.render(report, options: .init(useColor: true))
        #expect(coloured.contains("\u{1B}[32m"))
        #expect(coloured.contains("\u{1B}[1;31m"))
    }

    @Test func manyLocalesAndLongProductsStillFit() {
        let locales = (0..<40).map { "l\($0)-XX" }
        let products = ["com.example.an.extraordinarily.long.product.identifier.yearly", "org.other.vendor.product.with.a.long.name.monthly"]
            .map { product in
                ProductCoverage(
                    product: product, defaultKey: "winback", messageCount: 12,
                    cells: locales.map { CoverageCell(product: product, locale: $0, messageCount: 12, readyCount: 11, isDefaultReady: true, notReady: [
                        NotReadyMessage(key: "benefits", isDefault: false, reasons: [.missing(fields: ["header"])]),
                    ]) },
                    totals: Tally(messages: 480, ready: 440, cells: 40, defaultsReady: 40))
            }
        let report = CoverageReport(
            environment: .sandbox, hasState: false, sourceLocale: "l0-XX", locales: locales, products: products,
            localeTotals: locales.map { LocaleTotal(locale: $0, totals: Tally(messages: 24, ready: 22, cells: 2, defaultsReady: 2)) },
            totals: Tally(messages: 960, ready: 880, cells: 80, defaultsReady: 80), blockingErrorCount: 2)
        let text = CoverageTableRenderer.render(report)
        for line in text.split(separator: "\n") { #expect(line.count <= 100, "\(line)") }
        #expect(text.contains("P1 = com.example.an.extraordinarily.long.product.identifier.yearly"))
        #expect(text.contains("l39-XX"))
        #expect(text.contains("stop every build"))
    }

    @Test func htmlIsSelfContainedAndEscapesEverything() throws {
        let hostile = "<script>alert(\"x\")</script> & 'quotes'"
        let product = ProductCoverage(
            product: "com.example.app", defaultKey: "winback", messageCount: 1,
            cells: [CoverageCell(product: "com.example.app", locale: "ar-SA", messageCount: 1, readyCount: 0, isDefaultReady: false, notReady: [
                NotReadyMessage(key: "winback", isDefault: true, reasons: [.failingRule(code: "TXT001", message: hostile)]),
            ])],
            totals: Tally(messages: 1, ready: 0, cells: 1, defaultsReady: 0))
        let report = CoverageReport(
            environment: .sandbox, hasState: false, sourceLocale: "ar-SA", locales: ["ar-SA"], products: [product],
            localeTotals: [LocaleTotal(locale: "ar-SA", totals: product.totals)], totals: product.totals, blockingErrorCount: 0)
        let html = CoverageHTMLRenderer.render(report)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;"))
        #expect(!html.contains("src="))
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!html.contains("<link"))
        #expect(html.contains("dir=\"rtl\""))
        #expect(html.contains("<bdi class=\"native\" lang=\"ar-SA\" dir=\"rtl\">"))
        let markdown = CoverageMarkdownRenderer.render(report)
        #expect(!markdown.contains("<script"))
    }
}
