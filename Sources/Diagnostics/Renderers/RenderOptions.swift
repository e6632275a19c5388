import Model

/// What every diagnostic renderer needs besides the diagnostics.
public struct RenderOptions: Sendable {
    /// Prepended to every root-relative path, so that paths work from the current folder
    /// (`content/`); empty when the content tree is the current folder.
    public var pathPrefix: String
    /// Source text by root-relative path, for snippets.
    public var sources: [String: SourceFile]
    public var useColor: Bool

    public init(pathPrefix: String = "", sources: [String: SourceFile] = [:], useColor: Bool = false) {
        self.pathPrefix = pathPrefix
        self.sources = sources
        self.useColor = useColor
    }

    public func displayPath(_ path: String) -> String { pathPrefix + path }

    /// `displayPath` as a terminal or a workflow log may show it: a file name is text from
    /// whoever named the file, and a newline or an escape sequence in it must not forge a
    /// diagnostic line or recolour the screen (`TerminalText`).
    public func terminalPath(_ path: String) -> String { TerminalText.escaped(displayPath(path)) }
}

/// The one-line tally at the end of a report: "2 errors, 1 warning in 3 files".
public enum DiagnosticSummary {
    public static func line(for diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.errorCount
        let warnings = diagnostics.warningCount
        let files = diagnostics.fileCount
        if errors == 0 && warnings == 0 { return "no problems found" }
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        return "\(plural(errors, "error")), \(plural(warnings, "warning")) in \(plural(files, "file"))"
    }
}

/// The files a report's diagnostics are in, each looked up once: its path as shown and its
/// source text. A report of 20,000 findings names a few dozen files, and making the shown path
/// (the prefix, the check for characters a terminal acts on) for each finding took a tenth of
/// the human report's time.
struct ReportFiles: Sendable {
    private let options: RenderOptions
    private let forTerminal: Bool
    private var shownPaths: [SourcePath: String] = [:]
    private var sourceFiles: [SourcePath: SourceFile] = [:]

    /// The files of `diagnostics`, their notes and their fix-its' edits, their paths shown as
    /// `options.terminalPath` shows them (`forTerminal`) or as `displayPath` does; with
    /// `snippets`, their source text with its lines indexed, one file a core at a time (the
    /// parts of a report are made on every core at once, and the first to need a file's lines
    /// held the others up while it indexed them).
    init(_ diagnostics: [Diagnostic], options: RenderOptions, forTerminal: Bool, snippets: Bool = false) {
        self.options = options
        self.forTerminal = forTerminal
        for file in diagnostics.files(includingEdits: true) {
            shownPaths[file] = Self.shownPath(file.string, options: options, forTerminal: forTerminal)
            if snippets, let source = options.sources[file.string] { sourceFiles[file] = source }
        }
        _ = Array(sourceFiles.values).concurrentMap { $0.lineCount }
    }

    /// `file`'s path as the report shows it.
    func path(_ file: SourcePath) -> String {
        shownPaths[file] ?? Self.shownPath(file.string, options: options, forTerminal: forTerminal)
    }

    /// `file`'s text, when the report has it (`RenderOptions.sources`) and was made with
    /// `snippets`.
    func source(_ file: SourcePath) -> SourceFile? { sourceFiles[file] }

    private static func shownPath(_ path: String, options: RenderOptions, forTerminal: Bool) -> String {
        forTerminal ? options.terminalPath(path) : options.displayPath(path)
    }
}
