import Model

/// How bad a finding is. Ordered so that `.error` is the most severe.
public enum Severity: String, Codable, Sendable, Comparable, CaseIterable {
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A secondary remark attached to a diagnostic, optionally pointing somewhere else.
public struct Note: Hashable, Codable, Sendable {
    public var message: String
    public var location: SourceLocation?

    public init(_ message: String, at location: SourceLocation? = nil) {
        self.message = message
        self.location = location
    }
}

/// A suggested change: a sentence for people, plus the exact edits when they are known.
///
/// Fix-its are display-only: msgc never applies one to translated text by itself.
public struct FixIt: Hashable, Codable, Sendable {
    public struct Edit: Hashable, Codable, Sendable {
        public var location: SourceLocation
        public var replacement: String
        public init(location: SourceLocation, replacement: String) {
            self.location = location
            self.replacement = replacement
        }
    }

    public var message: String
    public var edits: [Edit]

    public init(_ message: String, edits: [Edit] = []) {
        self.message = message
        self.edits = edits
    }
}

/// One finding: what is wrong, where, how bad, and what to do about it.
///
/// Diagnostics are plain data; renderers turn them into text, JSON, SARIF or annotations.
///
/// A value, kept in one shared, immutable object (`Fields`): a report of thousands is copied
/// on every pass over it (filtered, sorted, counted, rendered), and a copy retains that one
/// object rather than each of its strings and arrays. Changing a property makes a new object.
public struct Diagnostic: Hashable, Sendable {
    private var box: Box

    public var code: String {
        get { box.fields.code }
        set { fields.code = newValue }
    }
    public var severity: Severity {
        get { box.fields.severity }
        set { fields.severity = newValue }
    }
    public var location: SourceLocation {
        get { box.fields.location }
        set { fields.location = newValue }
    }
    public var message: String {
        get { box.fields.message }
        set { fields.message = newValue }
    }
    public var notes: [Note] {
        get { box.fields.notes }
        set { fields.notes = newValue }
    }
    public var fixIts: [FixIt] {
        get { box.fields.fixIts }
        set { fields.fixIts = newValue }
    }
    public var subject: Subject? {
        get { box.fields.subject }
        set { fields.subject = newValue }
    }
    /// A finding about a file as a whole (what it still lacks), located at its end so that it
    /// closes the file's report: a snippet of that last line would point at nothing.
    public var isAboutWholeFile: Bool {
        get { box.fields.isAboutWholeFile }
        set { fields.isAboutWholeFile = newValue }
    }

    public init(
        code: String, severity: Severity, location: SourceLocation, message: String,
        notes: [Note] = [], fixIts: [FixIt] = [], subject: Subject? = nil
    ) {
        box = Box(Fields(
            code: code, severity: severity, location: location, message: message, notes: notes, fixIts: fixIts, subject: subject))
    }

    private var fields: Fields {
        get { box.fields }
        set { box = Box(newValue) }
    }

    private struct Fields: Hashable, Sendable {
        var code: String
        var severity: Severity
        var location: SourceLocation
        var message: String
        var notes: [Note]
        var fixIts: [FixIt]
        var subject: Subject?
        var isAboutWholeFile = false
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.fields)
    }

    /// The order in which diagnostics leave the process: path, line, column, code, message.
    public static func outputOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.code != rhs.code { return lhs.code < rhs.code }
        if lhs.message != rhs.message { return lhs.message.utf8.lexicographicallyPrecedes(rhs.message.utf8) }
        return lhs.severity > rhs.severity
    }
}

extension Array where Element == Diagnostic {
    /// Sorted for output, duplicates removed (the first of equal diagnostics is kept).
    ///
    /// Each diagnostic's place is reduced to integers first (its file's rank among the paths
    /// reported, then line and columns), so that nearly every comparison is of integers;
    /// code and message are compared only between findings at the same place. Positions are
    /// sorted rather than the diagnostics themselves, so that each is moved once, and a
    /// duplicate is looked for only among those that sort the same, which are next to each
    /// other: hashing every diagnostic whole (messages, notes and fix-its) cost more than
    /// sorting a report of thousands.
    public func sortedForOutput() -> [Diagnostic] {
        var rankOfFile: [SourcePath: Int] = [:]
        for diagnostic in self { rankOfFile[diagnostic.location.file] = 0 }
        let files = rankOfFile.keys.sorted { $0.string.utf8.lexicographicallyPrecedes($1.string.utf8) }
        for (rank, file) in files.enumerated() { rankOfFile[file] = rank }
        let places = map { OutputPlace($0.location, file: rankOfFile[$0.location.file]!) }
        let order = indices.sorted { lhs, rhs in
            if places[lhs] != places[rhs] { return places[lhs] < places[rhs] }
            return Diagnostic.outputOrder(self[lhs], self[rhs])
        }
        var result: [Diagnostic] = []
        result.reserveCapacity(count)
        var runStart = 0
        var runPlace: OutputPlace?
        for index in order {
            let diagnostic = self[index]
            if runPlace == places[index], runStart < result.count,
               !Diagnostic.outputOrder(result[runStart], diagnostic) && !Diagnostic.outputOrder(diagnostic, result[runStart]) {
                if result[runStart...].contains(diagnostic) { continue }
            } else {
                runStart = result.count
                runPlace = places[index]
            }
            result.append(diagnostic)
        }
        return result
    }

    /// The same findings with every warning raised to an error, as `--strict` asks.
    public func escalatingWarnings() -> [Diagnostic] {
        map { diagnostic in
            var copy = diagnostic
            if copy.severity == .warning { copy.severity = .error }
            return copy
        }
    }

    public var errorCount: Int { self.count { $0.severity == .error } }
    public var warningCount: Int { self.count { $0.severity == .warning } }
    /// How many files the diagnostics are in (their own locations, not their notes').
    public var fileCount: Int { Set(map(\.location.file)).count }
}

/// A location as integers in output order: the file's rank, then line and columns (0 for
/// absent, which sorts first as `SourceLocation` does).
private struct OutputPlace: Comparable {
    var file: Int
    var line: Int
    var column: Int
    var endLine: Int
    var endColumn: Int

    init(_ location: SourceLocation, file: Int) {
        self.file = file
        line = location.line ?? 0
        column = location.column ?? 0
        endLine = location.endLine ?? 0
        endColumn = location.endColumn ?? 0
    }

    static func < (lhs: OutputPlace, rhs: OutputPlace) -> Bool {
        (lhs.file, lhs.line, lhs.column, lhs.endLine, lhs.endColumn) < (rhs.file, rhs.line, rhs.column, rhs.endLine, rhs.endColumn)
    }
}
