/// A place in a file of the content tree, as a root-relative path with `/` and 1-based positions.
///
/// `line` is absent for problems with a whole file (a missing file, a file that is not UTF-8).
/// `column` counts Unicode scalars from 1, which is what libyaml reports and what SARIF calls
/// `unicodeCodePoints`; it is absent where the source gives none (libxml2 reports lines only
/// for some errors). `endLine`/`endColumn` close the span, exclusive.
public struct SourceLocation: Hashable, Codable, Sendable, Comparable {
    /// The file, kept once for the process (`SourcePath`).
    public var file: SourcePath
    public var path: String {
        get { file.string }
        set { file = SourcePath(newValue) }
    }
    public var line: Int? {
        get { Self.value(storedLine) }
        set { storedLine = Self.stored(newValue) }
    }
    public var column: Int? {
        get { Self.value(storedColumn) }
        set { storedColumn = Self.stored(newValue) }
    }
    public var endLine: Int? {
        get { Self.value(storedEndLine) }
        set { storedEndLine = Self.stored(newValue) }
    }
    public var endColumn: Int? {
        get { Self.value(storedEndColumn) }
        set { storedEndColumn = Self.stored(newValue) }
    }

    // Positions are 1-based and files are capped well below 4 GiB, so each is kept in 32 bits
    // with 0 for "absent". Every unit, text and finding carries locations, and four optional
    // Ints made one 80 bytes.
    private var storedLine: UInt32
    private var storedColumn: UInt32
    private var storedEndLine: UInt32
    private var storedEndColumn: UInt32

    public init(path: String, line: Int? = nil, column: Int? = nil, endLine: Int? = nil, endColumn: Int? = nil) {
        self.init(file: SourcePath(path), line: line, column: column, endLine: endLine, endColumn: endColumn)
    }

    /// A place in `file`: for readers that make many locations in one file, which look its
    /// path up once rather than once a location.
    public init(file: SourcePath, line: Int? = nil, column: Int? = nil, endLine: Int? = nil, endColumn: Int? = nil) {
        self.file = file
        self.storedLine = Self.stored(line)
        self.storedColumn = Self.stored(column)
        self.storedEndLine = Self.stored(endLine)
        self.storedEndColumn = Self.stored(endColumn)
    }

    private static func stored(_ value: Int?) -> UInt32 {
        guard let value, value > 0 else { return 0 }
        return UInt32(clamping: value)
    }

    private static func value(_ stored: UInt32) -> Int? {
        stored == 0 ? nil : Int(stored)
    }

    private enum CodingKeys: String, CodingKey {
        case path, line, column, endLine, endColumn
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try container.decode(String.self, forKey: .path),
            line: try container.decodeIfPresent(Int.self, forKey: .line),
            column: try container.decodeIfPresent(Int.self, forKey: .column),
            endLine: try container.decodeIfPresent(Int.self, forKey: .endLine),
            endColumn: try container.decodeIfPresent(Int.self, forKey: .endColumn))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(line, forKey: .line)
        try container.encodeIfPresent(column, forKey: .column)
        try container.encodeIfPresent(endLine, forKey: .endLine)
        try container.encodeIfPresent(endColumn, forKey: .endColumn)
    }

    /// The same file at another place.
    public func moved(line: Int?, column: Int?) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// The same place with the span closed `length` scalars further on the same line.
    public func spanning(scalars length: Int) -> SourceLocation {
        var copy = self
        if let line, let column {
            copy.endLine = line
            copy.endColumn = column + max(length, 0)
        }
        return copy
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return lhs.path.utf8.lexicographicallyPrecedes(rhs.path.utf8) }
        if lhs.storedLine != rhs.storedLine { return lhs.storedLine < rhs.storedLine }
        if lhs.storedColumn != rhs.storedColumn { return lhs.storedColumn < rhs.storedColumn }
        if lhs.storedEndLine != rhs.storedEndLine { return lhs.storedEndLine < rhs.storedEndLine }
        return lhs.storedEndColumn < rhs.storedEndColumn
    }
}

/// A value together with where it was written.
public struct Located<Value> {
    public var value: Value
    public var location: SourceLocation
    /// How a YAML scalar or XML text was written, so that an offset inside the value can be
    /// mapped back to a column (exact for plain scalars, quoted scalars without escapes and
    /// mapped XML text, on one line).
    public var style: ScalarStyle

    public init(_ value: Value, at location: SourceLocation, style: ScalarStyle = .plain) {
        self.value = value
        self.location = location
        self.style = style
    }

    public func map<T>(_ transform: (Value) -> T) -> Located<T> {
        Located<T>(transform(value), at: location, style: style)
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
extension Located: Sendable where Value: Sendable {}

/// The way a scalar was written in its source file.
public enum ScalarStyle: Sendable, Hashable {
    /// Plain YAML scalar: the value starts at the location and runs on from there.
    case plain
    /// Single- or double-quoted YAML scalar; `hasEscapes` when the written form differs from
    /// the value beyond the quotes.
    case quoted(hasEscapes: Bool)
    /// XML text on one line whose written form differs from the value (references, XLIFF
    /// 2.0 `<cp/>`, inline elements, CDATA): `ScalarColumns` says where each scalar is written.
    case mapped(ScalarColumns)
    /// A block scalar, a multi-line value or XML text over several lines: offsets cannot be
    /// mapped to columns.
    case opaque
}

extension Located where Value == String {
    /// The location of the character at `scalarOffset` (in Unicode scalars) inside the value,
    /// or the value's own location where the source form does not allow an exact answer.
    public func location(atScalarOffset scalarOffset: Int, length: Int = 1) -> SourceLocation {
        guard let line = location.line, let column = location.column else { return location }
        switch style {
        case .plain where !value.hasLineFeed:
            return location.moved(line: line, column: column + scalarOffset).spanning(scalars: length)
        case .quoted(hasEscapes: false) where !value.hasLineFeed:
            return location.moved(line: line, column: column + 1 + scalarOffset).spanning(scalars: length)
        case .mapped(let columns):
            let start = columns.columnOffset(atScalar: scalarOffset)
            let end = columns.columnOffset(atScalar: scalarOffset + max(length, 0))
            return location.moved(line: line, column: column + start).spanning(scalars: end - start)
        default:
            return location
        }
    }

    /// The location covering the whole value, when it sits on one line.
    public var valueSpan: SourceLocation {
        location(atScalarOffset: 0, length: value.unicodeScalarCount)
    }
}

extension String {
    /// How many Unicode scalars the text has, the same count as `unicodeScalars.count`, read
    /// from its contiguous UTF-8 (`UTF8Bytes.scalarCount`). Every finding's span and every
    /// snippet asks it.
    public var unicodeScalarCount: Int {
        var text = self
        return text.withUTF8 { UTF8Bytes.scalarCount($0) }
    }

    /// Whether the text has a line feed, looked for in its contiguous UTF-8.
    var hasLineFeed: Bool {
        var text = self
        return text.withUTF8 { $0.contains(UInt8(ascii: "\n")) }
    }
}

/// A root-relative path as `SourceLocation`s hold it. Two are equal exactly when their paths
/// are the same bytes: `String`'s `==` takes canonically equivalent paths (`é` as one scalar or
/// two) for one, and they are two files.
public struct SourcePath: Hashable, Sendable {
    public let string: String

    public init(_ path: String) {
        string = path
    }

    public static func == (lhs: SourcePath, rhs: SourcePath) -> Bool {
        UTF8Bytes.areSame(lhs.string, rhs.string)
    }

    public func hash(into hasher: inout Hasher) {
        var path = string
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
