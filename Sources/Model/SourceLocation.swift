/// A place in a file of the content tree, as a root-relative path with `/` and 1-based positions.
///
/// `line` is absent for problems with a whole file (a missing file, a file that is not UTF-8).
/// `column` counts Unicode scalars from 1, which is what libyaml reports and what SARIF calls
/// `unicodeCodePoints`; it is absent where the source gives none (libxml2 reports lines only
/// for some errors). `endLine`/`endColumn` close the span, exclusive.
public struct SourceLocation: Hashable, Codable, Sendable, Comparable {
    public var path: String
    public var line: Int?
    public var column: Int?
    public var endLine: Int?
    public var endColumn: Int?

    public init(path: String, line: Int? = nil, column: Int? = nil, endLine: Int? = nil, endColumn: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
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
        if lhs.path != rhs.path { return lhs.path.utf8.lexicographicallyPrecedes(rhs.path.utf8) }
        if lhs.line != rhs.line { return (lhs.line ?? 0) < (rhs.line ?? 0) }
        if lhs.column != rhs.column { return (lhs.column ?? 0) < (rhs.column ?? 0) }
        if lhs.endLine != rhs.endLine { return (lhs.endLine ?? 0) < (rhs.endLine ?? 0) }
        return (lhs.endColumn ?? 0) < (rhs.endColumn ?? 0)
    }
}

/// A value together with where it was written.
public struct Located<Value> {
    public var value: Value
    public var location: SourceLocation
    /// How a YAML scalar was written, so that an offset inside the value can be mapped back to
    /// a column (exact for plain scalars and quoted scalars without escapes on one line).
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
    /// A block scalar, a multi-line value or XML text: offsets cannot be mapped to columns.
    case opaque
}

extension Located where Value == String {
    /// The location of the character at `scalarOffset` (in Unicode scalars) inside the value,
    /// or the value's own location where the source form does not allow an exact answer.
    public func location(atScalarOffset scalarOffset: Int, length: Int = 1) -> SourceLocation {
        guard let line = location.line, let column = location.column else { return location }
        switch style {
        case .plain where !value.contains("\n"):
            return SourceLocation(path: location.path, line: line, column: column + scalarOffset).spanning(scalars: length)
        case .quoted(hasEscapes: false) where !value.contains("\n"):
            return SourceLocation(path: location.path, line: line, column: column + 1 + scalarOffset).spanning(scalars: length)
        default:
            return location
        }
    }

    /// The location covering the whole value, when it sits on one line.
    public var valueSpan: SourceLocation {
        location(atScalarOffset: 0, length: value.unicodeScalars.count)
    }
}
