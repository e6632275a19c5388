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
/// msgc writes the member itself, so it is read strictly (`null` is a value: no default). A
/// state file without it (earlier versions, or a fetch without `--defaults`) has no defaults
/// at all, which is not the same as defaults that are all none. A product or locale that is not
/// one safe path segment, or a value of the wrong type, is an STA001 error: `msgc prune` puts
/// both into request paths. A message identifier that is not a UUID is an STA004 warning and
/// the entry is left out, as for the lists.
enum StateDefaultsParser {
    /// `root` is the state file read strictly.
    static func read(_ root: JSONCursor, diagnostics: inout [Diagnostic]) -> [HeldDefault]? {
        guard let list = root.member("defaults") else { return nil }
        let fixIt = FixIt("fetch the state again with `msgc state fetch --defaults`")
        func report(_ error: JSONReadError) {
            diagnostics.append(StateDiagnostics.invalidStateFile.diagnose(error.message, at: error.location, fixIts: [fixIt]))
        }
        let entries: [JSONCursor]
        do {
            entries = try list.array()
        } catch {
            report(error)
            return nil
        }
        var result: [HeldDefault] = []
        var seen: [String: (path: String, index: Int)] = [:]
        for entry in entries {
            guard case .object = entry.node.value else {
                report(entry.mismatch("an object"))
                continue
            }
            var segments: [String] = []
            for key in ["product", "locale"] {
                guard let node = entry.member(key), let text = try? node.string() else {
                    report((entry.member(key) ?? entry).error("\(entry.path) needs \"\(key)\", a string"))
                    break
                }
                guard !text.isEmpty, PathSegment.isSafe(text), !text.unicodeScalars.contains(where: { "?#% ".unicodeScalars.contains($0) }) else {
                    report(node.error("\(node.path) '\(text)' is not one path segment"))
                    break
                }
                segments.append(text)
            }
            guard segments.count == 2 else { continue }
            guard let node = entry.member("messageIdentifier") else {
                report(entry.error("\(entry.path) needs \"messageIdentifier\", a UUID or null (Apple serves no default there)"))
                continue
            }
            let identifier: String?
            do {
                identifier = try entry.optionalString("messageIdentifier")
            } catch {
                report(error)
                continue
            }
            if let identifier, UUIDText.parse(identifier) == nil {
                diagnostics.append(StateDiagnostics.unusableIdentifier.diagnose(
                    "\(node.path) '\(identifier)' is not a UUID; msgc ignores this entry",
                    at: node.location, fixIts: [fixIt]))
                continue
            }
            let key = segments[0] + "/" + segments[1]
            if let first = seen[key] {
                if result[first.index].messageIdentifier != identifier?.lowercased() {
                    report(entry.error("\(entry.path) names \(key) again with another message than \(first.path); msgc cannot tell which Apple serves"))
                }
                continue
            }
            seen[key] = (entry.path, result.count)
            result.append(HeldDefault(
                product: segments[0], locale: segments[1], messageIdentifier: identifier,
                location: entry.location))
        }
        return result
    }
}
