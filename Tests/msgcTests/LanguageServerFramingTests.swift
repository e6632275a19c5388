import Foundation
import Testing
import TestSupport

/// `msgc lsp` over pipes when the editor's side goes wrong: frames with a wrong or missing
/// Content-Length, garbage between frames, a standard error that cannot be written and a
/// standard output that goes away. After each, the server must answer the next request.
@Suite(.ownThreads) struct LanguageServerFramingTests {
    typealias Client = LanguageServerSessionTests.Client

    static func startedClient(_ folder: URL, standardError: Any = FileHandle.nullDevice) throws -> Client {
        let client = try Client(in: folder, standardError: standardError)
        let initialize = try client.request("initialize", ["processId": NSNull(), "rootUri": folder.absoluteString, "capabilities": [:] as [String: Any]])
        #expect(initialize["result"] != nil)
        return client
    }

    static func body(id: Int) -> String {
        // A hover request with text that looks like a frame inside a string, and non-ASCII text,
        // whose length counted in characters is short of its length in bytes.
        #"{"jsonrpc":"2.0","id":\#(id),"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere/Content-Length: 3\r\n\r\n{}"},"position":{"line":0,"character":0},"note":"é ü 日本"}}"#
    }

    /// Each bad frame, then a good request: its answer comes (a hover on an unknown document is
    /// null). Where the bad frame's own request can still be read, it is answered too; where a
    /// message was lost, the client gets a parse error with a null id.
    @Test func theServerAnswersAfterEveryKindOfBadFrame() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try Self.startedClient(folder)
        var id = 100
        let kinds: [(String, (String) -> String, answered: Bool)] = [
            ("counted in characters", { "Content-Length: \($0.count)\r\n\r\n\($0)" }, false),
            ("one byte too long", { "Content-Length: \($0.utf8.count + 1)\r\n\r\n\($0)" }, true),
            ("missing", { "Content-Type: application/vscode-jsonrpc\r\n\r\n\($0)" }, false),
            ("not a number", { "Content-Length: ten\r\n\r\n\($0)" }, false),
            ("huge", { "Content-Length: 99999999999999999999\r\n\r\n\($0)" }, true),
            ("no CRLF", { "Content-Length: \($0.utf8.count)\n\n\($0)" }, true),
            ("garbage before", { "\u{1B}[2J\u{1B}]52;c;aGk=\u{07}junk}]\r\n" + "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }, true),
        ]
        for (name, frame, answered) in kinds {
            id += 1
            let badID = id
            client.sendRaw(Data(frame(Self.body(id: badID)).utf8))
            id += 1
            try client.send(try JSONSerialization.jsonObject(with: Data(Self.body(id: id).utf8)) as! [String: Any])
            if answered {
                // Answered first: `response` passes over answers to other ids.
                #expect(try client.response(id: badID)["result"] is NSNull, "\(name)")
            }
            let good = try client.response(id: id)
            #expect(good["result"] is NSNull, "\(name): \(good)")
        }
        // A length far too long and nothing after it, as when the editor waits for the answer.
        id += 1
        client.sendRaw(Data("Content-Length: \(Self.body(id: id).utf8.count + 1000)\r\n\r\n\(Self.body(id: id))".utf8))
        #expect(try client.response(id: id)["result"] is NSNull)

        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        try client.notify("exit", [:])
        client.process.waitUntilExit()
        #expect(client.process.terminationStatus == 0)
    }

    /// A message lost to a bad header is reported as JSON-RPC says for a message whose id is
    /// unknown: a parse error with a null id.
    @Test func aLostMessageIsAParseErrorWithANullID() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try Self.startedClient(folder)
        client.sendRaw(Data("Content-Length: 12a\r\n\r\n\(Self.body(id: 5))".utf8))
        let error = try client.response(id: nil)
        #expect((error["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect((error["error"] as? [String: Any])?["message"] as? String == "skipped Content-Length '12a' is not a byte count")
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
    }

    /// The log cannot be written (a full disk, a closed pipe): the server serves on.
    @Test(arguments: ["full", "closed pipe"])
    func aStandardErrorThatCannotBeWrittenIsNoReasonToStop(_ kind: String) throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standardError: Any
        if kind == "full" {
            standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        } else {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            standardError = pipe
        }
        let client = try Self.startedClient(folder, standardError: standardError)
        client.sendRaw(Data("junk\r\n\r\nContent-Length: 5\r\n\r\n{bad}".utf8))
        #expect((try client.response(id: nil)["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        try client.notify("exit", [:])
        client.process.waitUntilExit()
        #expect(client.process.terminationReason == .exit)
        #expect(client.process.terminationStatus == 0)
    }

    /// Standard output gone: nobody can be answered, so the server ends, by itself and without
    /// a signal: 1 for a closed pipe (the editor went away), 2 for a full disk.
    @Test(arguments: [("closed pipe", Int32(1)), ("full", Int32(2))])
    func aStandardOutputThatCannotBeWrittenEndsTheServer(_ kind: String, _ status: Int32) throws {
        let process = Process()
        process.executableURL = MsgcRunner.executable
        process.arguments = ["lsp"]
        let input = Pipe()
        let log = Pipe()
        process.standardInput = input
        process.standardError = log
        if kind == "full" {
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        } else {
            let output = Pipe()
            try output.fileHandleForReading.close()
            process.standardOutput = output
        }
        try process.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
        let body = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#
        input.fileHandleForWriting.write(Data("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        let logged = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(logged.contains("msgc lsp: cannot write to standard output: "), "\(logged)")
    }

    /// The log quotes what the editor sent; it reaches standard error as terminal-safe text.
    @Test func theLogQuotesTheEditorAsTerminalText() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = Pipe()
        let client = try Self.startedClient(folder, standardError: log)
        client.sendRaw(Data("Content-Length: 1\u{202E}2\u{200B}\r\n\r\n{}".utf8))
        _ = try client.response(id: nil)
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        try client.notify("exit", [:])
        let logged = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        client.process.waitUntilExit()
        #expect(logged.contains("msgc lsp: skipped Content-Length '1<U+202E>2"), "\(logged)")
        #expect(!logged.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{07}" })
    }
}
