import Foundation

/// A JSON value that serializes to msgc's canonical bytes.
///
/// msgc writes its own JSON rather than using `JSONEncoder` so that the bytes are fixed by
/// this file alone: object keys sorted bytewise by UTF-8, two-space indentation, `": "`
/// between key and value, non-ASCII text as UTF-8, `/` unescaped, only integers, and a
/// final newline. The bundle's bytes are a contract with the stage that applies it.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The canonical text, ending with a newline.
    public var canonicalText: String {
        String(decoding: canonicalBytes, as: UTF8.self)
    }

    /// The canonical bytes (UTF-8), ending with a newline.
    public var canonicalBytes: [UInt8] {
        var output: [UInt8] = []
        write(into: &output, indent: 0)
        output.append(0x0A)
        return output
    }

    /// The canonical bytes with no whitespace and no final newline: the same keys in the same
    /// order and the same escapes, for JSON that travels inside something else (a JWT's
    /// header and claims).
    public var compactBytes: [UInt8] {
        var output: [UInt8] = []
        writeCompact(into: &output)
        return output
    }

    private func writeCompact(into output: inout [UInt8]) {
        switch self {
        case .null, .bool, .integer, .string: write(into: &output, indent: 0)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.writeCompact(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { Self.utf8Precedes($0.key, $1.key) }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                member.value.writeCompact(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the canonical text of this value to `output`, as it stands `indent` spaces in:
    /// for a writer that streams a large document a part at a time.
    public func appendCanonical(to output: inout [UInt8], indent: Int) {
        write(into: &output, indent: indent)
    }

    // Written as bytes, a run of bytes that need no escape at a time: a report of a few thousand
    // diagnostics is megabytes of JSON, and appending it scalar by scalar to a String took most
    // of `msgc lint --format json`'s time on a tree with findings.
    private func write(into output: inout [UInt8], indent: Int) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .integer(let value): output += String(value).utf8
        case .string(let value): Self.writeString(value, into: &output)
        case .array(let values):
            guard !values.isEmpty else { output += "[]".utf8; return }
            output += "[\n".utf8
            for (index, value) in values.enumerated() {
                output.append(repeating: UInt8(ascii: " "), count: indent + 2)
                value.write(into: &output, indent: indent + 2)
                output += (index == values.count - 1 ? "\n" : ",\n").utf8
            }
            output.append(repeating: UInt8(ascii: " "), count: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { output += "{}".utf8; return }
            output += "{\n".utf8
            let sorted = members.sorted { Self.utf8Precedes($0.key, $1.key) }
            for (index, member) in sorted.enumerated() {
                output.append(repeating: UInt8(ascii: " "), count: indent + 2)
                Self.writeString(member.key, into: &output)
                output += ": ".utf8
                member.value.write(into: &output, indent: indent + 2)
                output += (index == sorted.count - 1 ? "\n" : ",\n").utf8
            }
            output.append(repeating: UInt8(ascii: " "), count: indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `lhs` sorts before `rhs` byte by byte in UTF-8, the order of object keys.
    static func utf8Precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
    }

    /// `value` as a JSON string: `"` and `\` escaped, control characters (U+0000–U+001F) as
    /// `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`, everything else as its UTF-8.
    static func writeString(_ value: String, into output: inout [UInt8]) {
        var value = value
        value.withUTF8 { writeString(utf8: $0, into: &output) }
    }

    /// The same for text that is already UTF-8 bytes (a key written in the code).
    static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none needs an escape: a report's strings are
            // megabytes, and nearly none of their bytes is one.
            if index + 8 <= bytes.count,
               !mayNeedEscape(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = bytes[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output += UnsafeBufferPointer(rebasing: bytes[runStart..<(index - 1)])
            runStart = index
            switch byte {
            case UInt8(ascii: "\""): output += "\\\"".utf8
            case UInt8(ascii: "\\"): output += "\\\\".utf8
            case 0x0A: output += "\\n".utf8
            case 0x0D: output += "\\r".utf8
            case 0x09: output += "\\t".utf8
            case 0x08: output += "\\b".utf8
            case 0x0C: output += "\\f".utf8
            default:
                let hex = String(byte, radix: 16)
                output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
            }
        }
        output += UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count])
        output.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` may be one `writeString` escapes: a control
    /// character (below 0x20), `"` or `\`. The byte-wise tests are the classic ones (a byte
    /// below n, a zero byte after an exclusive or), exact for a byte below 0x20 and a zero byte:
    /// false means none of the eight needs an escape.
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let hasControl = (word &- ones &* 0x20) & ~word & highBits != 0
        return hasControl || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// Writes canonical JSON (the bytes `JSONValue.canonicalBytes` gives) straight from a caller
/// that names each object's members in sorted order, without building a `JSONValue` first: a
/// report of thousands of findings spent most of its time building, sorting and freeing them.
public struct CanonicalJSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// For each open object or array: whether nothing is in it yet.
    private var isFirst: [Bool] = []
    private var indent: Int

    /// A writer whose outermost value stands `indent` spaces in.
    public init(indent: Int = 0) {
        self.indent = indent
    }

    public mutating func openObject() {
        bytes.append(UInt8(ascii: "{"))
        isFirst.append(true)
        indent += 2
    }

    /// Starts the member `key`; keys must come in UTF-8 byte order. Keys are names written in
    /// the renderers' code, escaped from their bytes as any string is.
    public mutating func key(_ key: StaticString) {
        separate()
        // `withUTF8Buffer`, not `utf8Start`: a one-character literal may be kept as a scalar.
        key.withUTF8Buffer { JSONValue.writeString(utf8: $0, into: &bytes) }
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }

    public mutating func closeObject() { close(UInt8(ascii: "}"), empty: "{}") }

    /// Opens an array; an empty one is written whole, and needs no close.
    public mutating func openArray(isEmpty: Bool) {
        if isEmpty {
            bytes += "[]".utf8
            return
        }
        bytes.append(UInt8(ascii: "["))
        isFirst.append(true)
        indent += 2
    }

    /// Starts the next element of the open array.
    public mutating func element() { separate() }

    public mutating func closeArray() { close(UInt8(ascii: "]"), empty: "[]") }

    public mutating func string(_ value: String) { JSONValue.writeString(value, into: &bytes) }

    /// `value` in decimal, its digits written in place (a report writes four numbers a finding).
    public mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        while magnitude >= 10 {
            magnitude /= 10
            digits += 1
        }
        let first = bytes.count
        for _ in 0..<digits { bytes.append(UInt8(ascii: "0")) }
        magnitude = value.magnitude
        for index in stride(from: first + digits - 1, through: first, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        }
    }

    public mutating func bool(_ value: Bool) { bytes += (value ? "true" : "false").utf8 }

    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// `value` rounded to `significantDigits` significant digits, as the shortest decimal that
    /// reads back as that rounded double (`0.812346`, `1.23457e-30`): a report's fractions and
    /// p-values, whose last bits may differ between C libraries, give the same bytes everywhere.
    /// A value that is not finite is written as `null`, which JSON has instead.
    public mutating func number(_ value: Double, significantDigits: Int) {
        guard value.isFinite else {
            bytes += "null".utf8
            return
        }
        guard value != 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        // m / 10^k with both exact is the double nearest the decimal m·10^-k, whose shortest
        // text is that decimal.
        let exponent = Int((abs(value)).log10Floor)
        let scale = significantDigits - 1 - exponent
        let rounded: Double
        if scale >= 0, scale <= 22 {
            let power = Self.powersOfTen[scale]
            rounded = (value * power).rounded() / power
        } else if scale < 0, -scale <= 22 {
            let power = Self.powersOfTen[-scale]
            rounded = (value / power).rounded() * power
        } else {
            rounded = value
        }
        bytes += rounded.description.utf8
    }

    public mutating func member(_ key: StaticString, _ value: Double?, significantDigits: Int) {
        guard let value else { return }
        self.key(key)
        number(value, significantDigits: significantDigits)
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { product, _ in product * 10 }
    }

    public mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        string(value)
    }

    public mutating func member(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        self.key(key)
        integer(value)
    }

    /// Moves the bytes written so far to the end of `output`, leaving the writer's state as it
    /// is (and its buffer, for the next ones).
    public mutating func moveBytes(to output: inout [UInt8]) {
        output += bytes
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func separate() {
        if !isFirst[isFirst.count - 1] { bytes.append(UInt8(ascii: ",")) }
        isFirst[isFirst.count - 1] = false
        newline()
    }

    /// A line break and the indentation.
    private mutating func newline() {
        bytes.append(0x0A)
        bytes.append(repeating: UInt8(ascii: " "), count: indent)
    }

    private mutating func close(_ bracket: UInt8, empty: String) {
        indent -= 2
        if isFirst.removeLast() {
            // Nothing was written in it: `{}` or `[]`, as JSONValue writes an empty one.
            bytes.removeLast()
            bytes += empty.utf8
            return
        }
        newline()
        bytes.append(bracket)
    }
}

extension Double {
    /// ⌊log₁₀ |self|⌋ for a finite non-zero value, exact at powers of ten.
    fileprivate var log10Floor: Double {
        var exponent = (Foundation.log10(abs(self))).rounded(.down)
        // log10 may land a hair off at an exact power of ten.
        if abs(self) < Foundation.pow(10, exponent) { exponent -= 1 }
        if abs(self) >= Foundation.pow(10, exponent + 1) { exponent += 1 }
        return exponent
    }
}
