import Foundation
import Testing
import TestSupport

/// `msgc lsp` driven by an editor that sends what no editor should: bodies that are not
/// UTF-8, JSON nested past any depth, parameters of the wrong type, changes to documents it
/// never opened, documents outside the workspace and a line of hundreds of kilobytes. The
/// server answers each with an error or ignores it, and goes on answering.
@Suite(.ownThreads) struct LanguageServerHostileEditorTests {
    typealias Client = LanguageServerSessionTests.Client

    /// A copy of the everyday tree and a server initialized on it.
    static func session() throws -> (folder: URL, tree: URL, client: Client) {
        let folder = try MsgcRunner.temporaryFolder()
        let tree = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: CommandTranscriptTests.fixture, to: tree)
        let client = try Client(in: folder)
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": folder.absoluteString, "capabilities": [:] as [String: Any]])
        try client.notify("initialized", [:])
        return (folder, tree, client)
    }

    /// The server still answers: a hover on a document it does not have is null.
    static func expectAnswers(_ client: Client, _ what: String) throws {
        #expect(try client.request("textDocument/hover", ["textDocument": ["uri": "file:///nowhere.yaml"], "position": ["line": 0, "character": 0]])["result"] is NSNull, "\(what)")
    }

    static func frame(_ body: [UInt8]) -> Data {
        Data("Content-Length: \(body.count)\r\n\r\n".utf8) + Data(body)
    }

    @Test func malformedBodiesAreParseErrorsAndTheServerGoesOn() throws {
        let (folder, _, client) = try Self.session()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bodies: [(String, [UInt8])] = [
            ("invalid UTF-8", Array(#"{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":{"x":""#.utf8) + [0xFF, 0xC0, 0xAF] + Array(#""}}"#.utf8)),
            ("a lone surrogate", Array(#"{"jsonrpc":"2.0","id":9,"method":"x","params":{"text":"\ud800"}}"#.utf8)),
            ("nested 100,000 deep", Array((#"{"jsonrpc":"2.0","id":9,"method":"x","params":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8)),
            ("a depth bomb that never closes", Array(String(repeating: "{\"a\":", count: 50_000).utf8)),
        ]
        for (name, body) in bodies {
            client.sendRaw(Self.frame(body))
            let error = try client.response(id: nil)
            #expect((error["error"] as? [String: Any])?["code"] as? Int == -32700, "\(name)")
            try Self.expectAnswers(client, name)
        }
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
    }

    @Test func parametersOfTheWrongTypeAreRefusedOrIgnored() throws {
        let (folder, tree, client) = try Self.session()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = tree.appendingPathComponent("messages/winback.yaml").absoluteString
        let notifications: [(String, Any)] = [
            ("textDocument/didOpen", ["textDocument": ["uri": source, "text": 5, "version": "one"]]),
            ("textDocument/didOpen", ["textDocument": "messages/winback.yaml"]),
            ("textDocument/didOpen", [1, 2, 3]),
            ("textDocument/didChange", ["textDocument": ["uri": source], "contentChanges": ["text": "x"]]),
            ("textDocument/didChange", ["textDocument": ["uri": tree.appendingPathComponent("messages/never-opened.yaml").absoluteString], "contentChanges": [["text": "x"]]]),
            ("textDocument/didClose", ["textDocument": ["uri": 7]]),
            ("textDocument/didSave", "all"),
            ("workspace/didChangeConfiguration", NSNull()),
            ("$/cancelRequest", ["id": ["nested": true]]),
        ]
        for (method, params) in notifications {
            try client.send(["jsonrpc": "2.0", "method": method, "params": params])
            try Self.expectAnswers(client, method)
        }
        // Open the source, then send changes whose ranges are nonsense: they are clamped to the
        // document, not a crash.
        let text = try String(contentsOf: tree.appendingPathComponent("messages/winback.yaml"), encoding: .utf8)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": source, "languageId": "yaml", "version": 1, "text": text]])
        _ = try client.diagnostics(for: source)
        try client.notify("textDocument/didChange", ["textDocument": ["uri": source, "version": 2], "contentChanges": [
            ["range": ["start": ["line": -5, "character": "x"], "end": ["line": 1e300, "character": -1]], "text": "messages: []\n"],
            ["range": ["start": ["line": 99_999, "character": 99_999], "end": ["line": 0, "character": 0]], "text": "# end\n"],
            ["range": "everything", "text": 3],
        ]])
        _ = try client.diagnostics(for: source)
        // The same as requests: an error, with the request's id.
        let refused = try client.request("textDocument/didChange", ["textDocument": ["uri": "file:///never-opened.yaml"], "contentChanges": [] as [Any]])
        #expect((refused["error"] as? [String: Any])?["code"] as? Int == -32602)
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": source], "position": ["line": "x", "character": [1]]])
        #expect(hover["error"] == nil)
        let actions = try client.request("textDocument/codeAction", ["textDocument": ["uri": source], "range": "all"])
        #expect(actions["result"] as? [Any] != nil)
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
    }

    /// Documents outside the content tree are never checked, read or reported on.
    @Test func documentsOutsideTheTreeAreLeftAlone() throws {
        let (folder, tree, client) = try Self.session()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outside = [
            "file:///etc/passwd", tree.appendingPathComponent("messages").absoluteString + "/../../../../etc/passwd.yaml",
            // Out of the tree into a folder that is not there: realpath cannot resolve it.
            tree.appendingPathComponent("messages").absoluteString + "/../../no-such-folder/x.yaml",
            tree.appendingPathComponent("messages").absoluteString + "/new/../../../x.yaml",
            "file://evil.example/content/messages/x.yaml", "untitled:Untitled-1", "file:///%2e%2e/etc/hosts.yaml", "not a uri at all",
        ]
        for uri in outside {
            try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": "messages: [{key: x}]"]])
            #expect(try client.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 12]])["result"] is NSNull, "\(uri)")
        }
        // Nothing was published for any of them (a document of the tree still is).
        let source = tree.appendingPathComponent("messages/winback.yaml").absoluteString
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": source, "languageId": "yaml", "version": 1, "text": "messages: [{key: x}]"]])
        #expect(!(try client.diagnostics(for: source)).isEmpty)
        // A new file in a folder of the tree that is not there yet is the tree's.
        let new = tree.appendingPathComponent("messages/new-folder/x.yaml").absoluteString
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": new, "languageId": "yaml", "version": 1, "text": "messages: [{key: x}]"]])
        #expect(!(try client.diagnostics(for: new)).isEmpty)
        let published = client.notifications.compactMap { ($0["params"] as? [String: Any])?["uri"] as? String }
        #expect(Set(published).isDisjoint(with: outside), "\(published)")
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
    }

    /// Four thousand messages on one line of 300 KB, each with findings: every finding's place
    /// on the line was found by walking the line from its start, twice (the YAML reader and the
    /// server), which took minutes. The client's watchdog ends a server that takes a minute.
    @Test func aHugeLineWithThousandsOfFindingsIsCheckedPromptly() throws {
        let (folder, tree, client) = try Self.session()
        defer { try? FileManager.default.removeItem(at: folder) }
        let uri = tree.appendingPathComponent("messages/one-line.yaml").absoluteString
        let line = "messages: [" + (0..<4000).map { "{key: m\($0), product: com.example.nope, type: text, header: é限🎉, body: b, fiel: x}" }.joined(separator: ", ") + "]\n"
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": line]])
        let findings = try client.diagnostics(for: uri)
        #expect(findings.count >= 8000)
        // The last misspelt key is found where it is, in UTF-16 units from the line's start.
        let lastKey = line.utf16.distance(from: line.startIndex, to: line.range(of: "fiel:", options: .backwards)!.lowerBound)
        #expect(lastKey > 300_000)
        let unknownKeys = findings.filter { $0["code"] as? String == "PRS003" }.compactMap(LanguageServerSessionTests.start)
        #expect(unknownKeys.count == 4000)
        #expect(unknownKeys.contains { $0 == (0, lastKey) })
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
    }

    /// Ten thousand ranged edits to a document of a megabyte in one didChange: each re-read the
    /// whole document, minutes of work. Past a bound the server stops, takes the document as
    /// closed (its findings are cleared) and answers the next request.
    @Test func tenThousandEditsInOneChangeDoNotHoldTheServer() throws {
        let (folder, tree, client) = try Self.session()
        defer { try? FileManager.default.removeItem(at: folder) }
        let uri = tree.appendingPathComponent("messages/large.yaml").absoluteString
        let text = "messages: []\n" + String(repeating: "# a comment line of a large file, fifty bytes long\n", count: 20_000)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text]])
        _ = try client.diagnostics(for: uri)
        let edit: [String: Any] = ["range": ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": 1]], "text": "#"]
        try client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": Array(repeating: edit, count: 10_000)])
        #expect(try client.diagnostics(for: uri).isEmpty)
        try Self.expectAnswers(client, "after the edits")
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
    }
}
