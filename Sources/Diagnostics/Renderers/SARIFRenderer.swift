import Foundation
import Model

/// Renders diagnostics as a SARIF 2.1.0 log, the format GitHub code scanning and most CI
/// dashboards read.
///
/// One run: `tool.driver` names msgc (no `informationUri`: the project has no public home yet) and lists every rule from the registry (id, name, short and
/// full description, default level, help text with an example's fix); each result carries
/// `ruleId` and `ruleIndex` into that list, its level, message, location (path with the same
/// prefix as the human output; columns count Unicode code points, as `columnKind` says), notes as
/// related locations, and fixes for fix-its that have edits. The bytes follow msgc's canonical
/// JSON (sorted keys, two-space indentation, a final newline): results are written straight
/// with `CanonicalJSONWriter`, the rest built as `JSONValue`s.
public enum SARIFRenderer {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let version = "2.1.0"

    public static func render(
        _ diagnostics: [Diagnostic], options: RenderOptions, toolVersion: String, rules: [RuleInfo]
    ) -> String {
        var output: [UInt8] = []
        write(diagnostics, options: options, toolVersion: toolVersion, rules: rules) { output += $0 }
        return String(decoding: output, as: UTF8.self)
    }

    /// The same text, handed to `write` in parts as it is made (`ReportText`): the canonical JSON
    /// of the whole log (keys sorted, so a run's `results` come before its `tool`), each result
    /// written as the element of the array it is.
    public static func write(
        _ diagnostics: [Diagnostic], options: RenderOptions, toolVersion: String, rules: [RuleInfo],
        to write: ([UInt8]) -> Void
    ) {
        let ruleIndex = Dictionary(rules.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { _, last in last })
        var head = Array("{\n  \"$schema\": ".utf8)
        JSONValue.string(schemaURI).appendCanonical(to: &head, indent: 2)
        head += ",\n  \"runs\": [\n    {\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": ".utf8
        head += (diagnostics.isEmpty ? "[],\n" : "[\n").utf8
        write(head)
        ReportText.write(count: diagnostics.count, to: write) { indices, output in
            var writer = CanonicalJSONWriter(indent: 8)
            for index in indices {
                output += "        "
                writeResult(for: diagnostics[index], ruleIndex: ruleIndex[diagnostics[index].code], options: options, into: &writer)
                output.append(movingFrom: &writer)
                output += index == diagnostics.count - 1 ? "\n      ],\n" : ",\n"
            }
        }
        let driver: JSONValue = [
            "name": "msgc",
            "version": .string(toolVersion),
            "rules": .array(rules.map(rule)),
        ]
        var tail = Array("      \"tool\": ".utf8)
        JSONValue.object(["driver": driver]).appendCanonical(to: &tail, indent: 6)
        tail += "\n    }\n  ],\n  \"version\": ".utf8
        JSONValue.string(version).appendCanonical(to: &tail, indent: 2)
        tail += "\n}\n".utf8
        write(tail)
    }

    static func level(_ severity: Severity) -> JSONValue {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    static func rule(_ info: RuleInfo) -> JSONValue {
        var help = info.rationale
        if let example = info.examples.first(where: { $0.kind == .invalid }) {
            help += "\n\nExample that triggers it (\(example.path)):\n"
                + example.text.replacingOccurrences(of: "⟦", with: "").replacingOccurrences(of: "⟧", with: "")
        }
        return [
            "id": .string(info.code),
            "name": .string(info.name),
            "shortDescription": ["text": .string(info.summary)],
            "fullDescription": ["text": .string(info.rationale)],
            "defaultConfiguration": ["level": level(info.severity)],
            "help": ["text": .string(help)],
        ]
    }

    /// One result: ruleId, ruleIndex, level, message, location, notes as related locations,
    /// fixes for fix-its with edits, the subject as a property; members named in sorted order.
    static func writeResult(for diagnostic: Diagnostic, ruleIndex: Int?, options: RenderOptions, into writer: inout CanonicalJSONWriter) {
        writer.openObject()
        let fixes = diagnostic.fixIts.filter { !$0.edits.isEmpty }
        if !fixes.isEmpty {
            writer.key("fixes")
            writer.openArray(isEmpty: false)
            for fix in fixes {
                writer.element()
                writer.openObject()
                writer.key("artifactChanges")
                var byPath: [String: [FixIt.Edit]] = [:]
                for edit in fix.edits { byPath[edit.location.path, default: []].append(edit) }
                writer.openArray(isEmpty: false)
                for path in byPath.keys.sorted() {
                    writer.element()
                    writer.openObject()
                    writer.key("artifactLocation")
                    writeURI(path, options: options, into: &writer)
                    writer.key("replacements")
                    writer.openArray(isEmpty: false)
                    for edit in byPath[path]! {
                        writer.element()
                        writer.openObject()
                        writer.key("deletedRegion")
                        writeRegion(edit.location, into: &writer)
                        writer.key("insertedContent")
                        writeText(edit.replacement, into: &writer)
                        writer.closeObject()
                    }
                    writer.closeArray()
                    writer.closeObject()
                }
                writer.closeArray()
                writer.key("description")
                writeText(fix.message, into: &writer)
                writer.closeObject()
            }
            writer.closeArray()
        }
        writer.member("level", diagnostic.severity.rawValue)
        writer.key("locations")
        writer.openArray(isEmpty: false)
        writer.element()
        writer.openObject()
        writePhysicalLocation(diagnostic.location, options: options, into: &writer)
        writer.closeObject()
        writer.closeArray()
        writer.key("message")
        writeText(diagnostic.message, into: &writer)
        if let subject = diagnostic.subject {
            writer.key("properties")
            writer.openObject()
            writer.key("subject")
            writer.openObject()
            writer.member("key", subject.key)
            if let locale = subject.locale { writer.member("locale", locale) }
            writer.member("product", subject.product)
            writer.closeObject()
            writer.closeObject()
        }
        if !diagnostic.notes.isEmpty {
            writer.key("relatedLocations")
            writer.openArray(isEmpty: false)
            for (index, note) in diagnostic.notes.enumerated() {
                writer.element()
                writer.openObject()
                writer.member("id", index)
                writer.key("message")
                writeText(note.message, into: &writer)
                if let location = note.location { writePhysicalLocation(location, options: options, into: &writer) }
                writer.closeObject()
            }
            writer.closeArray()
        }
        writer.member("ruleId", diagnostic.code)
        writer.member("ruleIndex", ruleIndex)
        writer.closeObject()
    }

    /// The member `physicalLocation` of an object being written.
    private static func writePhysicalLocation(_ location: SourceLocation, options: RenderOptions, into writer: inout CanonicalJSONWriter) {
        writer.key("physicalLocation")
        writer.openObject()
        writer.key("artifactLocation")
        writeURI(location.path, options: options, into: &writer)
        if location.line != nil {
            writer.key("region")
            writeRegion(location, into: &writer)
        }
        writer.closeObject()
    }

    private static func writeURI(_ path: String, options: RenderOptions, into writer: inout CanonicalJSONWriter) {
        writer.openObject()
        writer.member("uri", uriReference(options.displayPath(path)))
        writer.closeObject()
    }

    /// A path as the URI reference SARIF's `uri` must be (RFC 3986): `/` and the characters a
    /// path segment may hold as they are, every other byte of its UTF-8 as `%XX`. A file named
    /// `a b#1.yaml` is `a%20b%231.yaml`: as written, a reader takes `#1.yaml` for a fragment.
    /// `:` is escaped too, so that a first segment such as `c:` is never read as a scheme.
    static func uriReference(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            if uriPathBytes[Int(byte)] {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += byte < 0x10 ? "%0" + hex : "%" + hex
            }
        }
        return result
    }

    /// Unreserved characters, sub-delimiters, `@` and `/`.
    private static let uriPathBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=@/".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// A SARIF region; `{}` for a location without a line (the whole file).
    private static func writeRegion(_ location: SourceLocation, into writer: inout CanonicalJSONWriter) {
        writer.openObject()
        if let line = location.line {
            writer.member("endColumn", location.endColumn)
            writer.member("endLine", location.endLine)
            writer.member("startColumn", location.column)
            writer.member("startLine", line)
        }
        writer.closeObject()
    }

    private static func writeText(_ text: String, into writer: inout CanonicalJSONWriter) {
        writer.openObject()
        writer.member("text", text)
        writer.closeObject()
    }
}
