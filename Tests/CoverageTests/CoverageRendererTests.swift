import Coverage
import Bundle
import Foundation
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

    /// Product ids, locales and state words come from msgc.yaml, XLIFF files and a state file,
    /// none of them bound to a key's alphabet: with terminal sequences (OSC 52 writes the
    /// clipboard, ESC[2J clears the screen), line breaks and table syntax in each, no format
    /// lets one through as itself, and every Markdown row keeps its cells.
    @Test func hostileNamesReachNoFormatAsThemselves() throws {
        let osc = "\u{1B}]52;c;cm0gLXJmIH4=\u{07}"
        let product = "com.example.\(osc)\u{1B}[2J|x\n| a | b |\r\n<img src=x>`*_~~"
        let locale = "de-DE\u{1B}[2J|\n"
        let key = "winback\u{1B}[31m"
        let state = "IN\u{1B}]0;title\u{07}_REVIEW\u{202E}"
        let cell = CoverageCell(product: product, locale: locale, messageCount: 1, readyCount: 0, isDefaultReady: false, notReady: [
            NotReadyMessage(key: key, isDefault: true, reasons: [
                .notTranslated(fields: ["header"], states: [state]),
                .pending(upload: UploadReference(kind: .image, identifier: "0a1b", imagePath: "images/\(osc).png"), state: state),
            ]),
        ])
        let coverage = ProductCoverage(product: product, defaultKey: key, messageCount: 1, cells: [cell],
                                       totals: Tally(messages: 1, ready: 0, cells: 1, defaultsReady: 0))
        let report = CoverageReport(
            environment: .production, hasState: true, sourceLocale: locale, locales: [locale], products: [coverage, ProductCoverage(
                product: "com.example.\(osc)plain", defaultKey: nil, messageCount: 0, cells: [], totals: Tally(messages: 0, ready: 0, cells: 0, defaultsReady: 0))],
            localeTotals: [LocaleTotal(locale: locale, totals: coverage.totals)], totals: coverage.totals, blockingErrorCount: 0)

        for (name, text) in [
            ("table", CoverageTableRenderer.render(report)), ("coloured table", CoverageTableRenderer.render(report, options: .init(useColor: true))),
            ("markdown", CoverageMarkdownRenderer.render(report)), ("html", CoverageHTMLRenderer.render(report)),
            ("json", CoverageJSONRenderer.render(report)),
        ] {
            let withoutColour = text.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
            #expect(!withoutColour.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" }, "\(name)")
            if name == "json" { continue }  // JSON strings are data: controls as \u001b, other text as itself
            #expect(!withoutColour.unicodeScalars.contains("\u{202E}"), "\(name)")
            #expect(text.contains("U+001B"), "\(name)")
            if name == "markdown" || name == "html" { #expect(!text.contains("<img"), "\(name)") }
        }
        #expect(CoverageTableRenderer.render(report).contains("<U+001B>]52;c;cm0gLXJmIH4=<U+0007>"))

        // Each Markdown table row is one line with as many cells as its header.
        let markdown = CoverageMarkdownRenderer.render(report)
        func cells(_ line: Substring) -> Int {
            line.replacingOccurrences(of: "\\\\", with: "").replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count - 1
        }
        let lines = markdown.split(separator: "\n")
        let matrix = lines.drop { !$0.hasPrefix("| product | ") }.prefix { $0.hasPrefix("|") }
        #expect(matrix.count == 5, "\(matrix)")
        #expect(Set(matrix.map(cells)) == [3], "\(matrix)")
        let reasons = lines.drop { !$0.hasPrefix("| product | locale |") }.prefix { $0.hasPrefix("|") }
        #expect(reasons.count == 3, "\(reasons)")
        #expect(Set(reasons.map(cells)) == [4], "\(reasons)")
        #expect(!markdown.contains("`winback"), "a key with a control is not put in a code span as it is")
    }
}
