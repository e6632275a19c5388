internal import CYaml

/// Measures how far a YAML file's aliases expand before Yams composes it, so that an alias
/// bomb is refused instead of hanging msgc.
///
/// An alias (`*name`) stands for the whole node its anchor (`&name`) marks. Nine levels of ten
/// aliases each ("billion laughs" in YAML) are a 200-byte file that stands for a billion nodes.
/// Yams shares the aliased node rather than copying it, but hashing or comparing a node walks
/// all of it, and Yams hashes every mapping key to find duplicates: an alias bomb used as a key
/// would take hours. So this walks libyaml's events (the same libyaml Yams is built on) and
/// adds up, for every alias, how many nodes it stands for. Nodes written out in the file are
/// not counted: those cost no more than the bytes they take, which the size cap bounds.
enum YAMLAliasBudget {
    /// The most nodes that aliases may stand for in one file. A message source that shares a
    /// list of bullets through an alias in every message of a 2,000-message file stays far below.
    static let maxAliasedNodes = 100_000

    /// Where the expansion first goes over the limit.
    struct Overrun: Equatable {
        /// 1-based line and column (in Unicode scalars) of the alias that crossed the limit.
        var line: Int
        var column: Int
        var aliasName: String
    }

    /// The first alias at which the aliased node count passes `limit`, or nil. Text that
    /// libyaml cannot parse gives nil: Yams reports that error with its own location.
    static func firstOverrun(in text: String, limit: Int = maxAliasedNodes) -> Overrun? {
        // Only an alias can expand; most files have no `*` at all and skip the extra pass.
        guard text.utf8.contains(UInt8(ascii: "*")) else { return nil }
        var anchorSizes: [String: Int] = [:]
        var open: [OpenCollection] = []
        var aliasedNodes = 0
        func add(_ count: Int) {
            if !open.isEmpty { open[open.count - 1].nodeCount += count }
        }
        return YAMLEvents.first(in: text) { event -> Overrun? in
            switch event.type {
            case YAML_SCALAR_EVENT:
                if let anchor = string(event.data.scalar.anchor) { anchorSizes[anchor] = 1 }
                add(1)
            case YAML_SEQUENCE_START_EVENT:
                open.append(OpenCollection(anchor: string(event.data.sequence_start.anchor)))
            case YAML_MAPPING_START_EVENT:
                open.append(OpenCollection(anchor: string(event.data.mapping_start.anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let closed = open.popLast() else { break }
                if let anchor = closed.anchor { anchorSizes[anchor] = closed.nodeCount }
                add(closed.nodeCount)
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor) ?? ""
                // An undefined alias is Yams's error to report; count it as one node.
                let size = anchorSizes[name] ?? 1
                aliasedNodes += size
                if aliasedNodes > limit {
                    return Overrun(
                        line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1, aliasName: name)
                }
                add(size)
            default:
                break
            }
            return nil
        }
    }

    private struct OpenCollection {
        var anchor: String?
        var nodeCount = 1
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}
