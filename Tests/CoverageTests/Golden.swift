import Foundation
import Testing

/// Golden files: compared byte for byte; `MSGC_RECORD=1 swift test` rewrites them and still
/// fails, so that a person reviews the diff.
enum Golden {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var isRecording: Bool { ProcessInfo.processInfo.environment["MSGC_RECORD"] == "1" }

    static func check(_ actual: String, against relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = fixtures.appendingPathComponent(relativePath)
        if isRecording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            Issue.record("recorded \(relativePath); review the diff and run again without MSGC_RECORD", sourceLocation: sourceLocation)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("no golden file \(relativePath); run with MSGC_RECORD=1 to create it", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let firstDifference = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expectedLines.count, actualLines.count)
            let expectedLine = firstDifference < expectedLines.count ? String(expectedLines[firstDifference]) : "<end>"
            let actualLine = firstDifference < actualLines.count ? String(actualLines[firstDifference]) : "<end>"
            Issue.record(
                "\(relativePath) differs at line \(firstDifference + 1):\n  expected: \(expectedLine)\n  actual:   \(actualLine)",
                sourceLocation: sourceLocation)
        }
    }
}
