import Model

/// Renders diagnostics as a SARIF 2.1.0 log, the format GitHub code scanning and most CI
/// dashboards read.
///
/// One run: `tool.driver` names msgc (no `informationUri`: the project has no public home yet) and lists every rule from the registry (id, name, short and
/// full description, default level, help text with an example's fix); each result carries
/// `ruleId` and `ruleIndex` into that list, its level, message, location (path with the same
/// prefix as the human output; columns count Unicode code points, as `columnKind` says), notes as
/// related locations, and fixes for fix-its that have edits. Built as a `JSONValue`, so the bytes
/// follow msgc's canonical JSON: sorted keys, two-space indentation, a final newline.
public enum SARIFRenderer {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let version = "2.1.0"

    public static func render(
        _ diagnostics: [Diagnostic], options: RenderOptions, toolVersion: String, rules: [RuleInfo]
    ) -> String {
        var output = ""
        write(diagnostics, options: options, toolVersion: toolVersion, rules: rules) { output += $0 }
        return output
    }

    /// The same text, handed to `write` a result at a time, as it is made: the canonical JSON
    /// of the whole log (keys sorted, so a run's `results` come before its `tool`), each result
    /// written as the element of the array it is.
    public static func write(
        _ diagnostics: [Diagnostic], options: RenderOptions, toolVersion: String, rules: [RuleInfo],
        to write: (String) -> Void
    ) {
        var ruleIndex: [String: Int] = [:]
        for (index, info) in rules.enumerated() { ruleIndex[info.code] = index }
        var head = Array("{\n  \"$schema\": ".utf8)
        JSONValue.string(schemaURI).appendCanonical(to: &head, indent: 2)
        head += ",\n  \"runs\": [\n    {\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": ".utf8
        head += (diagnostics.isEmpty ? "[],\n" : "[\n").utf8
        write(String(decoding: head, as: UTF8.self))
        for (index, diagnostic) in diagnostics.enumerated() {
            var bytes = Array("        ".utf8)
            result(for: diagnostic, ruleIndex: ruleIndex[diagnostic.code], options: options).appendCanonical(to: &bytes, indent: 8)
            bytes += (index == diagnostics.count - 1 ? "\n      ],\n" : ",\n").utf8
            write(String(decoding: bytes, as: UTF8.self))
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
        write(String(decoding: tail, as: UTF8.self))
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

    static func result(for diagnostic: Diagnostic, ruleIndex: Int?, options: RenderOptions) -> JSONValue {
        var object: [String: JSONValue] = [
            "ruleId": .string(diagnostic.code),
            "level": level(diagnostic.severity),
            "message": ["text": .string(diagnostic.message)],
            "locations": [physicalLocation(diagnostic.location, options: options)],
        ]
        if let ruleIndex { object["ruleIndex"] = .integer(ruleIndex) }
        if !diagnostic.notes.isEmpty {
            object["relatedLocations"] = .array(diagnostic.notes.enumerated().map { index, note in
                var location: [String: JSONValue] = ["id": .integer(index), "message": ["text": .string(note.message)]]
                if let noteLocation = note.location, case .object(let physical) = physicalLocation(noteLocation, options: options) {
                    location.merge(physical) { current, _ in current }
                }
                return .object(location)
            })
        }
        let fixes = diagnostic.fixIts.filter { !$0.edits.isEmpty }
        if !fixes.isEmpty {
            object["fixes"] = .array(fixes.map { fix in
                var byPath: [String: [FixIt.Edit]] = [:]
                for edit in fix.edits { byPath[edit.location.path, default: []].append(edit) }
                let changes: [JSONValue] = byPath.keys.sorted().map { path in
                    [
                        "artifactLocation": ["uri": .string(options.displayPath(path))],
                        "replacements": .array(byPath[path]!.map { edit in
                            ["deletedRegion": region(edit.location) ?? [:], "insertedContent": ["text": .string(edit.replacement)]]
                        }),
                    ]
                }
                return ["description": ["text": .string(fix.message)], "artifactChanges": .array(changes)]
            })
        }
        if let subject = diagnostic.subject {
            var subjectObject: [String: JSONValue] = ["product": .string(subject.product), "key": .string(subject.key)]
            if let locale = subject.locale { subjectObject["locale"] = .string(locale) }
            object["properties"] = ["subject": .object(subjectObject)]
        }
        return .object(object)
    }

    static func physicalLocation(_ location: SourceLocation, options: RenderOptions) -> JSONValue {
        var physical: [String: JSONValue] = ["artifactLocation": ["uri": .string(options.displayPath(location.path))]]
        if let region = region(location) { physical["region"] = region }
        return ["physicalLocation": .object(physical)]
    }

    /// A SARIF region; nil for a location without a line (the whole file).
    static func region(_ location: SourceLocation) -> JSONValue? {
        guard let line = location.line else { return nil }
        var region: [String: JSONValue] = ["startLine": .integer(line)]
        if let column = location.column { region["startColumn"] = .integer(column) }
        if let endLine = location.endLine { region["endLine"] = .integer(endLine) }
        if let endColumn = location.endColumn { region["endColumn"] = .integer(endColumn) }
        return .object(region)
    }
}
