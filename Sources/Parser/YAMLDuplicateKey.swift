import CYaml

/// Finds where a key that Yams reports as duplicated is given again.
///
/// Yams reports a duplicated key at its first occurrence only, but the mistake is usually the
/// later one (an entry pasted again further down), and an editor should be taken there. Only a
/// file with a duplicated key is walked again, with libyaml's events, the way
/// `YAMLAliasBudget` walks them.
enum YAMLDuplicateKey {
    /// libyaml's 1-based line and column of the second `key` of the mapping whose first `key`
    /// is at `first`, or nil when no such mapping is found (a key that is not a scalar).
    static func secondOccurrence(of key: String, after first: (line: Int, column: Int), in text: String) -> (line: Int, column: Int)? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return walk(&parser, key: key, first: first)
        }
    }

    private struct OpenCollection {
        var isMapping: Bool
        /// In a mapping, whether the next node is a key rather than a value.
        var expectsKey = true
        var keyPositions: [(line: Int, column: Int)] = []
    }

    private static func walk(_ parser: inout yaml_parser_t, key: String, first: (line: Int, column: Int)) -> (line: Int, column: Int)? {
        var open: [OpenCollection] = []
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
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
        }
    }

    private static func string(_ value: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self)
    }
}
