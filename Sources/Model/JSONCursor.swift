/// A place in a `JSONDocument`: one value, where it sits (its path from the root, its line and
/// column) and typed accessors that say, at that place, what is wrong with it.
///
/// Every typed reader of JSON in msgc goes through this one: the bundle's manifest and
/// `realtime.json`, the realtime snapshot, the state file, Apple's answers and requests, a
/// realtime server's answer. What it reports is a `JSONReadError`: a message and the place of
/// the value it is about. Callers that throw throw it; callers that collect diagnostics turn it
/// into one (`JSONReadError.location`).
///
/// Two readings, chosen for the document (a part of it may be read the other way, `read(_:)`):
/// - `strict`, for what msgc wrote itself: a required member that is absent is an error, `null`
///   is a value of its own (accepted only where an optional member is read) and a value of
///   another kind is an error. Which unknown members are refused is each format's own rule,
///   said with `refuseUnknownMembers`.
/// - `lenient`, for Apple's answers and the lists of the state file, read as Apple's own
///   libraries read them: every member may be missing, `null` is the same as absent, unknown members are
///   ignored (`refuseUnknownMembers` refuses none). A value of the wrong kind is still an error:
///   it is not something Apple sends.
///
/// How a message names a value is the document's `Naming`, so that the messages users already
/// know keep their words.
public struct JSONCursor {
    public enum Reading: Sendable { case strict, lenient }

    /// How messages name the value a cursor stands on.
    public enum Naming: Sendable {
        /// The member's own name in double quotes (`"weight"`); an entry of an array as
        /// `an entry of "realtime"`. For msgc's own files, whose messages carry line and column.
        case memberName
        /// The path from the root (`defaults[3].locale`), in double quotes when it passes through
        /// no array (`"messages.messageIdentifiers"`), as a member's name is written. The state file.
        case path
        /// The path from the root in single quotes (`'alternateProduct.billingPlanType'`). An answer
        /// judged by `msgc realtime check`.
        case quotedPath
    }

    /// One step from the root: a member's name or an entry's index.
    public enum Step: Hashable, Sendable {
        case member(String)
        case index(Int)
    }

    public let node: JSONDocument.Node
    /// The steps from the root to `node`; empty at the root.
    public let steps: [Step]
    public let reading: Reading
    public let naming: Naming
    /// The file as messages name it.
    public let file: String

    public init(_ root: JSONDocument.Node, file: String, reading: Reading, naming: Naming) {
        self.init(node: root, steps: [], reading: reading, naming: naming, file: file)
    }

    private init(node: JSONDocument.Node, steps: [Step], reading: Reading, naming: Naming, file: String) {
        self.node = node
        self.steps = steps
        self.reading = reading
        self.naming = naming
        self.file = file
    }

    /// The same place read the other way: a state file is Apple's lists, read leniently, around
    /// members msgc writes itself, read strictly.
    public func read(_ reading: Reading) -> JSONCursor {
        JSONCursor(node: node, steps: steps, reading: reading, naming: naming, file: file)
    }

    /// Parses `bytes` and stands on the root; JSON that does not parse is an error at the place
    /// the parser stopped, its message prefixed by `syntaxPrefix`.
    public static func parse(
        _ bytes: [UInt8], file: String, reading: Reading, naming: Naming, syntaxPrefix: String = "not valid JSON: "
    ) throws(JSONReadError) -> JSONCursor {
        do {
            return JSONCursor(try JSONDocument.parse(bytes), file: file, reading: reading, naming: naming)
        } catch {
            throw JSONReadError(syntaxPrefix + error.message, file: file, path: "", line: error.line, column: error.column)
        }
    }

    // MARK: - Place

    public var line: Int { node.line }
    public var column: Int { node.column }
    public var kindName: String { node.kindName }
    /// Where the value starts, in `file`.
    public var location: SourceLocation { SourceLocation(path: file, line: line, column: column) }
    public var isNull: Bool {
        if case .null = node.value { true } else { false }
    }

    /// The path from the root as it is written in messages: `defaults[3].locale`; empty at the root.
    public var path: String { Self.path(of: steps) }

    static func path(of steps: [Step]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .member(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// How messages name this value (`Naming`).
    public var name: String {
        switch naming {
        case .memberName:
            switch steps.last {
            case .member(let key): return "\"\(key)\""
            case .index:
                if steps.count >= 2, case .member(let key) = steps[steps.count - 2] { return "an entry of \"\(key)\"" }
                return "an entry"
            case nil: return "the document"
            }
        case .path where steps.isEmpty, .quotedPath where steps.isEmpty:
            return "the document"
        case .path:
            let written = path
            return steps.contains { if case .index = $0 { true } else { false } } ? written : "\"\(written)\""
        case .quotedPath:
            return "'\(path)'"
        }
    }

    /// How many Unicode scalars the value's text takes where that is plain: a string without
    /// escapes with its quotes, a number, a literal; one for an object or array (its bracket).
    public var writtenWidth: Int {
        switch node.value {
        case .string(let text): text.unicodeScalarCount + 2
        case .number(let text): text.unicodeScalarCount
        case .bool(let flag): flag ? 4 : 5
        case .null: 4
        case .array, .object: 1
        }
    }

    /// An error about this value: `message` at its place.
    public func error(_ message: String) -> JSONReadError {
        JSONReadError(message, file: file, path: path, line: line, column: column, width: writtenWidth)
    }

    /// The error for a value of the wrong kind: `"weight" must be a whole number, not a string`.
    public func mismatch(_ expected: String) -> JSONReadError {
        error("\(name) must be \(expected), not \(kindName)")
    }

    // MARK: - Members

    /// Whether the object has a member `key` at all, `null` included in either reading.
    public func has(_ key: String) -> Bool { node.member(key) != nil }

    /// The member `key`; nil when it is absent (or, read leniently, `null`) or this is no object.
    public func member(_ key: String) -> JSONCursor? {
        guard let child = node.member(key) else { return nil }
        if reading == .lenient, case .null = child.value { return nil }
        return JSONCursor(node: child, steps: steps + [.member(key)], reading: reading, naming: naming, file: file)
    }

    /// The member `key`, which must be there.
    public func required(_ key: String) throws(JSONReadError) -> JSONCursor {
        guard let child = member(key) else { throw missing(key) }
        return child
    }

    /// The error for a required member `key` that this object lacks, at the object.
    public func missing(_ key: String) -> JSONReadError {
        switch naming {
        case .memberName: error("missing \"\(key)\"")
        case .path: error("\(name) has no \"\(key)\"")
        case .quotedPath: error("\(name) has no '\(key)'")
        }
    }

    /// The members in the order written; empty when this is no object. Read leniently, members
    /// that are `null` are left out.
    public var members: [(key: String, value: JSONCursor)] {
        guard case .object(let list) = node.value else { return [] }
        return list.compactMap { key, child in
            if reading == .lenient, case .null = child.value { return nil }
            return (key, JSONCursor(node: child, steps: steps + [.member(key)], reading: reading, naming: naming, file: file))
        }
    }

    /// Refuses, read strictly, a member not in `allowed`, naming this value `what` (`a product`);
    /// this must be an object. Read leniently, unknown members are ignored.
    public func refuseUnknownMembers(_ allowed: [String], in what: String) throws(JSONReadError) {
        guard case .object(let list) = node.value else { throw error("\(what) must be an object, not \(kindName)") }
        guard reading == .strict else { return }
        if let unknown = list.first(where: { !allowed.contains($0.key) }) {
            throw error("unknown member \"\(unknown.key)\" in \(what); msgc writes \(allowed.joined(separator: ", "))")
        }
    }

    // MARK: - This value, typed

    /// This value, which must be an object.
    public func object() throws(JSONReadError) -> JSONCursor {
        guard case .object = node.value else { throw mismatch("an object") }
        return self
    }

    /// The entries of this array, each standing at its index.
    public func array() throws(JSONReadError) -> [JSONCursor] {
        guard case .array(let items) = node.value else { throw mismatch("an array") }
        return items.enumerated().map { index, item in
            JSONCursor(node: item, steps: steps + [.index(index)], reading: reading, naming: naming, file: file)
        }
    }

    /// The entries of this array, each of which must be an object.
    public func objects() throws(JSONReadError) -> [JSONCursor] {
        let items = try array()
        for item in items { _ = try item.object() }
        return items
    }

    public func string() throws(JSONReadError) -> String {
        guard case .string(let text) = node.value else { throw mismatch("a string") }
        return text
    }

    public func bool() throws(JSONReadError) -> Bool {
        guard case .bool(let flag) = node.value else { throw mismatch("true or false") }
        return flag
    }

    /// A number written as a whole number (no fraction, no exponent) that fits an `Int`.
    public func integer() throws(JSONReadError) -> Int {
        guard case .number(let text) = node.value, let value = Self.integer(text) else { throw error("\(name) must be a whole number") }
        return value
    }

    /// A number as written (`1.50`, `-2e3`): msgc keeps no floating point.
    public func number() throws(JSONReadError) -> String {
        guard case .number(let text) = node.value else { throw mismatch("a number") }
        return text
    }

    /// `text` as a whole number that fits `Int`, when it is written as one.
    public static func integer(_ text: String) -> Int? {
        guard !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else { return nil }
        return Int(text)
    }

    // MARK: - Members, typed

    /// The required member `key` as a string.
    public func string(_ key: String) throws(JSONReadError) -> String { try required(key).string() }

    /// The member `key` as a string; nil when it is absent or `null`.
    public func optionalString(_ key: String) throws(JSONReadError) -> String? {
        try optionalStringMember(key)?.text
    }

    /// The member `key` as a string, with the member; nil when it is absent or `null`. Read
    /// strictly the message says that `null` is taken too; read leniently `null` is absence.
    private func optionalStringMember(_ key: String) throws(JSONReadError) -> (text: String, member: JSONCursor)? {
        guard let child = member(key), !child.isNull else { return nil }
        guard case .string(let text) = child.node.value else { throw child.mismatch(reading == .strict ? "a string or null" : "a string") }
        return (text, child)
    }

    /// The required member `key` as a string that `convert` takes (an enum's raw value, a
    /// checked identifier); else `problem(text)` at the member.
    public func string<T>(_ key: String, as convert: (String) -> T?, else problem: (String) -> String) throws(JSONReadError) -> T {
        let child = try required(key)
        let text = try child.string()
        guard let value = convert(text) else { throw child.error(problem(text)) }
        return value
    }

    /// The member `key` as a string that `convert` takes; nil when it is absent or `null`, else
    /// `problem(text)` at the member.
    public func optionalString<T>(_ key: String, as convert: (String) -> T?, else problem: (String) -> String) throws(JSONReadError) -> T? {
        guard let (text, child) = try optionalStringMember(key) else { return nil }
        guard let value = convert(text) else { throw child.error(problem(text)) }
        return value
    }

    public func integer(_ key: String) throws(JSONReadError) -> Int { try required(key).integer() }

    /// The member `key` as a whole number; nil when it is absent or `null`.
    public func optionalInteger(_ key: String) throws(JSONReadError) -> Int? {
        guard let child = member(key), !child.isNull else { return nil }
        return try child.integer()
    }

    public func bool(_ key: String) throws(JSONReadError) -> Bool { try required(key).bool() }

    /// The member `key` as true or false; nil when it is absent or `null`.
    public func optionalBool(_ key: String) throws(JSONReadError) -> Bool? {
        guard let child = member(key), !child.isNull else { return nil }
        return try child.bool()
    }

    /// The required member `key`, an array.
    public func array(_ key: String) throws(JSONReadError) -> [JSONCursor] { try required(key).array() }

    /// The required member `key`, an array of objects.
    public func objects(_ key: String) throws(JSONReadError) -> [JSONCursor] { try required(key).objects() }
}

/// What is wrong with a JSON value, and where: the one error of `JSONCursor`.
///
/// `description` is the message after the file, line and column (`m.json:3:5: "weight" must
/// be a whole number`), or the message alone when it is about the whole file.
public struct JSONReadError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The file as messages name it.
    public var file: String
    /// Where in the document (`defaults[3].locale`); empty at the root or for the whole file.
    public var path: String
    /// Where the value starts; nil for a problem with the whole file.
    public var line: Int?
    public var column: Int?
    /// How many scalars the value's text takes where that is plain (`JSONCursor.writtenWidth`).
    public var width: Int?

    public init(_ message: String, file: String, path: String = "", line: Int? = nil, column: Int? = nil, width: Int? = nil) {
        self.message = message
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.width = width
    }

    public var description: String {
        guard let line, let column else { return message }
        return "\(file):\(line):\(column): \(message)"
    }

    /// Where the value starts, in `file`, for a diagnostic.
    public var location: SourceLocation { SourceLocation(path: file, line: line, column: column) }
}
