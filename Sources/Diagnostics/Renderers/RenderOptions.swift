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

/// How a report shows the files its diagnostics are in: each path as `options.terminalPath`
/// shows it (`forTerminal`) or as `displayPath` does, and with `snippets` their source text.
struct ReportFiles: Sendable {
    private let options: RenderOptions
    private let forTerminal: Bool
    private let snippets: Bool

    init(options: RenderOptions, forTerminal: Bool, snippets: Bool = false) {
        self.options = options
        self.forTerminal = forTerminal
        self.snippets = snippets
    }

    /// `file`'s path as the report shows it.
    func path(_ file: SourcePath) -> String {
        Self.shownPath(file.string, options: options, forTerminal: forTerminal)
    }

    /// `file`'s text, when the report has it (`RenderOptions.sources`) and was made with
    /// `snippets`.
    func source(_ file: SourcePath) -> SourceFile? { snippets ? options.sources[file.string] : nil }

    private static func shownPath(_ path: String, options: RenderOptions, forTerminal: Bool) -> String {
        forTerminal ? options.terminalPath(path) : options.displayPath(path)
    }
}
