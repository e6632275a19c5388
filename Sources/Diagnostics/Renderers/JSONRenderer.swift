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
        var output: [UInt8] = []
        write(diagnostics, options: options) { output += $0 }
        return String(decoding: output, as: UTF8.self)
    }

    /// The same text, handed to `write` in parts as it is made (`ReportText`): the canonical
    /// JSON of the whole report (its keys sorted, so `diagnostics` comes first), each diagnostic
    /// written as the element of the array it is.
    public static func write(_ diagnostics: [Diagnostic], options: RenderOptions, to write: ([UInt8]) -> Void) {
        write(Array((diagnostics.isEmpty ? "{\n  \"diagnostics\": [],\n" : "{\n  \"diagnostics\": [\n").utf8))
        let files = ReportFiles(options: options, forTerminal: false)
        ReportText.write(count: diagnostics.count, to: write) { indices, output in
            var writer = CanonicalJSONWriter(indent: 4)
            for index in indices {
                output += "    "
                Self.write(diagnostics[index], files: files, into: &writer)
                output.append(movingFrom: &writer)
                output += index == diagnostics.count - 1 ? "\n  ],\n" : ",\n"
            }
        }
        let summary: JSONValue = [
            "errors": .integer(diagnostics.errorCount),
            "warnings": .integer(diagnostics.warningCount),
            "files": .integer(diagnostics.fileCount),
        ]
        var tail = Array("  \"schemaVersion\": \(schemaVersion),\n  \"summary\": ".utf8)
        summary.appendCanonical(to: &tail, indent: 2)
        tail += "\n}\n".utf8
        write(tail)
    }

    /// One diagnostic, its members named in sorted order (the shape in the type's comment).
    static func write(_ diagnostic: Diagnostic, files: ReportFiles, into writer: inout CanonicalJSONWriter) {
        let location = diagnostic.location
        writer.openObject()
        writer.member("code", diagnostic.code)
        writer.member("column", location.column)
        writer.member("endColumn", location.endColumn)
        writer.member("endLine", location.endLine)
        writer.key("fixIts")
        writer.openArray(isEmpty: diagnostic.fixIts.isEmpty)
        if !diagnostic.fixIts.isEmpty {
            for fixIt in diagnostic.fixIts {
                writer.element()
                writer.openObject()
                writer.key("edits")
                writer.openArray(isEmpty: fixIt.edits.isEmpty)
                if !fixIt.edits.isEmpty {
                    for edit in fixIt.edits {
                        writer.element()
                        writer.openObject()
                        writeLocation(edit.location, files: files, into: &writer, with: "replacement", edit.replacement)
                        writer.closeObject()
                    }
                    writer.closeArray()
                }
                writer.member("message", fixIt.message)
                writer.closeObject()
            }
            writer.closeArray()
        }
        writer.member("line", location.line)
        writer.member("message", diagnostic.message)
        writer.key("notes")
        writer.openArray(isEmpty: diagnostic.notes.isEmpty)
        if !diagnostic.notes.isEmpty {
            for note in diagnostic.notes {
                writer.element()
                writer.openObject()
                if let noteLocation = note.location {
                    writeLocation(noteLocation, files: files, into: &writer, with: "message", note.message)
                } else {
                    writer.member("message", note.message)
                }
                writer.closeObject()
            }
            writer.closeArray()
        }
        writer.member("path", files.path(location.file))
        writer.member("severity", diagnostic.severity.rawValue)
        if let subject = diagnostic.subject {
            writer.key("subject")
            writer.openObject()
            writer.member("key", subject.key)
            if let locale = subject.locale { writer.member("locale", locale) }
            writer.member("product", subject.product)
            writer.closeObject()
        }
        writer.closeObject()
    }

    /// A location's members and one more, `key`, each in its sorted place.
    private static func writeLocation(
        _ location: SourceLocation, files: ReportFiles, into writer: inout CanonicalJSONWriter, with key: StaticString, _ value: String
    ) {
        writer.member("column", location.column)
        writer.member("endColumn", location.endColumn)
        writer.member("endLine", location.endLine)
        writer.member("line", location.line)
        let name = key.description  // ASCII, as "path": String order is byte order
        if name < "path" { writer.member(key, value) }
        writer.member("path", files.path(location.file))
        if name > "path" { writer.member(key, value) }
    }
}
