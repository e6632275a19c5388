import Foundation
import Testing

/// Golden files, compared byte for byte.
///
/// `MSGC_RECORD=1 swift test` rewrites every golden file a test checks and still fails the
/// test, so that a person reviews the diff (`git diff`) before it is committed, as
/// swift-argument-parser's and swift-syntax's test helpers do.
public struct Golden: Sendable {
    /// The folder the golden files' relative paths start from.
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// The folder `name` beside the test file that says so: `Golden("Goldens")`.
    public init(_ name: String, besideFile file: StaticString = #filePath) {
        folder = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent(name)
    }

    public static var isRecording: Bool { ProcessInfo.processInfo.environment["MSGC_RECORD"] == "1" }

    /// Records an issue unless `actual` is the content of the golden file at `relativePath`;
    /// the issue names the first line that differs.
    public func check(_ actual: String, against relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(relativePath)
        if Self.isRecording {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
                Issue.record("recorded \(relativePath); review the diff and run again without MSGC_RECORD", sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot write \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("no golden file \(relativePath); run with MSGC_RECORD=1 to create it", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        let expectedLine = line < expectedLines.count ? String(expectedLines[line]) : "<end of file>"
        let actualLine = line < actualLines.count ? String(actualLines[line]) : "<end of output>"
        let message = "\(relativePath) differs at line \(line + 1):\n  expected: \(expectedLine)\n  actual:   \(actualLine)\n"
            + "(MSGC_RECORD=1 swift test rewrites it)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
