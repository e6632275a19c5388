import Model

/// Renders diagnostics as GitHub Actions workflow commands, which GitHub shows as annotations
/// on the pull request: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::message`.
///
/// Errors become `::error`, warnings `::warning`, notes `::notice`. Notes and fix-its follow
/// the message on lines of their own. Escaping follows actions/toolkit's `command.ts`: `%`,
/// CR and LF in the message; those and `:` and `,` in property values. Texts quoted in
/// messages have their controls, escapes and bidi characters written as `<U+202E>`, as in the
/// terminal: a workflow log acts on ANSI escapes too.
public enum GitHubRenderer {
    public static func render(_ diagnostics: [Diagnostic], options: RenderOptions) -> String {
        var output: [UInt8] = []
        write(diagnostics, options: options) { output += $0 }
        return String(decoding: output, as: UTF8.self)
    }

    /// The same text, handed to `write` in parts as it is made (`ReportText`).
    public static func write(_ diagnostics: [Diagnostic], options: RenderOptions, to write: ([UInt8]) -> Void) {
        let files = ReportFiles(options: options, forTerminal: true)
        ReportText.write(count: diagnostics.count, to: write) { indices, output in
            for index in indices { append(diagnostics[index], files: files, to: &output) }
        }
    }

    static func append(_ diagnostic: Diagnostic, files: ReportFiles, to output: inout ReportText) {
        output += "::"
        switch diagnostic.severity {
        case .error: output += "error"
        case .warning: output += "warning"
        case .note: output += "notice"
        }
        let location = diagnostic.location
        output += " file="
        output.append(files.path(location.file), escaping: propertyEscape)
        func property(_ name: String, _ value: Int?) {
            guard let value else { return }
            output += ","
            output += name
            output += "="
            output += String(value)
        }
        property("line", location.line)
        property("col", location.column)
        property("endLine", location.endLine)
        property("endColumn", location.endColumn)
        output += ",title="
        output.append(diagnostic.code, escaping: propertyEscape)
        output += "::"
        output.append(TerminalText.escaped(diagnostic.message), escaping: dataEscape)
        for note in diagnostic.notes {
            output += "%0Anote: "
            output.append(TerminalText.escaped(note.message), escaping: dataEscape)
            if let noteLocation = note.location {
                output += " ("
                output.append(files.path(noteLocation.file), escaping: dataEscape)
                if let line = noteLocation.line {
                    output += ":"
                    output += String(line)
                }
                if let column = noteLocation.column {
                    output += ":"
                    output += String(column)
                }
                output += ")"
            }
        }
        for fixIt in diagnostic.fixIts {
            output += "%0Afix: "
            output.append(TerminalText.escaped(fixIt.message), escaping: dataEscape)
        }
        output += "\n"
    }

    /// A workflow command's data: `%`, CR and LF escaped.
    static func escapeData(_ text: String) -> String {
        var output = ReportText()
        output.append(text, escaping: dataEscape)
        return String(decoding: output.utf8, as: UTF8.self)
    }

    /// A workflow command's property value: the data escapes, and `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        var output = ReportText()
        output.append(text, escaping: propertyEscape)
        return String(decoding: output.utf8, as: UTF8.self)
    }

    private static func dataEscape(_ byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "%"): "%25"
        case 0x0D: "%0D"
        case 0x0A: "%0A"
        default: nil
        }
    }

    // The data escapes and two more in one pass: the data escapes write no `:` or `,`.
    private static func propertyEscape(_ byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: ":"): "%3A"
        case UInt8(ascii: ","): "%2C"
        default: dataEscape(byte)
        }
    }
}
