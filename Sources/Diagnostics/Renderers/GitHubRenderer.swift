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
        escaped(text) { byte in
            switch byte {
            case UInt8(ascii: "%"): "%25"
            case 0x0D: "%0D"
            case 0x0A: "%0A"
            default: nil
            }
        }
    }

    static func escapeProperty(_ text: String) -> String {
        escaped(escapeData(text)) { byte in
            switch byte {
            case UInt8(ascii: ":"): "%3A"
            case UInt8(ascii: ","): "%2C"
            default: nil
            }
        }
    }

    /// `text` with each byte that `replacement` has a replacement for replaced, built as bytes
    /// (every escaped byte is ASCII, so no scalar is split); text with nothing to replace,
    /// most messages without notes, is returned as it is.
    private static func escaped(_ text: String, _ replacement: (UInt8) -> StaticString?) -> String {
        guard text.utf8.contains(where: { replacement($0) != nil }) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if let escape = replacement(byte) {
                output.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
