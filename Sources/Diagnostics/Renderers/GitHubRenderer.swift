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
        let files = ReportFiles(diagnostics, options: options, forTerminal: true)
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
        output += escapeProperty(files.path(location.file))
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
        output += escapeProperty(diagnostic.code)
        output += "::"
        output += escapeData(TerminalText.escaped(diagnostic.message))
        for note in diagnostic.notes {
            output += "%0Anote: "
            output += escapeData(TerminalText.escaped(note.message))
            if let noteLocation = note.location {
                output += " ("
                output += escapeData(files.path(noteLocation.file))
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
            output += escapeData(TerminalText.escaped(fixIt.message))
        }
        output += "\n"
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
