import Foundation

/// A JSON text read into values that remember where they were written (RFC 8259).
///
/// Foundation's JSON readers say what is wrong but not reliably where, and never where a value
/// of the wrong shape sits. The state file is untrusted input from another program, so this
/// reader reports the line and column (in Unicode scalars, like every msgc column) of both
/// syntax errors and of each value, refuses nesting deeper than `maxDepth`, and validates UTF-8.
public struct JSONDocument {
    /// One value and the place its first character was written.
    public struct Node {
        public enum Value {
            case null
            case bool(Bool)
            /// The number as written; the state file has no numbers msgc reads.
            case number(String)
            case string(String)
            case array([Node])
            /// Members in the order written; a repeated key is a syntax error.
            case object([(key: String, value: Node)])
        }

        public var value: Value
        public var line: Int
        public var column: Int

        public init(value: Value, line: Int, column: Int) {
            self.value = value
            self.line = line
            self.column = column
        }

        /// The member named `key`, when this is an object that has one.
        public func member(_ key: String) -> Node? {
            guard case .object(let members) = value else { return nil }
            return members.first { $0.key == key }?.value
        }

        /// How the value's kind reads in a message: "an array", "a string".
        public var kindName: String {
            switch value {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    public struct SyntaxError: Error, Equatable {
        public var message: String
        public var line: Int
        public var column: Int
    }

    public static let maxDepth = 64

    /// Parses `bytes` (UTF-8, optionally with a byte-order mark) as one JSON value.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Node {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        reader.skipWhitespace()
        let node = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw reader.error("unexpected \(reader.describeNext()) after the end of the JSON value") }
        return node
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var line = 1
        var column = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> SyntaxError { SyntaxError(message: message, line: line, column: column) }

        var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        func describeNext() -> String {
            guard let byte = next else { return "end of file" }
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return String(format: "byte 0x%02X", byte)
        }

        mutating func advance() {
            let byte = bytes[offset]
            offset += 1
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }

        mutating func skipWhitespace() {
            while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> Node {
            guard depth < JSONDocument.maxDepth else { throw error("JSON nested deeper than \(JSONDocument.maxDepth) levels") }
            let (startLine, startColumn) = (line, column)
            func node(_ value: Node.Value) -> Node { Node(value: value, line: startLine, column: startColumn) }
            guard let byte = next else { throw error("the file ends where a JSON value should be") }
            switch byte {
            case UInt8(ascii: "{"): return node(try object(depth: depth))
            case UInt8(ascii: "["): return node(try array(depth: depth))
            case UInt8(ascii: "\""): return node(.string(try string()))
            case UInt8(ascii: "t"): try literal("true"); return node(.bool(true))
            case UInt8(ascii: "f"): try literal("false"); return node(.bool(false))
            case UInt8(ascii: "n"): try literal("null"); return node(.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return node(.number(try number()))
            default: throw error("expected a JSON value, found \(describeNext())")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            for expected in word.utf8 {
                guard next == expected else { throw error("expected '\(word)', found \(describeNext())") }
                advance()
            }
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = offset
            if next == UInt8(ascii: "-") { advance() }
            guard let first = next, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else {
                throw error("expected a digit, found \(describeNext())")
            }
            if first == UInt8(ascii: "0") { advance() } else { digits() }
            if next == UInt8(ascii: ".") {
                advance()
                guard let digit = next, digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else {
                    throw error("expected a digit after '.', found \(describeNext())")
                }
                digits()
            }
            if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                advance()
                if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { advance() }
                guard let digit = next, digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else {
                    throw error("expected a digit in the exponent, found \(describeNext())")
                }
                digits()
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        mutating func digits() {
            while let byte = next, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { advance() }
        }

        /// Reads a string, in time linear in its length: the text is gathered as UTF-8 bytes
        /// (each run between escapes checked once, each escape encoded in place) and made a
        /// `String` once at the end. Appending runs to a `String.UnicodeScalarView` instead
        /// copied the whole string so far at every escape that followed a run.
        mutating func string() throws(SyntaxError) -> String {
            advance()  // the opening quote
            var text: [UInt8] = []
            var runStart = offset
            func flush(_ reader: Reader) throws(SyntaxError) {
                guard runStart < reader.offset else { return }
                let run = reader.bytes[runStart..<reader.offset]
                guard Self.isValidUTF8(run) else { throw reader.error("the string is not valid UTF-8") }
                text.append(contentsOf: run)
            }
            while true {
                guard let byte = next else { throw error("the file ends inside a string") }
                switch byte {
                case UInt8(ascii: "\""):
                    try flush(self)
                    advance()
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try flush(self)
                    advance()
                    text.append(contentsOf: UTF8.encode(try escape())!)
                    runStart = offset
                case 0x00..<0x20:
                    throw error("control character \(String(format: "U+%04X", byte)) inside a string; JSON requires it escaped")
                default:
                    advance()
                }
            }
        }

        /// Whether `run` is well-formed UTF-8 (no overlong forms, surrogates or bytes past U+10FFFF).
        static func isValidUTF8(_ run: ArraySlice<UInt8>) -> Bool {
            var decoder = UTF8()
            var iterator = run.makeIterator()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }

        mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            guard let byte = next else { throw error("the file ends inside a string") }
            advance()
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let first = try hexQuad()
                if (0xD800..<0xDC00).contains(first) {
                    guard next == UInt8(ascii: "\\") else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                    advance()
                    guard next == UInt8(ascii: "u") else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                    advance()
                    let second = try hexQuad()
                    guard (0xDC00..<0xE000).contains(second) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
                }
                guard let scalar = Unicode.Scalar(first) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                return scalar
            default:
                throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
            }
        }

        mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = next, let digit = Self.hexValue(byte) else { throw error("expected four hex digits after \\u") }
                value = value * 16 + digit
                advance()
            }
            return value
        }

        static func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> Node.Value {
            advance()
            var elements: [Node] = []
            skipWhitespace()
            if next == UInt8(ascii: "]") { advance(); return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                switch next {
                case UInt8(ascii: ","): advance()
                case UInt8(ascii: "]"): advance(); return .array(elements)
                default: throw error("expected ',' or ']' in an array, found \(describeNext())")
                }
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> Node.Value {
            advance()
            var members: [(key: String, value: Node)] = []
            var keys = Set<String>()
            skipWhitespace()
            if next == UInt8(ascii: "}") { advance(); return .object(members) }
            while true {
                skipWhitespace()
                guard next == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes, found \(describeNext())") }
                let keyError = error("")
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw SyntaxError(message: "member '\(key)' appears twice in one object", line: keyError.line, column: keyError.column)
                }
                skipWhitespace()
                guard next == UInt8(ascii: ":") else { throw error("expected ':' after member name '\(key)', found \(describeNext())") }
                advance()
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                switch next {
                case UInt8(ascii: ","): advance()
                case UInt8(ascii: "}"): advance(); return .object(members)
                default: throw error("expected ',' or '}' in an object, found \(describeNext())")
                }
            }
        }
    }
}
