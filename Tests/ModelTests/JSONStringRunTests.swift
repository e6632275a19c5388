@testable import Model
import Foundation
import Testing

/// JSON strings as an editor sends a document: long runs between escapes, every escape, text
/// in every script, read whole, with positions after them still counted in scalars.
@Suite struct JSONStringRunTests {
    @Test func stringsWithRunsAndEscapes() throws {
        let line = "<target>Bleiben Sie 🎉 日本語 عربي</target>"
        var text = ""
        for _ in 0..<2_000 { text += line + "\n" }
        var json = "{\"text\": \""
        for _ in 0..<2_000 { json += line.replacingOccurrences(of: "/", with: "\\/") + "\\n" }
        json += "\\t\\\"\\\\\\b\\f\\r\\u00e9\\ud83c\\udf89\", \"next\": 1}"
        let node = try JSONDocument.parse(Array(json.utf8))
        guard case .string(let value)? = node.member("text")?.value else {
            Issue.record("no string")
            return
        }
        #expect(value == text + "\t\"\\\u{08}\u{0C}\r\u{E9}🎉")
        // `"next"` sits after the string, on the same line, at its column in scalars.
        let next = try #require(node.member("next"))
        let before = json[..<json.range(of: "1}")!.lowerBound]
        #expect(next.line == 1 && next.column == before.unicodeScalars.count + 1)
    }

    @Test func badStringsAreErrorsAtTheirPlace() {
        #expect(throws: JSONDocument.SyntaxError.self) { try JSONDocument.parse(Array("\"a\u{1}b\"".utf8)) }
        #expect(throws: JSONDocument.SyntaxError(message: "the string is not valid UTF-8", line: 1, column: 4)) {
            try JSONDocument.parse([0x22, 0x61, 0xFF, 0x22])
        }
        #expect(throws: JSONDocument.SyntaxError.self) { try JSONDocument.parse(Array("\"abc".utf8)) }
    }
}
