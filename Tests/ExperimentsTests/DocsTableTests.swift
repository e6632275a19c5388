@testable import Experiments
import Foundation
import Testing

/// docs/experiments.md's table of subscribers a copy test needs is the function's output.
struct DocsTableTests {
    @Test func theDocsTableIsWhatTheFunctionSays() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/experiments.md"), encoding: .utf8)
        for baseline in [10, 20, 30, 50] {
            let cells = [0.02, 0.05, 0.1].map { difference in
                Statistics.subscribersPerArm(baseline: Double(baseline) / 100, difference: difference).map(ReportText.count) ?? "?"
            }
            let row = "| \(baseline) % | " + cells.joined(separator: " | ") + " |"
            #expect(docs.contains(row), "docs/experiments.md lacks \(row)")
        }
    }
}
