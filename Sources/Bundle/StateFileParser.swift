import Diagnostics
import Foundation
import Model

/// Reads a state file: Apple's Get Message List and Get Image List responses, as the applier
/// saved them (docs/formats.md, "The state file").
///
/// ```json
/// { "messages": { "messageIdentifiers": [ { "messageIdentifier": "…", "messageState": "APPROVED" } ] },
///   "images":   { "imageIdentifiers":   [ { "imageIdentifier": "…", "imageState": "PENDING", "imageSize": "FULL_SIZE" } ] } }
/// ```
///
/// Both members, `messages` and `images`, are required: msgc wrote them. What is inside is
/// read as Apple's own libraries read it, every member optional: a missing or `null` list is
/// empty (an app that never uploaded anything), an image without `imageSize` (uploaded before
/// API 1.4) has a size Apple did not say, an entry without a state has one msgc does not know.
/// Members msgc does not read are ignored, because Apple may add fields; a state msgc does not
/// know is kept as written and never taken for approval. An entry whose identifier is missing
/// or not a UUID is an STA004 warning and is not used at all: identifiers become request paths
/// and manifest entries. Anything else (a value of the wrong type, a contradiction) is an STA001
/// error at its line and column, and no state at all: a state file is used whole or not at all.
public enum StateFileParser {
    /// A state file larger than this is refused (Apple holds at most 2,000 of each kind).
    public static let maxBytes = 16 << 20

    /// Reads the file at `url`; `displayPath` is how diagnostics name it.
    public static func load(_ url: URL, displayPath: String) -> (StateFile?, [Diagnostic]) {
        switch FileReader.bytes(at: url, limit: maxBytes) {
        case .success(let bytes):
            let (state, diagnostics) = parse(bytes: bytes, path: displayPath)
            return (state, diagnostics + (state.map { originWarnings($0, path: displayPath) } ?? []))
        case .failure(.missing):
            return (nil, [problem("state file '\(displayPath)' does not exist", path: displayPath)])
        case .failure(.tooLarge(let size)):
            return (nil, [problem("state file '\(displayPath)' has \(size) bytes; msgc reads at most \(maxBytes)", path: displayPath)])
        case .failure(.unreadable(let reason)):
            return (nil, [problem("state file '\(displayPath)' cannot be read: \(reason)", path: displayPath)])
        }
    }

    /// Parses the bytes of a state file named `path`.
    public static func parse(bytes: [UInt8], path: String) -> (StateFile?, [Diagnostic]) {
        do {
            return read(try JSONCursor.parse(bytes, file: path, reading: .lenient, naming: .path, syntaxPrefix: "state file is not valid JSON: "))
        } catch {
            return (nil, [problem(error)])
        }
    }

    /// Reads a state file already read as JSON (leniently, named by paths): `root` holds the
    /// `messages` and `images` members. `msgc state fetch` hands Apple's two answers here as
    /// those members, with `isFile` false: they are Apple's lists, not yet a file that must say
    /// what it describes. msgc's own members (`defaults`, `environment`, `bundleId`,
    /// `fetchedAt`) are read strictly.
    public static func read(_ root: JSONCursor, isFile: Bool = true) -> (StateFile?, [Diagnostic]) {
        guard case .object = root.node.value else {
            return (nil, [problem(root.error("state file must be a JSON object with \"messages\" and \"images\", not \(root.kindName)"))])
        }
        var diagnostics: [Diagnostic] = []
        let messages = list(
            in: root, outer: "messages", inner: "messageIdentifiers", identifierKey: "messageIdentifier", stateKey: "messageState",
            sizeKey: nil, diagnostics: &diagnostics)
        let images = list(
            in: root, outer: "images", inner: "imageIdentifiers", identifierKey: "imageIdentifier", stateKey: "imageState",
            sizeKey: "imageSize", diagnostics: &diagnostics)
        let defaults = StateDefaultsParser.read(root.read(.strict), diagnostics: &diagnostics)
        let origin = isFile ? self.origin(root.read(.strict), diagnostics: &diagnostics) : (nil, nil, nil)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        var state = StateFile(messages: messages, images: images, defaults: defaults)
        (state.environment, state.bundleId, state.fetchedAt) = origin
        return (state, diagnostics)
    }

    /// `environment`, `bundleId` and `fetchedAt`, msgc's own members, read strictly: a string
    /// each (an environment msgc knows, a bundle id that is one path segment) or an STA001
    /// error. A file without the first two (written before msgc recorded them) is used as
    /// before; `load`, what commands read a state file with, warns of it (STA011).
    private static func origin(
        _ root: JSONCursor, diagnostics: inout [Diagnostic]
    ) -> (environment: String?, bundleId: String?, fetchedAt: String?) {
        func text(_ key: String, where isValid: (String) -> Bool = { _ in true }, else problem: (String) -> String = { _ in "" }) -> String? {
            guard root.has(key) else { return nil }
            do {
                return try root.string(key, as: { isValid($0) ? $0 : nil }, else: problem)
            } catch {
                diagnostics.append(Self.problem(error))
                return nil
            }
        }
        let environment = text("environment", where: { ["sandbox", "production"].contains($0) }) {
            "\"environment\" must be sandbox or production, not '\($0)'"
        }
        let bundleId = text("bundleId", where: PathSegment.isSafe) { "\"bundleId\" must be an app's bundle id, not '\($0)'" }
        return (environment, bundleId, text("fetchedAt"))
    }

    /// STA011 for a state file given to a command that does not say which environment or app
    /// it describes (written before msgc recorded them): it is used as before, unchecked.
    public static func originWarnings(_ state: StateFile, path: String) -> [Diagnostic] {
        guard state.environment == nil || state.bundleId == nil else { return [] }
        let missing = [state.environment == nil ? "environment" : nil, state.bundleId == nil ? "app (bundleId)" : nil].compactMap { $0 }
        return [StateDiagnostics.stateWithoutOrigin.diagnose(
            "state file does not say which \(missing.joined(separator: " or ")) it describes (written before msgc recorded it); msgc cannot check that it is this bundle's",
            at: SourceLocation(path: path, line: 1, column: 1),
            fixIts: [FixIt("fetch it again with `msgc state fetch`, which records the environment, the app and when it read them")])]
    }

    /// Whether `state` describes `environment` and the app `bundleId`: nil when it does (or
    /// does not say, which its STA011 warning reports), else why not, naming both, for the
    /// command to refuse with exit status 2. `build`, `coverage`, `realtime snapshot` and
    /// `prune` all ask here, so that none uses another environment's or app's state.
    public static func mismatch(_ state: StateFile, path: String, environment: Environment, bundleId: String) -> String? {
        let environmentDiffers = state.environment.map { $0 != environment.rawValue } ?? false
        let appDiffers = state.bundleId.map { $0 != bundleId } ?? false
        guard environmentDiffers || appDiffers else { return nil }
        let described = "\(state.environment ?? "an unnamed environment") of \(state.bundleId ?? "an unnamed app")"
        let fetched = state.fetchedAt.map { ", fetched at \($0)" } ?? ""
        return "state file '\(path)' describes \(described)\(fetched), but this is \(environment.rawValue) of \(bundleId); "
            + "fetch that one with `msgc state fetch --environment \(environment.rawValue) --bundle-id \(bundleId) --out FILE`"
    }

    private static func list(
        in root: JSONCursor, outer: String, inner: String, identifierKey: String, stateKey: String, sizeKey: String?,
        diagnostics: inout [Diagnostic]
    ) -> [HeldUpload] {
        func report(_ error: JSONReadError) { diagnostics.append(problem(error)) }
        guard let container = root.member(outer) else {
            report(root.error("state file has no \"\(outer)\" member (Apple's \(outer == "messages" ? "Get Message List" : "Get Image List") response)"))
            return []
        }
        guard case .object = container.node.value else {
            report(container.mismatch("an object with \"\(inner)\""))
            return []
        }
        // Apple's libraries decode the list as optional: an app that never uploaded anything may
        // get `{}` or `null`, and that is an empty list.
        guard let list = container.member(inner) else { return [] }
        let entries: [JSONCursor]
        do {
            entries = try list.array()
        } catch {
            report(error)
            return []
        }
        var result: [HeldUpload] = []
        // Identifiers are compared case-insensitively, as everywhere else: the first entry of
        // each, to tell a repeat that agrees (noise, kept once) from one that contradicts it.
        var firstOfIdentifier: [String: (path: String, state: String, size: String?, line: Int)] = [:]
        for entry in entries {
            guard case .object = entry.node.value else {
                report(entry.mismatch("an object"))
                continue
            }
            // Every member is optional in Apple's libraries: absent or null is "Apple did not
            // say"; a value of another type is not something Apple sends.
            var wrongType = false
            func text(_ key: String) -> String? {
                do {
                    return try entry.optionalString(key)
                } catch {
                    report(error)
                    wrongType = true
                    return nil
                }
            }
            let identifier = text(identifierKey)
            let state = text(stateKey) ?? ""
            let size = sizeKey.flatMap { text($0) }
            guard !wrongType else { continue }
            // An identifier reaches request paths and the manifest: only a UUID is used at all.
            guard let identifier, UUIDText.parse(identifier) != nil else {
                // Where the identifier is written, a `null` one included; else the entry.
                let place = entry.node.member(identifierKey) ?? entry.node
                diagnostics.append(StateDiagnostics.unusableIdentifier.diagnose(
                    identifier.map { "\(entry.path).\(identifierKey) '\($0)' is not a UUID; msgc ignores this entry" }
                        ?? "\(entry.path) has no \"\(identifierKey)\"; msgc ignores this entry",
                    at: SourceLocation(path: root.file, line: place.line, column: place.column),
                    fixIts: [FixIt("fetch the state again with `msgc state fetch`; Apple lists every upload under its UUID")]))
                continue
            }
            let key = identifier.lowercased()
            if let first = firstOfIdentifier[key] {
                // One identifier listed twice: the same facts are a harmless repeat; different ones
                // (APPROVED, then REJECTED) leave msgc unable to tell what Apple holds, and a state
                // file is used whole or not at all.
                if first.state != state || first.size != size {
                    report(entry.error(
                        "\(entry.path) lists '\(identifier)' again as \(describe(state))\(size.map { " \($0)" } ?? ""), but \(first.path) on line \(first.line) lists it as \(describe(first.state))\(first.size.map { " \($0)" } ?? ""); msgc cannot tell which Apple holds"))
                }
                continue
            }
            firstOfIdentifier[key] = (entry.path, state, size, entry.line)
            result.append(HeldUpload(
                identifier: identifier, state: ReviewState(raw: state), imageSize: size,
                location: entry.location))
        }
        return result
    }

    private static func describe(_ state: String) -> String { state.isEmpty ? "without a state" : state }

    private static func problem(_ error: JSONReadError) -> Diagnostic {
        problem(error.message, path: error.file, line: error.line, column: error.column)
    }

    private static func problem(_ message: String, path: String, line: Int? = nil, column: Int? = nil) -> Diagnostic {
        StateDiagnostics.invalidStateFile.diagnose(
            message, at: SourceLocation(path: path, line: line, column: column),
            fixIts: [FixIt("give --state the applier's saved Get Message List and Get Image List responses: {\"messages\": {\"messageIdentifiers\": […]}, \"images\": {\"imageIdentifiers\": […]}}")])
    }
}
