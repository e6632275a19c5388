import Diagnostics
import Model

/// Reads the optional `defaults` member of a state file: the default message Apple serves for
/// each product and locale `msgc state fetch --defaults` asked about.
///
/// ```json
/// "defaults": [ { "product": "…", "locale": "en-US", "messageIdentifier": "…" },
///               { "product": "…", "locale": "de-DE", "messageIdentifier": null } ]
/// ```
///
/// A state file without it (earlier versions, or a fetch without `--defaults`) has no defaults
/// at all, which is not the same as defaults that are all none. A product or locale that is not
/// one safe path segment, or a value of the wrong type, is an STA001 error: `msgc prune` puts
/// both into request paths. A message identifier that is not a UUID is an STA004 warning and
/// the entry is left out, as for the lists.
enum StateDefaultsParser {
    static func read(_ root: JSONDocument.Node, path: String, diagnostics: inout [Diagnostic]) -> [HeldDefault]? {
        guard let list = root.member("defaults") else { return nil }
        func report(_ message: String, at node: JSONDocument.Node) {
            diagnostics.append(StateDiagnostics.invalidStateFile.diagnose(
                message, at: SourceLocation(path: path, line: node.line, column: node.column),
                fixIts: [FixIt("fetch the state again with `msgc state fetch --defaults`")]))
        }
        guard case .array(let entries) = list.value else {
            report("\"defaults\" must be an array, not \(list.kindName)", at: list)
            return nil
        }
        var result: [HeldDefault] = []
        var seen: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let place = "defaults[\(index)]"
            guard case .object = entry.value else {
                report("\(place) must be an object, not \(entry.kindName)", at: entry)
                continue
            }
            var segments: [String] = []
            for key in ["product", "locale"] {
                guard let node = entry.member(key), case .string(let text) = node.value else {
                    report("\(place) needs \"\(key)\", a string", at: entry.member(key) ?? entry)
                    break
                }
                guard !text.isEmpty, PathSegment.isSafe(text), !text.unicodeScalars.contains(where: { "?#% ".unicodeScalars.contains($0) }) else {
                    report("\(place).\(key) '\(text)' is not one path segment", at: node)
                    break
                }
                segments.append(text)
            }
            guard segments.count == 2 else { continue }
            var identifier: String?
            if let node = entry.member("messageIdentifier") {
                switch node.value {
                case .null: identifier = nil
                case .string(let text):
                    guard UUIDText.parse(text) != nil else {
                        diagnostics.append(StateDiagnostics.unusableIdentifier.diagnose(
                            "\(place).messageIdentifier '\(text)' is not a UUID; msgc ignores this entry",
                            at: SourceLocation(path: path, line: node.line, column: node.column),
                            fixIts: [FixIt("fetch the state again with `msgc state fetch --defaults`")]))
                        continue
                    }
                    identifier = text
                default:
                    report("\(place).messageIdentifier must be a string or null, not \(node.kindName)", at: node)
                    continue
                }
            } else {
                report("\(place) needs \"messageIdentifier\", a UUID or null (Apple serves no default there)", at: entry)
                continue
            }
            let key = segments[0] + "/" + segments[1]
            if let first = seen[key] {
                if result[first].messageIdentifier != identifier?.lowercased() {
                    report("\(place) names \(key) again with another message than defaults[\(first)]; msgc cannot tell which Apple serves", at: entry)
                }
                continue
            }
            seen[key] = result.count
            result.append(HeldDefault(
                product: segments[0], locale: segments[1], messageIdentifier: identifier,
                location: SourceLocation(path: path, line: entry.line, column: entry.column)))
        }
        return result
    }
}
