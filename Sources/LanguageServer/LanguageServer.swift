import Compiler
import Diagnostics
import Foundation
import Model

/// `msgc lsp`: a language server (LSP 3.17) over a byte stream, for message sources,
/// `msgc.yaml` and XLIFF files of one content tree.
///
/// Every open document's text stands in for its file (the buffer wins over the disk); a change
/// re-reads only that document, reusing what earlier checks read of the others (`ReadCache`),
/// and re-checks the tree, so that a source edit that makes translations stale shows in their
/// open files at once. Findings are published for open documents only, again whenever they
/// change. The server never writes to the content tree.
public final class LanguageServer {
    private let writer: MessageWriter
    private let log: (String) -> Void
    private let version: String

    /// The content tree's folder, once `initialize` found one, and its path with symbolic links
    /// resolved, which documents' paths are compared with.
    private(set) var root: URL?
    private var resolvedRoot: String?
    /// The open documents' text and version, by URI.
    private var documents: [String: Document] = [:]
    /// What was last published for each URI.
    private var published: [String: JSONValue] = [:]
    /// The latest check's findings and what it read, for code actions and hover.
    private var compilation: Compilation?
    private var findings: [String: [Diagnostic]] = [:]
    private let cache = ReadCache()
    private var isShutDown = false
    /// How many line indexes of documents `lineIndex(for:)` has made: one per document a check
    /// turns positions in (for tests).
    private(set) var lineIndexesMade = 0
    /// The `errno` of the first message that could not be written to the editor.
    private var writeFailure: Int32?

    struct Document {
        var uri: String
        /// Root-relative path when the document is a file of the content tree msgc reads.
        var path: String?
        var text: [UInt8]
        var version: Int
    }

    /// `send` writes one framed message; `log` writes a line for the editor's output panel
    /// (standard error), never a key or a whole document.
    init(writer: MessageWriter, version: String, log: @escaping (String) -> Void) {
        self.writer = writer
        self.version = version
        self.log = log
    }

    /// Serves standard input and output until `exit`; returns how it ended, for `Verdict.status`
    /// to turn into the exit status: success after `shutdown` (0), `exitWithoutShutdown` when
    /// `exit` came without it or the stream ended (1, as LSP asks), an I/O failure when standard
    /// output cannot be written (2: the editor cannot be answered any more).
    ///
    /// Standard error is only the editor's log: a line that cannot be written there (a full
    /// disk, a closed pipe) is dropped, and the server goes on. SIGPIPE is ignored so that a
    /// closed pipe is a failed write the server handles, on either stream, and not its end.
    public static func serve(version: String) -> Verdict {
        signal(SIGPIPE, SIG_IGN)
        let server = LanguageServer(writer: MessageWriter(fileDescriptor: 1), version: version) { line in
            // Lines quote what the editor sent (method names, paths): terminal-safe, as a
            // server started by hand in a terminal shows them there.
            _ = MessageWriter.writeAll(Array(("msgc lsp: " + TerminalText.escaped(line) + "\n").utf8), to: 2)
        }
        var reader = MessageReader(fileDescriptor: 0)
        return server.run(&reader)
    }

    func run(_ reader: inout MessageReader) -> Verdict {
        while true {
            switch reader.next() {
            case .end:
                return ending
            case .skipped(let why, let lost):
                log("skipped \(why)")
                // A message may have been in what was dropped: say so as JSON-RPC says for a
                // message whose id cannot be known.
                if lost { respondError(id: .null, code: -32700, "skipped \(why)") }
            case .notice(let what):
                log(what)
            case .message(let body):
                if let status = handle(body) { return status }
            }
            if let failure = writeFailure {
                log("cannot write to standard output: \(String(cString: strerror(failure))); stopping")
                return failure == EPIPE ? ending : Verdict(.io)
            }
        }
    }

    // MARK: - Dispatch

    /// How `exit`, or the end of the stream, ends the server: LSP asks for 1 without `shutdown` first.
    private var ending: Verdict { isShutDown ? .success : Verdict(.exitWithoutShutdown) }

    /// Handles one message; returns how the server ends when it was `exit`.
    func handle(_ body: [UInt8]) -> Verdict? {
        let message: JSONDocument.Node
        do {
            message = try JSONDocument.parse(body)
        } catch {
            respondError(id: .null, code: -32700, "parse error at \(error.line):\(error.column): \(error.message)")
            return nil
        }
        let id = message.member("id").map(Self.jsonValue)
        guard case .string(let method)? = message.member("method")?.value else {
            // A response to a request of ours (the server sends none) or not a request at all.
            if message.member("result") == nil && message.member("error") == nil {
                respondError(id: id ?? .null, code: -32600, "a request needs a \"method\"")
            }
            return nil
        }
        let params = message.member("params")
        if isShutDown && method != "exit" {
            if let id { respondError(id: id, code: -32600, "the server is shut down") }
            return nil
        }
        switch method {
        case "initialize":
            respond(id: id, initialize(params))
        case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles":
            break
        case "shutdown":
            isShutDown = true
            respond(id: id, .null)
        case "exit":
            return ending
        case "textDocument/didOpen":
            guard let document = params?.member("textDocument"), let uri = Self.string(document.member("uri")),
                  let text = Self.string(document.member("text")) else { return invalidParams(id, method) }
            documents[uri] = Document(uri: uri, path: path(of: uri), text: Array(text.utf8), version: Self.int(document.member("version")) ?? 0)
            check(changed: uri)
        case "textDocument/didChange":
            guard let uri = Self.string(params?.member("textDocument")?.member("uri")), var document = documents[uri],
                  case .array(let changes)? = params?.member("contentChanges")?.value else { return invalidParams(id, method) }
            // Each ranged edit re-reads the document to find its place (the server asks for whole
            // texts, `change: 1`, so an editor sends ranges only against that): bounded, or one
            // notification of many edits to a large document would hold the server for minutes.
            var work = 0
            for change in changes {
                guard let text = Self.string(change.member("text")) else { continue }
                if let range = change.member("range") {
                    work += document.text.count
                    guard work <= Self.maxRangedEditBytes else {
                        log("didChange: \(changes.count) edits to a document of \(document.text.count) bytes are more than the server applies at once; \(uri) is taken as closed")
                        close(uri)
                        if let id { respondError(id: id, code: -32602, "too many edits at once; send the whole text") }
                        return nil
                    }
                    let index = LineIndex(document.text)
                    let start = index.offset(of: Self.position(range.member("start")))
                    let end = max(start, index.offset(of: Self.position(range.member("end"))))
                    document.text.replaceSubrange(start..<end, with: Array(text.utf8))
                } else {
                    document.text = Array(text.utf8)
                }
            }
            document.version = Self.int(params?.member("textDocument")?.member("version")) ?? document.version
            documents[uri] = document
            check(changed: uri)
        case "textDocument/didSave":
            guard let uri = Self.string(params?.member("textDocument")?.member("uri")) else { return invalidParams(id, method) }
            check(changed: uri)
        case "textDocument/didClose":
            guard let uri = Self.string(params?.member("textDocument")?.member("uri")) else { return invalidParams(id, method) }
            close(uri)
        case "textDocument/codeAction":
            respond(id: id, codeActions(params))
        case "textDocument/hover":
            respond(id: id, hover(params))
        default:
            if let id, !method.hasPrefix("$/") {
                respondError(id: id, code: -32601, "msgc lsp does not handle '\(method)'")
            }
        }
        return nil
    }

    /// The most bytes of document the ranged edits of one didChange may re-read, in all.
    static let maxRangedEditBytes = 64 << 20

    /// Forgets an open document: the disk's text counts again, and its findings are cleared.
    private func close(_ uri: String) {
        documents[uri] = nil
        if published[uri] != nil {
            publish(uri, [], version: nil)
            published[uri] = nil
        }
        check(changed: nil)
    }

    private func invalidParams(_ id: JSONValue?, _ method: String) -> Verdict? {
        if let id { respondError(id: id, code: -32602, "'\(method)' is missing a parameter it needs") } else { log("\(method): missing parameters; ignored") }
        return nil
    }

    // MARK: - initialize

    private func initialize(_ params: JSONDocument.Node?) -> JSONValue {
        var folders: [String] = []
        if case .array(let list)? = params?.member("workspaceFolders")?.value {
            folders += list.compactMap { Self.string($0.member("uri")) }
        }
        if let rootURI = Self.string(params?.member("rootUri")) { folders.insert(rootURI, at: 0) }
        var candidates = folders.compactMap(Self.filePath)
        if let rootPath = Self.string(params?.member("rootPath")) { candidates.append(rootPath) }
        root = candidates.lazy.compactMap(Self.contentTree).first
        resolvedRoot = root.map { Self.resolved($0.path) }
        if let root {
            log("content tree \(root.path)")
        } else {
            log("no content tree (msgc.yaml, or content/msgc.yaml) in the workspace; findings will wait for one")
        }
        return [
            "capabilities": [
                "positionEncoding": "utf-16",
                "textDocumentSync": ["openClose": true, "change": 1, "save": ["includeText": false]],
                "codeActionProvider": ["codeActionKinds": ["quickfix"]],
                "hoverProvider": true,
            ],
            "serverInfo": ["name": "msgc", "version": .string(version)],
        ]
    }

    /// The content tree for a workspace folder, found as the command line finds it: the folder
    /// itself when it holds msgc.yaml, else its `content` folder.
    static func contentTree(_ folder: String) -> URL? {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        for candidate in [url, url.appendingPathComponent("content")] {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(ProjectConfig.fileName).path) { return candidate }
        }
        return nil
    }

    /// The root-relative path of a `file:` URI inside the content tree, for the files msgc
    /// reads; nil for anything else.
    func path(of uri: String) -> String? {
        guard let rootPath = resolvedRoot, let file = Self.filePath(uri) else { return nil }
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let folder: String
        if let real = Self.realPath(directory) {
            folder = real
        } else {
            // A folder that is not there (yet: a new file's) is taken as written only when
            // realpath would have had nothing to resolve in it: with a `..`, `.` or empty
            // segment, `messages/../../../etc` would pass for a folder of the tree.
            let segments = directory.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
            folder = directory
        }
        let full = folder + "/" + URL(fileURLWithPath: file).lastPathComponent
        guard full.hasPrefix(rootPath + "/") else { return nil }
        let relative = String(full.dropFirst(rootPath.count + 1))
        let pathExtension = (relative as NSString).pathExtension.lowercased()
        if relative == ProjectConfig.fileName { return relative }
        if relative.hasPrefix("messages/"), ["yaml", "yml"].contains(pathExtension) { return relative }
        if relative.hasPrefix("translations/"), ["xliff", "xlf"].contains(pathExtension) { return relative }
        return nil
    }

    private func uri(of path: String) -> String {
        documents.values.first { $0.path == path }?.uri
            ?? URL(fileURLWithPath: root?.appendingPathComponent(path).path ?? path).absoluteString
    }

    // MARK: - Checking

    /// Checks the tree with every open document's text, and publishes the findings of each
    /// open document that changed (`changed`) or whose findings did.
    func check(changed: String?) {
        guard let root else { return }
        var overlay: [String: [UInt8]] = [:]
        for document in documents.values { if let path = document.path { overlay[path] = document.text } }
        let result = Compilation.compile(ContentTree(root: root, overlay: overlay, cache: cache))
        compilation = result
        // An open translation file also gets the translator's report of `msgc lint FILE`: what
        // is left to do in it, and which units wait for the writer's fix (not orphans).
        let openPaths = Set(documents.values.compactMap(\.path))
        let reportNotes = result.policy.outcome(of: TranslatorReport.notes(for: result) { openPaths.contains($0) }).diagnostics
        findings = Dictionary(grouping: result.diagnostics + reportNotes) { $0.location.path }
        var indexes = lineIndexes()
        for document in documents.values.sorted(by: { $0.uri < $1.uri }) {
            guard let path = document.path else { continue }
            let index = indexes.index(for: path)
            let diagnostics = JSONValue.array((findings[path] ?? []).map { lspDiagnostic($0, index, &indexes) })
            if document.uri == changed || published[document.uri] != diagnostics {
                publish(document.uri, diagnostics, version: document.version)
            }
        }
    }

    private func publish(_ uri: String, _ diagnostics: JSONValue, version: Int?) {
        published[uri] = diagnostics
        var params: [String: JSONValue] = ["uri": .string(uri), "diagnostics": diagnostics]
        if let version { params["version"] = .integer(version) }
        notify("textDocument/publishDiagnostics", .object(params))
    }

    /// `diagnostic` for LSP, its range found in `index` (its document's) and its notes' in
    /// `indexes`, which keeps each document's index for the whole check.
    func lspDiagnostic(_ diagnostic: Diagnostic, _ index: LineIndex, _ indexes: inout LineIndexes) -> JSONValue {
        var message = diagnostic.message
        for note in diagnostic.notes where note.location == nil { message += "\nnote: " + note.message }
        for fix in diagnostic.fixIts { message += "\nfix: " + fix.message }
        var object: [String: JSONValue] = [
            "range": Self.range(diagnostic.location, index),
            "severity": .integer(diagnostic.severity == .error ? 1 : diagnostic.severity == .warning ? 2 : 3),
            "code": .string(diagnostic.code),
            "source": "msgc",
            "message": .string(message),
        ]
        var related: [JSONValue] = []
        for note in diagnostic.notes {
            guard let location = note.location else { continue }
            related.append([
                "location": ["uri": .string(uri(of: location.path)), "range": Self.range(location, indexes.index(for: location.path))],
                "message": .string(note.message),
            ])
        }
        if !related.isEmpty { object["relatedInformation"] = .array(related) }
        return .object(object)
    }

    /// An empty set of line indexes for one check or one request, each made from
    /// `lineIndex(for:)` when first asked for.
    func lineIndexes() -> LineIndexes {
        LineIndexes { [unowned self] path in lineIndex(for: path) }
    }

    /// The line index of a file of the tree: the open document's text, else the disk's.
    func lineIndex(for path: String) -> LineIndex {
        lineIndexesMade += 1
        if let document = documents.values.first(where: { $0.path == path }) { return LineIndex(document.text) }
        guard let root, case .success(let bytes) = ContentTree(root: root).bytes(of: path, limit: ContentLimits.maxXLIFFBytes) else {
            return LineIndex([])
        }
        return LineIndex(bytes)
    }

    /// An LSP range for a location: a whole-file finding is the start of the file, a line
    /// without a column the whole line, a point one character.
    static func range(_ location: SourceLocation, _ index: LineIndex) -> JSONValue {
        guard let line = location.line else { return rangeValue(.init(line: 0, character: 0), .init(line: 0, character: 0)) }
        guard let column = location.column else {
            let start = index.position(line: line, column: 1)
            return rangeValue(start, index.position(line: line, column: Int.max / 2))
        }
        let start = index.position(line: line, column: column)
        var end = index.position(line: location.endLine ?? line, column: location.endColumn ?? column + 1)
        if end.line < start.line || (end.line == start.line && end.character < start.character) { end = start }
        return rangeValue(start, end)
    }

    static func rangeValue(_ start: LineIndex.Position, _ end: LineIndex.Position) -> JSONValue {
        ["start": ["line": .integer(start.line), "character": .integer(start.character)],
         "end": ["line": .integer(end.line), "character": .integer(end.character)]]
    }

    // MARK: - Code actions

    private func codeActions(_ params: JSONDocument.Node?) -> JSONValue {
        guard let documentURI = Self.string(params?.member("textDocument")?.member("uri")), let document = documents[documentURI],
              let path = document.path, let range = params?.member("range") else { return .array([]) }
        var indexes = lineIndexes()
        let index = indexes.index(for: path)
        let start = Self.position(range.member("start"))
        let end = Self.position(range.member("end"))
        var actions: [JSONValue] = []
        for diagnostic in findings[path] ?? [] {
            let lspRange = Self.range(diagnostic.location, index)
            guard Self.overlaps(lspRange, start, end) else { continue }
            for fix in diagnostic.fixIts where !fix.edits.isEmpty {
                var changes: [String: [JSONValue]] = [:]
                for edit in fix.edits {
                    changes[uri(of: edit.location.path), default: []].append(
                        ["range": Self.range(edit.location, indexes.index(for: edit.location.path)), "newText": .string(edit.replacement)])
                }
                actions.append([
                    "title": .string(fix.message),
                    "kind": "quickfix",
                    "diagnostics": [lspDiagnostic(diagnostic, index, &indexes)],
                    "isPreferred": .bool(diagnostic.fixIts.count == 1),
                    "edit": ["changes": .object(changes.mapValues { .array($0) })],
                ])
            }
        }
        return .array(actions)
    }

    static func overlaps(_ range: JSONValue, _ start: LineIndex.Position, _ end: LineIndex.Position) -> Bool {
        guard case .object(let object) = range, let from = position(object["start"]), let to = position(object["end"]) else { return false }
        func before(_ a: LineIndex.Position, _ b: LineIndex.Position) -> Bool { (a.line, a.character) < (b.line, b.character) }
        return !before(to, start) && !before(end, from)
    }

    static func position(_ value: JSONValue?) -> LineIndex.Position? {
        guard case .object(let object)? = value, case .integer(let line)? = object["line"], case .integer(let character)? = object["character"] else { return nil }
        return LineIndex.Position(line: line, character: character)
    }

    // MARK: - Hover

    private func hover(_ params: JSONDocument.Node?) -> JSONValue {
        guard let uri = Self.string(params?.member("textDocument")?.member("uri")), let document = documents[uri],
              let path = document.path, let compilation else { return .null }
        let index = LineIndex(document.text)
        let (line, column) = index.lineAndColumn(of: Self.position(params?.member("position")))
        guard let text = HoverText.markdown(at: path, line: line, column: column, in: compilation) else { return .null }
        return ["contents": ["kind": "markdown", "value": .string(text)]]
    }

    // MARK: - Output

    private func respond(id: JSONValue?, _ result: JSONValue) {
        guard let id else { return }
        send(["jsonrpc": "2.0", "id": id, "result": result])
    }

    private func respondError(id: JSONValue, code: Int, _ message: String) {
        send(["jsonrpc": "2.0", "id": id, "error": ["code": .integer(code), "message": .string(message)]])
    }

    private func notify(_ method: String, _ params: JSONValue) {
        send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    private func send(_ message: JSONValue) {
        guard writeFailure == nil else { return }
        writeFailure = writer.send(message.canonicalBytes)
    }

    // MARK: - Reading parameters

    static func string(_ node: JSONDocument.Node?) -> String? {
        guard case .string(let text)? = node?.value else { return nil }
        return text
    }

    static func int(_ node: JSONDocument.Node?) -> Int? {
        guard case .number(let text)? = node?.value else { return nil }
        return Int(text)
    }

    static func position(_ node: JSONDocument.Node?) -> LineIndex.Position {
        LineIndex.Position(line: int(node?.member("line")) ?? 0, character: int(node?.member("character")) ?? 0)
    }

    /// A request id as it came: a number or a string.
    static func jsonValue(_ node: JSONDocument.Node) -> JSONValue {
        switch node.value {
        case .number(let text): Int(text).map { .integer($0) } ?? .string(text)
        case .string(let text): .string(text)
        default: .null
        }
    }

    /// The path of a `file:` URI, percent-decoded.
    static func filePath(_ uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.path
    }

    static func resolved(_ path: String) -> String {
        realPath(path) ?? path
    }

    /// `path` with its links, `.` and `..` resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
