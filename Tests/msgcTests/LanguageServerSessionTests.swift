import Foundation
import Testing
import TestSupport

/// `msgc lsp` driven over standard input and output as an editor drives it: initialize, open,
/// change, code action, hover, a malformed message, close, shutdown and exit, on a copy of the
/// everyday tree. The server must never write to the tree.
@Suite(.ownThreads) struct LanguageServerSessionTests {
    /// A language client over a `msgc lsp` process.
    final class Client {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var buffer = Data()
        private var nextID = 1
        /// Notifications read while waiting for something else, in order.
        var notifications: [[String: Any]] = []

        /// `standardError` is where the server's log goes (a FileHandle or a Pipe).
        init(in folder: URL, standardError: Any = FileHandle.nullDevice) throws {
            process.executableURL = MsgcRunner.executable
            process.arguments = ["lsp"]
            process.currentDirectoryURL = folder
            process.standardInput = input
            process.standardOutput = output
            process.standardError = standardError
            try process.run()
            // A server that stops answering fails the test instead of hanging it.
            let process = self.process
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
        }

        func sendRaw(_ bytes: Data) {
            input.fileHandleForWriting.write(bytes)
        }

        func send(_ message: [String: Any]) throws {
            let body = try JSONSerialization.data(withJSONObject: message)
            sendRaw(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        }

        func notify(_ method: String, _ params: [String: Any]) throws {
            try send(["jsonrpc": "2.0", "method": method, "params": params])
        }

        /// Sends a request and returns its response, keeping the notifications that came first.
        func request(_ method: String, _ params: Any) throws -> [String: Any] {
            let id = nextID
            nextID += 1
            try send(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
            return try response(id: id)
        }

        func response(id: Any?) throws -> [String: Any] {
            while true {
                let message = try read()
                if message["method"] != nil && message["id"] == nil {
                    notifications.append(message)
                    continue
                }
                if let id = id as? Int, message["id"] as? Int == id { return message }
                if id == nil, message["id"] is NSNull { return message }
            }
        }

        /// The next publishDiagnostics for `uri`, reading on as needed.
        func diagnostics(for uri: String) throws -> [[String: Any]] {
            while true {
                if let index = notifications.firstIndex(where: { ($0["params"] as? [String: Any])?["uri"] as? String == uri }) {
                    let message = notifications.remove(at: index)
                    return (message["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
                }
                let message = try read()
                if message["method"] as? String == "textDocument/publishDiagnostics" { notifications.append(message) }
            }
        }

        func read() throws -> [String: Any] {
            while true {
                if let headerEnd = buffer.range(of: Data("\r\n\r\n".utf8)) {
                    let header = String(decoding: buffer[buffer.startIndex..<headerEnd.lowerBound], as: UTF8.self)
                    let length = Int(header.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))!
                    if buffer.count - (headerEnd.upperBound - buffer.startIndex) >= length {
                        let body = buffer[headerEnd.upperBound..<(headerEnd.upperBound + length)]
                        buffer = Data(buffer[(headerEnd.upperBound + length)...])
                        return try JSONSerialization.jsonObject(with: body) as! [String: Any]
                    }
                }
                let more = output.fileHandleForReading.availableData
                guard !more.isEmpty else { throw CocoaError(.fileReadUnknown) }
                buffer += more
            }
        }
    }

    static func codes(_ diagnostics: [[String: Any]]) -> [String] {
        diagnostics.compactMap { $0["code"] as? String }
    }

    static func start(_ diagnostic: [String: Any]) -> (Int, Int)? {
        guard let range = diagnostic["range"] as? [String: Any], let start = range["start"] as? [String: Any],
              let line = start["line"] as? Int, let character = start["character"] as? Int else { return nil }
        return (line, character)
    }

    @Test func anEditorSession() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: CommandTranscriptTests.fixture, to: folder.appendingPathComponent("content"))
        let tree = folder.appendingPathComponent("content")
        let before = try MsgcRunner.files(in: folder)

        let client = try Client(in: folder)
        let initialize = try client.request("initialize", ["processId": NSNull(), "rootUri": folder.absoluteString, "capabilities": [:] as [String: Any]])
        let capabilities = (initialize["result"] as? [String: Any])?["capabilities"] as? [String: Any]
        #expect(capabilities?["hoverProvider"] as? Bool == true)
        #expect((capabilities?["textDocumentSync"] as? [String: Any])?["change"] as? Int == 1)
        try client.notify("initialized", [:])

        // A translator's file: the stale header and the German overflow, at their places.
        let xliffURI = tree.appendingPathComponent("translations/de-DE.xliff").absoluteString
        let xliff = try String(contentsOf: tree.appendingPathComponent("translations/de-DE.xliff"), encoding: .utf8)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": xliffURI, "languageId": "xml", "version": 1, "text": xliff]])
        let xliffFindings = try client.diagnostics(for: xliffURI)
        #expect(Self.codes(xliffFindings) == ["TRN001", "LEN001"])
        #expect(xliffFindings.last.flatMap(Self.start) ?? (0, 0) == (36, 179))

        // The writer's source, then an edit: one header changes (its German translation turns
        // stale) and a line of emoji, CJK and Arabic gets a misspelt key.
        let sourceURI = tree.appendingPathComponent("messages/winback.yaml").absoluteString
        let source = try String(contentsOf: tree.appendingPathComponent("messages/winback.yaml"), encoding: .utf8)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": sourceURI, "languageId": "yaml", "version": 1, "text": source]])
        #expect(try client.diagnostics(for: sourceURI).isEmpty)
        let altLine = "    image: { file: images/none.png, alt: \"🎉 限定 عرض\", fiel: x }"
        let edited = source.replacingOccurrences(of: "    header: Before you go\n", with: "    header: Before you leave\n" + altLine + "\n")
        try client.notify("textDocument/didChange", ["textDocument": ["uri": sourceURI, "version": 2], "contentChanges": [["text": edited]]])
        let sourceFindings = try client.diagnostics(for: sourceURI)
        let misspelt = try #require(sourceFindings.first { $0["code"] as? String == "PRS003" })
        let line = edited.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == altLine }!
        let character = altLine[..<altLine.range(of: "fiel:")!.lowerBound].utf16.count
        #expect(Self.start(misspelt) ?? (0, 0) == (line, character))
        let afterEdit = try client.diagnostics(for: xliffURI)
        // With the translator's report of `msgc lint FILE`: a field left without a usable translation (TRN006).
        #expect(Self.codes(afterEdit) == ["TRN001", "TRN001", "LEN001", "TRN006"], "\(afterEdit)")

        // The fix-it as a code action.
        let actions = try client.request("textDocument/codeAction", [
            "textDocument": ["uri": sourceURI], "range": misspelt["range"]!, "context": ["diagnostics": [misspelt]],
        ])["result"] as? [[String: Any]] ?? []
        let action = try #require(actions.first { $0["title"] as? String == "did you mean 'file'?" })
        let changes = ((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[sourceURI] as? [[String: Any]]
        #expect(changes?.first?["newText"] as? String == "file")

        // Hover over the German overflow: every measure and every locale.
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": xliffURI], "position": ["line": 36, "character": 60]])
        let text = ((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(text.contains("**de-DE** (this file): 171 of 144 UTF-16 units, **over by 27**"), "\(text)")
        #expect(text.contains("176 UTF-8 bytes"))
        #expect(text.contains("**en-US** (source): 62 of 144"))
        #expect(text.contains("| ja | 23 | fits |"))

        // Hover over a source header: its lengths and each translation's.
        let headerLine = edited.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("    header: Stay with Reader Premium") }!
        let sourceHover = try client.request("textDocument/hover", ["textDocument": ["uri": sourceURI], "position": ["line": headerLine, "character": 16]])
        let sourceText = ((sourceHover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(sourceText.contains("**en-US** (source): 24 of 66 UTF-16 units, fits — 24 graphemes · 24 scalars · 24 UTF-16 units · 24 UTF-8 bytes"), "\(sourceText)")
        #expect(sourceText.contains("| de-DE | 23 | fits (previous translation: the source changed since) |"), "\(sourceText)")

        // A malformed message and an unknown method are answered; the server goes on.
        client.sendRaw(Data("Content-Length: 6\r\n\r\n{oops}".utf8))
        let parseError = try client.response(id: nil)
        #expect((parseError["error"] as? [String: Any])?["code"] as? Int == -32700)
        let unknown = try client.request("workspace/symbol", ["query": "x"])
        #expect((unknown["error"] as? [String: Any])?["code"] as? Int == -32601)

        // Closing the source: the disk's text counts again, and the German file has one stale header.
        try client.notify("textDocument/didClose", ["textDocument": ["uri": sourceURI]])
        #expect(try client.diagnostics(for: sourceURI).isEmpty)
        #expect(Self.codes(try client.diagnostics(for: xliffURI)) == ["TRN001", "LEN001"])

        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        try client.notify("exit", [:])
        client.process.waitUntilExit()
        #expect(client.process.terminationStatus == 0)
        #expect(try MsgcRunner.files(in: folder) == before, "msgc lsp wrote to the content tree")
    }

    /// `exit` without `shutdown` ends the server with status 1, as LSP says.
    @Test func exitWithoutShutdown() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try Client(in: folder)
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": folder.absoluteString, "capabilities": [:] as [String: Any]])
        try client.notify("exit", [:])
        client.process.waitUntilExit()
        #expect(client.process.terminationStatus == 1)
    }
}
