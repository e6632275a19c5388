import Foundation
import Testing

/// Byte-for-byte comparison with a file in Tests/LintTests/Goldens.
///
/// `MSGC_RECORD=1 swift test` rewrites the file and still fails, so that a person reviews the diff.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens")

    static func check(_ actual: String, against name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["MSGC_RECORD"] == "1" {
            do {
                try Data(actual.utf8).write(to: url)
                Issue.record("recorded \(name); review the diff and run again without MSGC_RECORD", sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot write \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("no golden file \(name); run with MSGC_RECORD=1 to create it", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        #expect(actual == expected, "output differs from \(name)", sourceLocation: sourceLocation)
    }
}
