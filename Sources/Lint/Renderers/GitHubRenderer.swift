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
        var output = ""
        write(diagnostics, options: options) { output += $0 }
        return output
    }

    /// The same text, handed to `write` a diagnostic at a time, as it is made.
    public static func write(_ diagnostics: [Diagnostic], options: RenderOptions, to write: (String) -> Void) {
        for diagnostic in diagnostics { write(line(for: diagnostic, options: options)) }
    }

    static func line(for diagnostic: Diagnostic, options: RenderOptions) -> String {
        let command = switch diagnostic.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
        let location = diagnostic.location
        var properties: [(String, String)] = [("file", options.terminalPath(location.path))]
        if let line = location.line { properties.append(("line", String(line))) }
        if let column = location.column { properties.append(("col", String(column))) }
        if let endLine = location.endLine { properties.append(("endLine", String(endLine))) }
        if let endColumn = location.endColumn { properties.append(("endColumn", String(endColumn))) }
        properties.append(("title", diagnostic.code))
        var message = TerminalText.escaped(diagnostic.message)
        for note in diagnostic.notes {
            message += "\nnote: " + TerminalText.escaped(note.message)
            if let noteLocation = note.location {
                message += " (" + options.terminalPath(noteLocation.path) + (noteLocation.line.map { ":\($0)" } ?? "")
                    + (noteLocation.column.map { ":\($0)" } ?? "") + ")"
            }
        }
        for fixIt in diagnostic.fixIts { message += "\nfix: " + TerminalText.escaped(fixIt.message) }
        let propertyText = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(command) \(propertyText)::\(escapeData(message))\n"
    }

    static func escapeData(_ text: String) -> String {
        // Nearly every message has nothing to escape: it is returned as it is.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == 0x0D || $0 == 0x0A }) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func escapeProperty(_ text: String) -> String {
        let text = escapeData(text)
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ",") }) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case ":": output += "%3A"
            case ",": output += "%2C"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
