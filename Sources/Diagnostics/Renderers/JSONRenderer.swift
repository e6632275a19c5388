import Model

/// Renders diagnostics as msgc's JSON report, schema version 1:
///
/// ```
/// { "schemaVersion": 1,
///   "diagnostics": [ { "code", "severity", "message", "path", "line"?, "column"?, "endLine"?, "endColumn"?,
///                      "subject"?: { "product", "key", "locale"? },
///                      "notes": [ { "message", "path"?, "line"?, "column"? } ],
///                      "fixIts": [ { "message", "edits": [ { "path", "line", "column", "endLine"?, "endColumn"?, "replacement" } ] } ] } ],
///   "summary": { "errors", "warnings", "files" } }
/// ```
/// Paths carry the same prefix as the human output. Absent values are omitted, never null.
public enum JSONRenderer {
    public static let schemaVersion = 1

    public static func render(_ diagnostics: [Diagnostic], options: RenderOptions) -> String {
        var output = ""
        write(diagnostics, options: options) { output += $0 }
        return output
    }

    /// The same text, handed to `write` a diagnostic at a time, as it is made: the canonical JSON
    /// of the whole report (its keys sorted, so `diagnostics` comes first), each diagnostic
    /// written as the element of the array it is.
    public static func write(_ diagnostics: [Diagnostic], options: RenderOptions, to write: (String) -> Void) {
        if diagnostics.isEmpty {
            write("{\n  \"diagnostics\": [],\n")
        } else {
            write("{\n  \"diagnostics\": [\n")
            for (index, diagnostic) in diagnostics.enumerated() {
                var bytes = Array("    ".utf8)
                value(for: diagnostic, options: options).appendCanonical(to: &bytes, indent: 4)
                bytes += (index == diagnostics.count - 1 ? "\n" : ",\n").utf8
                write(String(decoding: bytes, as: UTF8.self))
            }
            write("  ],\n")
        }
        let summary: JSONValue = [
            "errors": .integer(diagnostics.errorCount),
            "warnings": .integer(diagnostics.warningCount),
            "files": .integer(Set(diagnostics.map(\.location.path)).count),
        ]
        var tail = Array("  \"schemaVersion\": \(schemaVersion),\n  \"summary\": ".utf8)
        summary.appendCanonical(to: &tail, indent: 2)
        tail += "\n}\n".utf8
        write(String(decoding: tail, as: UTF8.self))
    }

    static func value(for diagnostic: Diagnostic, options: RenderOptions) -> JSONValue {
        var object = location(diagnostic.location, options: options)
        object["code"] = .string(diagnostic.code)
        object["severity"] = .string(diagnostic.severity.rawValue)
        object["message"] = .string(diagnostic.message)
        if let subject = diagnostic.subject {
            var subjectObject: [String: JSONValue] = ["product": .string(subject.product), "key": .string(subject.key)]
            if let locale = subject.locale { subjectObject["locale"] = .string(locale) }
            object["subject"] = .object(subjectObject)
        }
        object["notes"] = .array(diagnostic.notes.map { note in
            var noteObject = note.location.map { location($0, options: options) } ?? [:]
            noteObject["message"] = .string(note.message)
            return .object(noteObject)
        })
        object["fixIts"] = .array(diagnostic.fixIts.map { fixIt in
            [
                "message": .string(fixIt.message),
                "edits": .array(fixIt.edits.map { edit in
                    var editObject = location(edit.location, options: options)
                    editObject["replacement"] = .string(edit.replacement)
                    return .object(editObject)
                }),
            ]
        })
        return .object(object)
    }

    private static func location(_ location: SourceLocation, options: RenderOptions) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["path": .string(options.displayPath(location.path))]
        if let line = location.line { object["line"] = .integer(line) }
        if let column = location.column { object["column"] = .integer(column) }
        if let endLine = location.endLine { object["endLine"] = .integer(endLine) }
        if let endColumn = location.endColumn { object["endColumn"] = .integer(endColumn) }
        return object
    }
}
