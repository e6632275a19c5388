@testable import Experiments
import Foundation
import Model
import Testing
import TestSupport

/// Each format against its golden file, made from one report (ReportFixture.golden);
/// `MSGC_RECORD=1 swift test` rewrites them and fails, for a person to review.
struct RendererTests {
    static let golden = Golden("Goldens")

    @Test(arguments: ExperimentReportFormat.allCases)
    func matchesItsGoldenFile(_ format: ExperimentReportFormat) {
        let name = switch format {
        case .table: "report.txt"
        case .json: "report.json"
        case .markdown: "report.md"
        case .html: "report.html"
        }
        Self.golden.check(format.render(ReportFixture.golden), against: name)
    }

    @Test func jsonIsVersionedAndReadsBack() throws {
        let text = ExperimentJSONRenderer.render(ReportFixture.golden)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "msgc-experiment-report" && object["schemaVersion"] as? Int == 1)
        let products = try #require(object["products"] as? [[String: Any]])
        #expect(products.count == 2 && products[0]["product"] as? String == "com.example.yearly")
        let arms = try #require(products[0]["arms"] as? [[String: Any]])
        let first = arms[0]
        #expect(first["message"] as? String == "offer-half-price" && first["subscribers"] as? Int == 120 && first["weight"] as? Int == 1)
        let outcomes = try #require(first["outcomes"] as? [String: Int])
        #expect(outcomes == ["stayed": 70, "cancelled": 20, "offerRedeemed": 30, "switched": 0])
        #expect(first["saveRate"] as? Double == 0.833333)
        let interval = try #require(first["interval"] as? [String: Double])
        #expect(interval.keys.sorted() == ["lower", "upper"])
        // msgc's own reader takes it too.
        _ = try JSONDocument.parse(Array(text.utf8))
    }

    @Test func everyStringFromTheDataIsEscapedInHTML() {
        let html = ExperimentHTMLRenderer.render(ReportFixture.golden)
        #expect(!html.contains("<b>odd") && !html.contains("a|b<i>"))
        #expect(html.contains("&lt;b&gt;odd &amp; &quot;product&quot;"))
        #expect(html.contains("a|b&lt;i&gt;") && html.contains("c*d&amp;e"))
        // Self-contained: nothing is fetched.
        for reference in ["src=", "href=", "@import", "url(", "<script"] { #expect(!html.contains(reference), "\(reference)") }
        #expect(html.components(separatedBy: "<svg class=\"chart\"").count - 1 == 2)
    }

    @Test func markdownCellsCannotBeSplit() {
        let markdown = ExperimentMarkdownRenderer.render(ReportFixture.golden)
        #expect(markdown.contains("| a\\|b\\<i\\> |"))
        let tableRows = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(tableRows.count == 2 + 2 + 2 + 3)
        for row in tableRows {
            let pipes = row.filter { $0 == "|" }.count - (row.components(separatedBy: "\\|").count - 1)
            #expect(pipes == ReportRows.columns.count + 1, "\(row)")
        }
    }

    @Test func numbersAreRoundedToSignificantDigits() {
        var writer = CanonicalJSONWriter()
        writer.openArray(isEmpty: false)
        for value in [0.8333333333, 1.0 / 3e30, 0, 1, -0.0480769230, 123456789.0, .nan, 0.1 + 0.2] {
            writer.element()
            writer.number(value, significantDigits: 6)
        }
        writer.closeArray()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == "[\n  0.833333,\n  3.33333e-31,\n  0,\n  1.0,\n  -0.0480769,\n  123457000.0,\n  null,\n  0.3\n]")
    }
}
