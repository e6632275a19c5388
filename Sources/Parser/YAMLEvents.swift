internal import CYaml

/// libyaml's events for a text, for the passes that need less than Yams composes (the alias
/// budget, where a duplicated key is given again).
enum YAMLEvents {
    /// Hands `body` each event of `text` in turn until it returns a result; nil when the
    /// stream ends first or libyaml cannot parse on (Yams reports that with its own location).
    static func first<Result>(in text: String, _ body: (yaml_event_t) -> Result?) -> Result? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return nil }
                if let result = body(event) { return result }
            }
        }
    }
}
