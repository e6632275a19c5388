import Foundation
@testable import LanguageServer
import Testing
import TestSupport

/// A check turns every position of a document with one line index, however many findings
/// point into it: a translator's file with hundreds of stale units, each with a note at its
/// target, once cost one index of the whole file per finding.
@Suite struct LineIndexesTests {
    /// A tree of `count` messages whose German file has every header's source edited since:
    /// `count` stale findings (TRN001), each with a related location in the same file.
    static func staleTree(count: Int) throws -> TemporaryTree {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        var source = "messages:\n"
        var units = ""
        for number in 0..<count {
            source += "  - key: m\(number)\n    product: com.example.app.yearly\n    type: text\n    header: Stay with Premium \(number)\n    body: Save on your next renewal.\n"
            for (field, text, target) in [("header", "Stay with Premium (old) \(number)", "Bleiben Sie bei Premium \(number)"),
                                          ("body", "Save on your next renewal.", "Sparen Sie bei der nächsten Verlängerung.")] {
                units += """
                      <trans-unit id="com.example.app.yearly/m\(number)/\(field)" xml:space="preserve">
                        <source>\(text)</source>
                        <target state="translated">\(target)</target>
                      </trans-unit>

                """
            }
        }
        source += "  - key: default\n    product: com.example.app.yearly\n    type: text\n    default: true\n    header: Stay\n    body: Stay with us.\n"
        try tree.write("messages/all.yaml", source)
        try tree.write("translations/de-DE.xliff", """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="msgc" source-language="en-US" target-language="de-DE" datatype="plaintext">
                <body>
            \(units)    </body>
              </file>
            </xliff>

            """)
        return tree
    }

    static func message(_ method: String, id: Int? = nil, _ params: String) -> [UInt8] {
        Array("{\"jsonrpc\":\"2.0\",\(id.map { "\"id\":\($0)," } ?? "")\"method\":\"\(method)\",\"params\":\(params)}".utf8)
    }

    @Test func oneLineIndexPerDocumentPerCheck() throws {
        let tree = try Self.staleTree(count: 300)
        var sent: [[UInt8]] = []
        let server = LanguageServer(writer: MessageWriter { sent.append($0); return nil }, version: "test") { _ in }
        let root = tree.root.absoluteString
        _ = server.handle(Self.message("initialize", id: 1, "{\"rootUri\":\"\(root)\",\"capabilities\":{}}"))
        let xliff = try String(contentsOf: tree.root.appendingPathComponent("translations/de-DE.xliff"), encoding: .utf8)
        let uri = tree.root.appendingPathComponent("translations/de-DE.xliff").absoluteString
        let text = String(decoding: try JSONSerialization.data(withJSONObject: [xliff], options: [.fragmentsAllowed]), as: UTF8.self).dropFirst().dropLast()
        _ = server.handle(Self.message("textDocument/didOpen", "{\"textDocument\":{\"uri\":\"\(uri)\",\"languageId\":\"xml\",\"version\":1,\"text\":\(text)}}"))

        // The last message written, past its header.
        let framed = try #require(sent.last)
        let body = try #require(Data(framed).range(of: Data("\r\n\r\n".utf8)))
        let published = try #require(try JSONSerialization.jsonObject(with: Data(framed)[body.upperBound...]) as? [String: Any])
        #expect(published["method"] as? String == "textDocument/publishDiagnostics")
        let diagnostics = (published["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        let stale = diagnostics.filter { $0["code"] as? String == "TRN001" }
        #expect(stale.count == 300)
        #expect(stale.allSatisfy { ($0["relatedInformation"] as? [Any])?.count == 1 })
        // The note of the first stale unit is at its target, on the line after its source.
        let first = try #require(stale.first)
        let related = try #require((first["relatedInformation"] as? [[String: Any]])?.first)
        let noteLine = ((related["location"] as? [String: Any])?["range"] as? [String: Any]).flatMap { ($0["start"] as? [String: Any])?["line"] as? Int }
        let findingLine = ((first["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int
        #expect(noteLine == findingLine.map { $0 + 1 })
        #expect(server.lineIndexesMade == 1)
    }
}
