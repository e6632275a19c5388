import Diagnostics
import Model
internal import Yams

/// One YAML file of the content tree, composed into Yams nodes, with the helpers that turn
/// nodes into located values and report every shape mistake as a diagnostic.
struct YAMLDocument {
    /// Deeper nesting than this is refused before libyaml sees it: message sources need
    /// five levels, and the composer recurses once per level.
    static let maxNestingDepth = 64

    let path: String
    /// The path as every location made in the file holds it, looked up once.
    let file: SourcePath
    let source: SourceFile
    let root: Node?
    private let lines: [Substring]
    /// For each line of more than `checkpointStride` scalars, where every `checkpointStride`th
    /// scalar starts, so that a value's place on a long line is found without walking the line
    /// from its start each time (a file of thousands of flow mappings on one line took
    /// quadratic time).
    private let checkpoints: [Int: [String.Index]]
    static let checkpointStride = 256
    private let lineMap: YAMLLineMap

    /// Parses `bytes` read from `path`; a file that cannot be used gives a nil root and diagnostics.
    static func parse(bytes: [UInt8], path: String) -> (YAMLDocument?, [Diagnostic]) {
        let text: String
        switch UTF8Text.decode(bytes) {
        case .success(let decoded):
            text = decoded
        case .failure(let invalid):
            let offset = invalid.offset
            let position = UTF8Text.lineAndColumn(ofByte: offset, in: bytes)
            let byte = String(bytes[offset], radix: 16, uppercase: true)
            return (nil, [ParserDiagnostics.invalidEncoding.diagnose(
                "file is not valid UTF-8: byte 0x\(byte) at offset \(offset) does not start a valid sequence",
                at: SourceLocation(path: path, line: position.line, column: position.column),
                fixIts: [FixIt("save the file as UTF-8")])])
        }
        let source = SourceFile(path: path, text: text)
        let lineMap = YAMLLineMap(text)
        if let location = deepNesting(in: text, path: path) {
            return (nil, [ParserDiagnostics.inputTooLarge.diagnose(
                "YAML nests deeper than \(maxNestingDepth) levels", at: location)])
        }
        if let overrun = YAMLAliasBudget.firstOverrun(in: text) {
            let position = lineMap.position(line: overrun.line, column: overrun.column)
            let location = SourceLocation(path: path, line: position.line, column: position.column)
            return (nil, [ParserDiagnostics.inputTooLarge.diagnose(
                "YAML aliases expand to more than \(YAMLAliasBudget.maxAliasedNodes) nodes; "
                    + "'*\(overrun.aliasName)' goes over the limit",
                at: location.spanning(scalars: overrun.aliasName.unicodeScalars.count + 1),
                fixIts: [FixIt("write the values out, or use fewer aliases")])])
        }
        do {
            // msgc reads every scalar as the text it is written as (`header: 2024` is "2024"),
            // so no tags are resolved: Yams' default resolver compiles a dozen regular
            // expressions through ICU on first use and runs them on every key it compares.
            // The encoding is named: Yams' default reads the environment on every parse
            // (`YAMS_DEFAULT_ENCODING`), and when that is set prints a line to standard output
            // and parses as UTF-16.
            let root = try Yams.compose(yaml: text, .basic, .default, .utf8)
            return (YAMLDocument(path: path, source: source, root: root, lineMap: lineMap), [])
        } catch let error as YamlError {
            return (YAMLDocument(path: path, source: source, root: nil, lineMap: lineMap),
                    [diagnostic(for: error, path: path, text: text, lineMap: lineMap)])
        } catch {
            return (YAMLDocument(path: path, source: source, root: nil, lineMap: lineMap), [ParserDiagnostics.malformedYAML.diagnose(
                "YAML could not be read: \(error)", at: SourceLocation(path: path))])
        }
    }

    private init(path: String, source: SourceFile, root: Node?, lineMap: YAMLLineMap) {
        self.path = path
        self.file = SourcePath(path)
        self.source = source
        self.root = root
        self.lines = Self.lines(of: source.text)
        self.checkpoints = Self.checkpoints(of: lines)
        self.lineMap = lineMap
    }

    static func checkpoints(of lines: [Substring]) -> [Int: [String.Index]] {
        var result: [Int: [String.Index]] = [:]
        for (number, line) in lines.enumerated() where line.utf8.count > checkpointStride {
            var marks: [String.Index] = []
            var count = 0
            for index in line.unicodeScalars.indices {
                if count % checkpointStride == 0 { marks.append(index) }
                count += 1
            }
            if marks.count > 1 { result[number] = marks }
        }
        return result
    }

    /// Line `line` (0-based) from its scalar `offset` on.
    func rest(ofLine line: Int, from offset: Int) -> Substring {
        let scalars = lines[line].unicodeScalars
        guard offset > 0 else { return Substring(scalars) }
        guard let marks = checkpoints[line] else { return Substring(scalars.dropFirst(offset)) }
        let mark = min(offset / Self.checkpointStride, marks.count - 1)
        let start = scalars.index(marks[mark], offsetBy: offset - mark * Self.checkpointStride, limitedBy: scalars.endIndex) ?? scalars.endIndex
        return Substring(scalars[start...])
    }

    /// `text.hasPrefix(prefix)`, which compares Characters, settled from the bytes when they can
    /// settle it: every value of a message source is checked, and walking grapheme clusters
    /// cost more than the rest of reading the file. When `text` starts with the bytes of
    /// `prefix` and either ends there or has an ASCII byte there after an ASCII byte (not a
    /// line feed after a carriage return), a Character boundary falls there, so the Characters
    /// match too. Anything else is left to `hasPrefix`.
    static func hasPrefix(_ text: Substring, _ prefix: String) -> Bool {
        let textBytes = text.utf8
        let prefixBytes = prefix.utf8
        guard let last = prefixBytes.last, startsWithBytes(textBytes, prefixBytes) else { return text.hasPrefix(prefix) }
        let end = textBytes.index(textBytes.startIndex, offsetBy: prefixBytes.count)
        if end == textBytes.endIndex { return true }
        let next = textBytes[end]
        if last < 0x80 && next < 0x80 && !(last == UInt8(ascii: "\r") && next == UInt8(ascii: "\n")) { return true }
        return text.hasPrefix(prefix)
    }

    /// Whether `text` starts with the bytes of `prefix`: compared in place where both are
    /// contiguous (native strings always are), as the generic `starts(with:)` walks two
    /// indices a byte at a time.
    private static func startsWithBytes(_ text: Substring.UTF8View, _ prefix: String.UTF8View) -> Bool {
        let compared = text.withContiguousStorageIfAvailable { textBuffer in
            prefix.withContiguousStorageIfAvailable { prefixBuffer in
                textBuffer.count >= prefixBuffer.count && textBuffer.prefix(prefixBuffer.count).elementsEqual(prefixBuffer)
            }
        }
        return (compared ?? nil) ?? text.starts(with: prefix)
    }

    /// The text split into lines as editors and `SourceFile.line` split it: at every line feed,
    /// a carriage return just before one being part of the break. The UTF-8 bytes are split
    /// rather than Characters, which would cost more than the rest of this type and would not
    /// split at all at "\r\n", a Character of its own. Breaks that libyaml counts and msgc
    /// does not are `YAMLLineMap`'s concern.
    static func lines(of text: String) -> [Substring] {
        let utf8 = text.utf8
        var lines: [Substring] = []
        var lineStart = utf8.startIndex
        var previous: UInt8 = 0
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\n") {
                let lineEnd = previous == UInt8(ascii: "\r") ? utf8.index(before: index) : index
                lines.append(Substring(utf8[lineStart..<lineEnd]))
                lineStart = utf8.index(after: index)
            }
            previous = byte
            index = utf8.index(after: index)
        }
        lines.append(Substring(utf8[lineStart..<utf8.endIndex]))
        return lines
    }

    /// A conservative estimate of nesting: indentation, block-sequence dashes and open flow
    /// brackets. It may overestimate, never underestimate, so it only ever refuses absurd input.
    private static func deepNesting(in text: String, path: String) -> SourceLocation? {
        var flowDepth = 0
        var lineNumber = 1
        var atLineStart = true
        var blockDepth = 0
        var column = 1
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\n"):
                lineNumber += 1
                atLineStart = true
                blockDepth = 0
                column = 0
            case UInt8(ascii: " ") where atLineStart:
                blockDepth += 1
            case UInt8(ascii: "-") where atLineStart:
                blockDepth += 2
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                atLineStart = false
                flowDepth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                atLineStart = false
                flowDepth = max(0, flowDepth - 1)
            default:
                atLineStart = false
            }
            column += 1
            if flowDepth + blockDepth / 2 > maxNestingDepth * 4 || flowDepth > maxNestingDepth {
                return SourceLocation(path: path, line: lineNumber, column: max(column - 1, 1))
            }
        }
        return nil
    }

    private static func diagnostic(for error: YamlError, path: String, text: String, lineMap: YAMLLineMap) -> Diagnostic {
        func at(position: (line: Int, column: Int)) -> SourceLocation {
            SourceLocation(path: path, line: position.line, column: position.column)
        }
        func at(_ mark: Mark) -> SourceLocation { at(position: lineMap.position(of: mark)) }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            // libyaml's words are for YAML's authors ("did not find expected '-' indicator");
            // the common ones are said as a writer would fix them, libyaml's kept as a note.
            var notes: [Note] = []
            // A quote left open runs on to the next quote in the file, and libyaml gives up
            // lines later: the finding belongs where the quote opened.
            let problemLine = lineMap.position(of: mark).line
            if let opened = unclosedQuote(in: text, before: problemLine) {
                notes.append(Note("the YAML parser says: \(context.map { $0.text + ", " } ?? "")\(problem)", at: at(mark)))
                return ParserDiagnostics.malformedYAML.diagnose(
                    "malformed YAML: a quoted value is never closed: its closing quote is missing",
                    at: at(position: opened), notes: notes,
                    fixIts: [FixIt("close the quote at the end of the value")])
            }
            if let words = writersWords(problem: problem, context: context?.text) {
                notes.append(Note("the YAML parser says: \(context.map { $0.text + ", " } ?? "")\(problem)", at: context.map { at($0.mark) }))
                // An unclosed quote is reported where it opens, not where libyaml gives up.
                let location = words.atContext ? context.map { at($0.mark) } ?? at(mark) : at(mark)
                return ParserDiagnostics.malformedYAML.diagnose("malformed YAML: \(words.message)", at: location, notes: notes)
            }
            if let context { notes.append(Note(context.text, at: at(context.mark))) }
            return ParserDiagnostics.malformedYAML.diagnose("malformed YAML: \(problem)", at: at(mark), notes: notes)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let sorted = duplicates.sorted()
            let names = sorted.map { "'\($0)'" }.joined(separator: ", ")
            let first = (line: context.mark.line, column: context.mark.column)
            guard let key = sorted.first,
                  let second = YAMLDuplicateKey.secondOccurrence(of: key, after: first, in: text) else {
                return ParserDiagnostics.duplicateYAMLKey.diagnose(
                    "mapping gives the key \(names) more than once", at: at(context.mark),
                    fixIts: [FixIt("keep one of the entries")])
            }
            return ParserDiagnostics.duplicateYAMLKey.diagnose(
                "mapping gives the key \(names) more than once",
                at: at(position: lineMap.position(line: second.line, column: second.column)),
                notes: [Note("'\(key)' is first given here", at: at(context.mark))],
                fixIts: [FixIt("keep one of the entries")])
        case .reader(_, _, let value, _) where value >= 0:
            // libyaml refuses some characters outright (controls other than tab and line
            // breaks, U+FFFE, U+FFFF) and reports a Character offset; the character itself
            // is found by its code point, so that it can be shown where it is.
            let hex = String(value, radix: 16, uppercase: true)
            let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let location = Unicode.Scalar(UInt32(value)).flatMap { firstPosition(of: $0, in: text) }
                .map { at(position: $0).spanning(scalars: 1) } ?? SourceLocation(path: path)
            return ParserDiagnostics.malformedYAML.diagnose(
                "YAML could not be read: character \(name) is not allowed", at: location)
        case .reader(let problem, let offset, _, _):
            return ParserDiagnostics.malformedYAML.diagnose(
                "YAML could not be read: \(problem)\(offset.map { " at offset \($0)" } ?? "")", at: SourceLocation(path: path))
        default:
            return ParserDiagnostics.malformedYAML.diagnose("YAML could not be read: \(error)", at: SourceLocation(path: path))
        }
    }

    /// The first line before `line` (1-based) where a value opens with a quote that the line
    /// does not close (`header: "Your streak…` with no closing `"`), as msgc's 1-based line
    /// and column of the quote; nil when there is none. A quoted value may run over lines in
    /// YAML, but message sources write one per line, and this is asked only once libyaml
    /// has failed.
    static func unclosedQuote(in text: String, before line: Int) -> (line: Int, column: Int)? {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(max(0, line - 1)).enumerated() {
            let scalars = Array(raw.unicodeScalars)
            // The value's first character: after "key: " or "- ".
            var start: Int?
            for position in scalars.indices where scalars[position] == "\"" || scalars[position] == "'" {
                let before = scalars[..<position].drop { $0 == " " }
                let lastTwo = String(String.UnicodeScalarView(scalars[max(0, position - 2)..<position]))
                if lastTwo == ": " || lastTwo == "- " || (before.first == "-" && before.count == 2) { start = position }
                break
            }
            guard let start else { continue }
            let quote = scalars[start]
            var position = start + 1
            var closed = false
            while position < scalars.count {
                if quote == "\"" && scalars[position] == "\\" { position += 2; continue }
                if scalars[position] == quote {
                    if quote == "'" && position + 1 < scalars.count && scalars[position + 1] == "'" { position += 2; continue }
                    closed = true
                    break
                }
                position += 1
            }
            if !closed && !scalars[(start + 1)...].allSatisfy(\.properties.isWhitespace) {
                return (index + 1, start + 1)
            }
        }
        return nil
    }

    /// libyaml's common problems in a writer's words, and whether the finding belongs where
    /// libyaml's context starts (an unclosed quote: where it opens) rather than where it
    /// gave up; nil for the others, which keep libyaml's words.
    static func writersWords(problem: String, context: String?) -> (message: String, atContext: Bool)? {
        switch (problem, context ?? "") {
        case (_, "while scanning a quoted scalar"):
            return ("a quoted value is never closed: its closing quote is missing", true)
        case ("did not find expected '-' indicator", _):
            return ("this line is not indented like the list items before it; every item of a list starts with '-' at the same indent", false)
        case ("did not find expected key", _):
            return ("this line is not indented like the keys of the mapping it is in; keys of one mapping start at the same indent", false)
        case ("mapping values are not allowed in this context", _):
            return ("a ': ' inside a value that is not quoted; put the value in quotes", false)
        case ("found character that cannot start any token", _):
            return ("a value starts with a character YAML reserves (such as '@', '`' or '%'); put the value in quotes", false)
        case ("found a tab character that violates indentation", _), ("found a tab character where an indentation space is expected", _):
            return ("a tab indents this line; YAML indents with spaces only", false)
        case ("could not find expected ':'", _):
            return ("a key has no ':' after it, or a value runs over lines without quotes", false)
        default:
            return nil
        }
    }

    /// msgc's 1-based line and column of the first `scalar` in `text`.
    private static func firstPosition(of scalar: Unicode.Scalar, in text: String) -> (line: Int, column: Int)? {
        var line = 1
        var column = 1
        for candidate in text.unicodeScalars {
            if candidate == scalar { return (line, column) }
            if candidate == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return nil
    }

    // MARK: Locations

    func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file) }
        let position = lineMap.position(of: mark)
        return SourceLocation(file: file, line: position.line, column: position.column)
    }

    /// The value of a scalar, located, with how its text maps back to columns.
    func located(_ scalar: Node.Scalar) -> Located<String> {
        guard let mark = scalar.mark else { return Located(scalar.string, at: SourceLocation(file: file), style: .opaque) }
        let position = lineMap.position(of: mark)
        let location = SourceLocation(file: file, line: position.line, column: position.column)
        guard position.line - 1 < lines.count else { return Located(scalar.string, at: location, style: .opaque) }
        let rest = self.rest(ofLine: position.line - 1, from: position.column - 1)
        let value = scalar.string
        let style: ScalarStyle
        switch scalar.style {
        case .plain where Self.hasPrefix(rest, value):
            style = .plain
        case .singleQuoted where Self.hasPrefix(rest, "'" + value + "'"),
             .doubleQuoted where Self.hasPrefix(rest, "\"" + value + "\""):
            style = .quoted(hasEscapes: false)
        case .singleQuoted, .doubleQuoted:
            style = .quoted(hasEscapes: true)
        default:
            style = .opaque
        }
        return Located(value, at: location, style: style)
    }
}

/// Reads one YAML mapping field by field, reporting unknown keys, wrong types and missing
/// required fields as it goes.
struct MappingReader {
    let document: YAMLDocument
    let node: Node
    let mapping: Node.Mapping
    /// What the mapping is, for messages: "message", "image", "msgc.yaml".
    let context: String
    private(set) var diagnostics: [Diagnostic] = []
    private var consumed = Set<String>()
    /// Each key's text (nil for a key that is not a scalar) with its value, listed once:
    /// iterating a Yams mapping builds a new array of its pairs every time.
    private let pairs: [(key: String?, value: Node)]

    init?(_ node: Node, in document: YAMLDocument, context: String, diagnostics: inout [Diagnostic]) {
        guard case .mapping(let mapping) = node else {
            diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                "\(context) must be a mapping of keys to values, not \(node.kindDescription)",
                at: document.location(of: node)))
            return nil
        }
        self.document = document
        self.node = node
        self.mapping = mapping
        self.context = context
        self.pairs = mapping.map { ($0.key.scalar?.string, $0.value) }
    }

    var location: SourceLocation { document.location(of: node) }

    /// The value node of `key`, marking the key as known.
    mutating func value(_ key: String) -> Node? {
        consumed.insert(key)
        return pairs.first { $0.key == key }?.value
    }

    /// A text value; scalars of any tag are read as written (`header: 2024` is the text "2024").
    mutating func string(_ key: String, required: Bool = false) -> Located<String>? {
        guard let node = value(key) else {
            if required { reportMissing(key) }
            return nil
        }
        guard case .scalar(let scalar) = node else {
            diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                "'\(key)' must be text, not \(node.kindDescription)", at: document.location(of: node)))
            return nil
        }
        if scalar.isNull {
            if required { reportMissing(key, at: document.location(of: node), hasKey: true) }
            return nil
        }
        return document.located(scalar)
    }

    mutating func bool(_ key: String) -> Located<Bool>? {
        guard let node = value(key) else { return nil }
        if case .scalar(let scalar) = node, scalar.style == .plain {
            switch scalar.string {
            case "true", "True", "TRUE": return Located(true, at: document.location(of: node))
            case "false", "False", "FALSE": return Located(false, at: document.location(of: node))
            default: break
            }
        }
        diagnostics.append(ParserDiagnostics.wrongType.diagnose(
            "'\(key)' must be true or false, not \(node.valueDescription)", at: document.location(of: node),
            fixIts: [FixIt("write `\(key): true` or `\(key): false`")]))
        return nil
    }

    /// One of a fixed set of words.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type, required: Bool = false) -> Located<T>?
    where T.RawValue == String {
        guard let text = string(key, required: required) else { return nil }
        if let value = T(rawValue: text.value) { return text.map { _ in value } }
        let allowed = T.allCases.map(\.rawValue)
        let suggestion = allowed.min { editDistance($0, text.value) < editDistance($1, text.value) }
        var fixIts: [FixIt] = []
        if let suggestion, editDistance(suggestion, text.value) <= max(2, suggestion.count / 3) {
            fixIts.append(FixIt("did you mean '\(suggestion)'?", edits: [.init(location: text.valueSpan, replacement: suggestion)]))
        }
        diagnostics.append(ParserDiagnostics.valueNotAllowed.diagnose(
            "'\(key)' must be one of \(allowed.joined(separator: ", ")), not '\(text.value)'",
            at: text.valueSpan, fixIts: fixIts))
        return nil
    }

    /// A list; a single scalar where a list belongs is a wrong type.
    mutating func sequence(_ key: String, required: Bool = false) -> (nodes: [Node], location: SourceLocation)? {
        guard let node = value(key) else {
            if required { reportMissing(key) }
            return nil
        }
        guard case .sequence(let sequence) = node else {
            if case .scalar(let scalar) = node, scalar.isNull {
                return ([], document.location(of: node))
            }
            diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                "'\(key)' must be a list, not \(node.kindDescription)", at: document.location(of: node)))
            return nil
        }
        return (Array(sequence), document.location(of: node))
    }

    /// A list of text values.
    mutating func strings(_ key: String, required: Bool = false) -> [Located<String>]? {
        guard let (nodes, _) = sequence(key, required: required) else { return nil }
        var result: [Located<String>] = []
        for node in nodes {
            guard case .scalar(let scalar) = node, !scalar.isNull else {
                diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                    "each entry of '\(key)' must be text, not \(node.kindDescription)", at: document.location(of: node)))
                continue
            }
            result.append(document.located(scalar))
        }
        return result
    }

    /// `rules:`, a mapping of codes to `off`, `warning` or `error`. Whether each code exists
    /// is for the compiler to say, which knows them all.
    mutating func ruleSettings(_ key: String) -> [RuleSetting] {
        guard let node = value(key) else { return [] }
        guard case .mapping(let mapping) = node else {
            diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                "'\(key)' must be a mapping of codes to off, warning or error, not \(node.kindDescription)",
                at: document.location(of: node)))
            return []
        }
        let allowed = RuleSetting.Level.allCases.map(\.rawValue).joined(separator: ", ")
        var settings: [RuleSetting] = []
        for (keyNode, valueNode) in mapping {
            guard let codeScalar = keyNode.scalar else {
                diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                    "keys of '\(key)' must be codes such as LEN002", at: document.location(of: keyNode)))
                continue
            }
            guard let valueScalar = valueNode.scalar, let level = RuleSetting.Level(written: valueScalar.string) else {
                diagnostics.append(ParserDiagnostics.valueNotAllowed.diagnose(
                    "'\(codeScalar.string)' in '\(key)' must be one of \(allowed)",
                    at: valueNode.scalar.map { document.located($0).valueSpan } ?? document.location(of: valueNode)))
                continue
            }
            settings.append(RuleSetting(code: document.located(codeScalar), level: document.located(valueScalar).map { _ in level }))
        }
        return settings
    }

    mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    private mutating func reportMissing(_ key: String, at location: SourceLocation? = nil, hasKey: Bool = false) {
        let message = hasKey ? "'\(key)' of \(context) has no value" : "\(context) has no '\(key)'"
        diagnostics.append(ParserDiagnostics.missingField.diagnose(
            message, at: location ?? self.location, fixIts: [FixIt("add '\(key): …'")]))
    }

    /// Reports every key that no accessor asked for. Call once, after reading the known keys.
    mutating func finish(known: [String]) {
        for (keyNode, _) in mapping {
            guard let scalar = keyNode.scalar else {
                diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                    "keys of \(context) must be text", at: document.location(of: keyNode)))
                continue
            }
            let name = scalar.string
            guard !consumed.contains(name) else { continue }
            let suggestion = known.min { editDistance($0, name) < editDistance($1, name) }
            // Inside the quotes of a quoted key; a key with escapes has no exact span, and
            // gets no edit rather than one that would corrupt it.
            let span = document.located(scalar).valueSpan
            var fixIts: [FixIt] = []
            var notes: [Note] = []
            if let suggestion, editDistance(suggestion, name) <= max(2, suggestion.count / 3) {
                let edits: [FixIt.Edit] = span.endColumn == nil ? [] : [.init(location: span, replacement: suggestion)]
                fixIts.append(FixIt("did you mean '\(suggestion)'?", edits: edits))
            } else {
                notes.append(Note("\(context) takes: \(known.joined(separator: ", "))"))
            }
            diagnostics.append(ParserDiagnostics.unknownKey.diagnose(
                "unknown key '\(name)' in \(context)", at: span, notes: notes, fixIts: fixIts))
        }
    }
}

extension Node {
    /// "a list", "a mapping", "text" — for wrong-type messages.
    var kindDescription: String {
        switch self {
        case .scalar(let scalar) where scalar.isNull: "an empty value"
        case .scalar: "text"
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .alias: "an alias"
        }
    }

    var valueDescription: String {
        if case .scalar(let scalar) = self, !scalar.isNull { return "'\(scalar.string)'" }
        return kindDescription
    }
}

extension Node.Scalar {
    /// Whether the scalar is YAML's null: empty, `~` or `null`, written plain.
    var isNull: Bool {
        style == .plain && ["", "~", "null", "Null", "NULL"].contains(string)
    }
}
