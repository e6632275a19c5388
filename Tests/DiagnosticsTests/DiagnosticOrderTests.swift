@testable import Diagnostics
import Model
import Testing

/// Diagnostics leave in one order, each once.
@Suite struct DiagnosticOrderTests {
    static func diagnostic(_ path: String, _ line: Int, _ code: String, _ message: String, note: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: .warning, location: SourceLocation(path: path, line: line, column: 1), message: message,
                   notes: note.map { [Note($0)] } ?? [])
    }

    @Test func sortedOnceAndEachOnce() {
        let a = Self.diagnostic("b.yaml", 3, "TXT001", "a")
        let b = Self.diagnostic("a.yaml", 9, "TXT001", "b")
        let c = Self.diagnostic("b.yaml", 3, "TXT001", "a", note: "another note")
        let d = Self.diagnostic("b.yaml", 2, "LEN001", "d")
        let sorted = [a, b, c, a, d, b, c].sortedForOutput()
        // Same place, code and message: kept in the order they came, each once.
        #expect(sorted == [b, d, a, c])
    }

    @Test func filesInByteOrderThenPositions() {
        // UTF-8 byte order: `-` (2D) before `/` (2F) before `z` (7A) before `é` (C3 A9).
        let paths = ["content/é.yaml", "content/z.yaml", "content/a/b.yaml", "content/a-b.yaml"]
        var diagnostics: [Diagnostic] = []
        for path in paths {
            diagnostics.append(Self.diagnostic(path, 2, "TXT001", "x"))
            diagnostics.append(Diagnostic(code: "PRS001", severity: .error, location: SourceLocation(path: path), message: "whole file"))
        }
        let sorted = diagnostics.reversed().sortedForOutput()
        #expect(sorted.map(\.location.path) == [
            "content/a-b.yaml", "content/a-b.yaml", "content/a/b.yaml", "content/a/b.yaml",
            "content/z.yaml", "content/z.yaml", "content/é.yaml", "content/é.yaml",
        ])
        // In a file, a location without a line comes first.
        #expect(sorted.map(\.code) == Array(repeating: ["PRS001", "TXT001"], count: 4).flatMap { $0 })
    }
}
