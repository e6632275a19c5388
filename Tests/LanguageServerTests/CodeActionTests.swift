import Foundation
@testable import LanguageServer
import Testing
import TestSupport

/// A fix-it with edits reaches the editor as a quick fix whose range is the character as the
/// file writes it, in LSP's UTF-16 positions: an XML character reference after an emoji.
@Suite struct CodeActionTests {
    static func message(_ method: String, id: Int? = nil, _ params: [String: Any]) throws -> [UInt8] {
        var object: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params]
        if let id { object["id"] = id }
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    static func body(_ framed: [UInt8]) throws -> [String: Any] {
        let data = Data(framed)
        let header = try #require(data.range(of: Data("\r\n\r\n".utf8)))
        return try #require(try JSONSerialization.jsonObject(with: data[header.upperBound...]) as? [String: Any])
    }

    @Test func removingAnInvisibleCharacterIsAQuickFix() throws {
        let target = "🎉 Bleiben Sie&#x200B; bei Premium"
        let tree = try TemporaryTree([
            "msgc.yaml": TemporaryTree.config,
            "messages/a.yaml": "messages:\n  - key: winback\n    product: com.example.app.yearly\n    type: text\n    default: true\n    header: Stay with Premium\n    body: Save on your next renewal.\n",
            "translations/de-DE.xliff": """
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
                  <file original="msgc" source-language="en-US" target-language="de-DE" datatype="plaintext">
                    <body>
                      <trans-unit id="com.example.app.yearly/winback/header">
                        <source>Stay with Premium</source>
                        <target state="translated">\(target)</target>
                      </trans-unit>
                    </body>
                  </file>
                </xliff>

                """,
        ])
        var sent: [[UInt8]] = []
        let server = LanguageServer(writer: MessageWriter { sent.append($0); return nil }, version: "test") { _ in }
        _ = server.handle(try Self.message("initialize", id: 1, ["rootUri": tree.root.absoluteString, "capabilities": [:] as [String: Any]]))
        let url = tree.root.appendingPathComponent("translations/de-DE.xliff")
        let uri = url.absoluteString
        let text = try String(contentsOf: url, encoding: .utf8)
        _ = server.handle(try Self.message("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "xml", "version": 1, "text": text]]))
        let published = try Self.body(try #require(sent.last))
        let diagnostics = (published["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        let finding = try #require(diagnostics.first { $0["code"] as? String == "TXT007" })

        _ = server.handle(try Self.message("textDocument/codeAction", id: 2, [
            "textDocument": ["uri": uri], "range": finding["range"]!, "context": ["diagnostics": [finding]],
        ]))
        let actions = try Self.body(try #require(sent.last))["result"] as? [[String: Any]] ?? []
        let action = try #require(actions.first)
        #expect(action["title"] as? String == "remove it" && action["kind"] as? String == "quickfix")
        let edits = try #require(((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])
        #expect(edits.count == 1 && edits.first?["newText"] as? String == "")
        // The reference starts after the emoji (two UTF-16 units) and spans its 8 characters.
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("&#x200B;") })
        let lineText = text.split(separator: "\n", omittingEmptySubsequences: false)[line]
        let start = lineText[..<lineText.range(of: "&#x200B;")!.lowerBound].utf16.count
        let range = edits.first?["range"] as? [String: Any]
        #expect((range?["start"] as? [String: Any])?["line"] as? Int == line)
        #expect((range?["start"] as? [String: Any])?["character"] as? Int == start)
        #expect((range?["end"] as? [String: Any])?["character"] as? Int == start + 8)
    }
}
