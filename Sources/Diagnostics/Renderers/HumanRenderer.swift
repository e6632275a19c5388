import Model

/// Renders diagnostics the way compilers do: `path:line:col: error: message [CODE]`, the
/// source line with a gutter and a marker under the span, then notes and fix-its.
public enum HumanRenderer {
    public static func render(_ diagnostics: [Diagnostic], options: RenderOptions) -> String {
        var output = ""
        write(diagnostics, options: options) { output += $0 }
        return output
    }

    /// The same text, handed to `write` a diagnostic at a time, as it is made.
    public static func write(_ diagnostics: [Diagnostic], options: RenderOptions, to write: (String) -> Void) {
        for diagnostic in diagnostics { write(render(diagnostic, options: options)) }
    }

    static func render(_ diagnostic: Diagnostic, options: RenderOptions) -> String {
        let style = Style(enabled: options.useColor)
        var output = style.bold(position(diagnostic.location, options: options) + ":") + " "
        let label = diagnostic.severity.rawValue + ":"
        switch diagnostic.severity {
        case .error: output += style.red(label)
        case .warning: output += style.magenta(label)
        case .note: output += style.cyan(label)
        }
        output += " " + style.bold(TerminalText.escaped(diagnostic.message)) + " [\(diagnostic.code)]\n"
        output += snippet(for: diagnostic.location, options: options, style: style)
        for note in diagnostic.notes {
            var line = "  " + style.cyan("= note:") + " " + TerminalText.escaped(note.message)
            if let location = note.location { line += " (" + position(location, options: options) + ")" }
            output += line + "\n"
        }
        for fixIt in diagnostic.fixIts {
            output += "  " + style.green("= fix:") + " " + TerminalText.escaped(fixIt.message) + "\n"
        }
        return output
    }

    private static func position(_ location: SourceLocation, options: RenderOptions) -> String {
        var text = options.terminalPath(location.path)
        if let line = location.line {
            text += ":\(line)"
            if let column = location.column { text += ":\(column)" }
        }
        return text
    }

    /// The most characters of a source line a snippet shows. A longer line (a minified XLIFF
    /// file, a hostile one nested 100,000 deep) is cut to this many around the column, with
    /// `…` where it was cut.
    static let maxSnippetScalars = 160

    private static func snippet(for location: SourceLocation, options: RenderOptions, style: Style) -> String {
        guard let lineNumber = location.line, let source = options.sources[location.path],
              let rawLine = source.line(lineNumber) else { return "" }
        let shownLine = TerminalText.placeholders(rawLine)
        let fullLine = Array(shownLine.unicodeScalars)
        var lower = 0
        var upper = fullLine.count
        if fullLine.count > maxSnippetScalars {
            let anchor = min(max((location.column ?? 1) - 1, 0), fullLine.count)
            lower = max(0, min(anchor - maxSnippetScalars / 4, fullLine.count - maxSnippetScalars))
            upper = lower + maxSnippetScalars
        }
        let scalars = fullLine[lower..<upper]
        let lead = lower > 0 ? "…" : ""
        let line = upper - lower == fullLine.count
            ? shownLine
            : lead + String(String.UnicodeScalarView(scalars)) + (upper < fullLine.count ? "…" : "")
        let gutter = String(lineNumber)
        let pad = spaces(gutter.utf8.count)
        var output = " \(pad) \(style.blue("|"))\n"
        output += " \(style.blue(gutter)) \(style.blue("|")) \(line)\n"
        if let column = location.column {
            let start = lower + min(max(column - 1 - lower, 0), scalars.count)
            var end = start + 1
            if location.endLine == lineNumber, let endColumn = location.endColumn {
                end = lower + min(max(endColumn - 1 - lower, start - lower + 1), max(scalars.count, start - lower + 1))
            }
            let prefixWidth = lead.count + TerminalWidth.of(fullLine[lower..<start])
            let markedWidth = max(1, TerminalWidth.of(fullLine[start..<min(end, upper)]))
            let marker = "^" + String(decoding: repeatElement(UInt8(ascii: "~"), count: markedWidth - 1), as: UTF8.self)
            output += " \(pad) \(style.blue("|")) " + spaces(prefixWidth) + style.green(marker) + "\n"
        }
        return output
    }

    private static func spaces(_ count: Int) -> String {
        String(decoding: repeatElement(UInt8(ascii: " "), count: count), as: UTF8.self)
    }

    struct Style {
        let enabled: Bool
        func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func bold(_ text: String) -> String { wrap(text, "1") }
        func red(_ text: String) -> String { wrap(text, "1;31") }
        func magenta(_ text: String) -> String { wrap(text, "1;35") }
        func cyan(_ text: String) -> String { wrap(text, "1;36") }
        func green(_ text: String) -> String { wrap(text, "1;32") }
        func blue(_ text: String) -> String { wrap(text, "1;34") }
    }
}

/// How many terminal cells text takes: grapheme clusters, two cells for East Asian wide ones.
enum TerminalWidth {
    static func of<S: Sequence>(_ scalars: S) -> Int where S.Element == Unicode.Scalar {
        // Printable ASCII, most of most snippets, takes a cell a scalar: no grapheme breaking
        // and no Unicode property lookups.
        if scalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return scalars.reduce(0) { count, _ in count + 1 } }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text).reduce(0) { $0 + width(of: $1) }
    }

    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.properties.generalCategory == .control { return 0 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return first.properties.isEmojiPresentation ? 2 : 1
        }
    }
}

