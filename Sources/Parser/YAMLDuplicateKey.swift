internal import CYaml

/// Finds where a key that Yams reports as duplicated is given again.
///
/// Yams reports a duplicated key at its first occurrence only, but the mistake is usually the
/// later one (an entry pasted again further down), and an editor should be taken there. Only a
/// file with a duplicated key is walked again, with libyaml's events (`YAMLEvents`).
enum YAMLDuplicateKey {
    /// libyaml's 1-based line and column of the second `key` of the mapping whose first `key`
    /// is at `first`, or nil when no such mapping is found (a key that is not a scalar).
    static func secondOccurrence(of key: String, after first: (line: Int, column: Int), in text: String) -> (line: Int, column: Int)? {
        var open: [OpenCollection] = []
        return YAMLEvents.first(in: text) { event -> (line: Int, column: Int)? in
            switch event.type {
            case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT, YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                if let last = open.indices.last, open[last].isMapping {
                    if open[last].expectsKey, event.type == YAML_SCALAR_EVENT, string(event.data.scalar.value, length: event.data.scalar.length) == key {
                        open[last].keyPositions.append((Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1))
                    }
                    open[last].expectsKey.toggle()
                }
                if event.type == YAML_SEQUENCE_START_EVENT { open.append(OpenCollection(isMapping: false)) }
                if event.type == YAML_MAPPING_START_EVENT { open.append(OpenCollection(isMapping: true)) }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let closed = open.popLast() else { break }
                if closed.keyPositions.count > 1 && closed.keyPositions[0] == first { return closed.keyPositions[1] }
            default:
                break
            }
            return nil
        }
    }

    private struct OpenCollection {
        var isMapping: Bool
        /// In a mapping, whether the next node is a key rather than a value.
        var expectsKey = true
        var keyPositions: [(line: Int, column: Int)] = []
    }

    private static func string(_ value: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self)
    }
}
