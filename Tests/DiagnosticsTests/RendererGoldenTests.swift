import Compiler
@testable import Diagnostics
import Foundation
import Model
import TestSupport
import Testing

/// One shared list of diagnostics, rendered by every renderer and compared with its golden file.
@Suite struct RendererGoldenTests {
    static let golden = Golden("Goldens")

    static let source = SourceFile(path: "messages/example.yaml", text: """
        messages:
          - key: winback
            product: com.example.news.premium.yaerly
            type: text
            header: "Bleiben Sie bei Premium und sparen Sie 50 % bei Ihrer nächsten Verlängerung"
            headerPosition: above-title
          - key: winback
            product: com.example.news.premium.yearly
            type: text
            header: "Stay\twith 日本語 Premium"

        """)

    static let subject = Subject(product: "com.example.news.premium.yearly", key: "winback")

    static let diagnostics: [Diagnostic] = [
        Diagnostic(
            code: "PRJ002", severity: .error,
            location: SourceLocation(path: "messages/example.yaml", line: 3, column: 14, endLine: 3, endColumn: 45),
            message: "product 'com.example.news.premium.yaerly' is not listed in msgc.yaml",
            fixIts: [FixIt("did you mean 'com.example.news.premium.yearly'?", edits: [.init(
                location: SourceLocation(path: "messages/example.yaml", line: 3, column: 14, endLine: 3, endColumn: 45),
                replacement: "com.example.news.premium.yearly")])],
            subject: Subject(product: "com.example.news.premium.yaerly", key: "winback")),
        Diagnostic(
            code: "LEN001", severity: .error,
            location: SourceLocation(path: "messages/example.yaml", line: 5, column: 79, endLine: 5, endColumn: 92),
            message: "header has 79 UTF-16 units; Apple's limit is 66 (after NFC: 79 graphemes, 79 scalars, 79 UTF-16 units, 80 UTF-8 bytes)",
            fixIts: [FixIt("shorten it by 13 UTF-16 units; the limit is crossed here")], subject: subject),
        Diagnostic(
            code: "PRJ001", severity: .error,
            location: SourceLocation(path: "messages/example.yaml", line: 7, column: 12, endLine: 7, endColumn: 19),
            message: "product 'com.example.news.premium.yearly' already has a message with key 'winback'",
            notes: [
                Note("first defined here", at: SourceLocation(path: "messages/example.yaml", line: 2, column: 12, endLine: 2, endColumn: 19)),
                Note("keys name messages in XLIFF unit ids, identifiers and the bundle"),
            ],
            fixIts: [FixIt("give this message a key of its own")], subject: subject),
        Diagnostic(
            code: "TXT002", severity: .error,
            location: SourceLocation(path: "messages/example.yaml", line: 10, column: 18, endLine: 10, endColumn: 19),
            message: "header contains the control character U+0009 CHARACTER TABULATION, 100% wrong: here, there",
            subject: subject),
        Diagnostic(
            code: "PRS001", severity: .error, location: SourceLocation(path: "messages/broken.yaml", line: 4),
            message: "malformed YAML: found unexpected end of stream"),
        Diagnostic(
            code: "IMG011", severity: .warning, location: SourceLocation(path: "images/old-hero.png"),
            message: "image 'images/old-hero.png' is not used by any message", fixIts: [FixIt("delete the file, or refer to it from a message")]),
        Diagnostic(
            code: "TXT011", severity: .note,
            location: SourceLocation(path: "translations/de-DE.xliff", line: 7, column: 36, endLine: 7, endColumn: 53),
            message: "de-DE header is identical to the source text; it may not be translated",
            subject: Subject(product: "com.example.news.premium.yearly", key: "winback", locale: "de-DE")),
    ]

    static let options = RenderOptions(pathPrefix: "content/", sources: [source.path: source])

    @Test func human() {
        Self.golden.check(HumanRenderer.render(Self.diagnostics, options: Self.options), against: "diagnostics.human.txt")
    }

    @Test func json() {
        Self.golden.check(JSONRenderer.render(Self.diagnostics, options: Self.options), against: "diagnostics.json")
    }

    /// The rules table holds only the rules the diagnostics use, so that adding a rule elsewhere
    /// does not change this file; `sarifHasTheRequiredStructure` checks the whole table.
    /// The streamed writer gives, diagnostic by diagnostic, the canonical JSON of the
    /// `JSONValue` that describes the report's shape.
    @Test func jsonWriterMatchesTheValueModel() {
        for diagnostic in Self.diagnostics {
            var writer = CanonicalJSONWriter(indent: 4)
            JSONRenderer.write(diagnostic, files: ReportFiles(options: Self.options, forTerminal: false), into: &writer)
            var expected: [UInt8] = []
            ReportModel.value(for: diagnostic, options: Self.options).appendCanonical(to: &expected, indent: 4)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func sarifWriterMatchesTheValueModel() {
        for (index, diagnostic) in Self.diagnostics.enumerated() {
            for ruleIndex in [nil, index] {
                var writer = CanonicalJSONWriter(indent: 8)
                SARIFRenderer.writeResult(for: diagnostic, ruleIndex: ruleIndex, options: Self.options, into: &writer)
                var expected: [UInt8] = []
                ReportModel.result(for: diagnostic, ruleIndex: ruleIndex, options: Self.options).appendCanonical(to: &expected, indent: 8)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            }
        }
    }

    /// A report longer than the parts it is handed on in (`ReportText.write`) is the same text
    /// as its diagnostics rendered one by one, in order.
    @Test func aLongReportIsItsDiagnosticsInOrder() {
        let count = ReportText.partSize * 3 + 5
        let diagnostics = (0..<count).map { index in
            var diagnostic = Self.diagnostics[index % Self.diagnostics.count]
            diagnostic.message += " (\(index))"
            return diagnostic
        }
        #expect(HumanRenderer.render(diagnostics, options: Self.options)
            == diagnostics.map { HumanRenderer.render([$0], options: Self.options) }.joined())
        #expect(GitHubRenderer.render(diagnostics, options: Self.options)
            == diagnostics.map { GitHubRenderer.render([$0], options: Self.options) }.joined())

        func elements(indent: Int, _ value: (Diagnostic) -> JSONValue) -> String {
            diagnostics.map { diagnostic in
                var bytes = Array(String(repeating: " ", count: indent).utf8)
                value(diagnostic).appendCanonical(to: &bytes, indent: indent)
                return String(decoding: bytes, as: UTF8.self)
            }.joined(separator: ",\n")
        }
        let json = JSONRenderer.render(diagnostics, options: Self.options)
        let jsonElements = elements(indent: 4) { ReportModel.value(for: $0, options: Self.options) }
        #expect(json.hasPrefix("{\n  \"diagnostics\": [\n" + jsonElements + "\n  ],\n  \"schemaVersion\": "))

        let rules = Codes.all.filter { Set(Self.diagnostics.map(\.code)).contains($0.code) }
        let sarif = SARIFRenderer.render(diagnostics, options: Self.options, toolVersion: "0.1.0", rules: rules)
        let results = elements(indent: 8) { diagnostic in
            ReportModel.result(
                for: diagnostic, ruleIndex: rules.firstIndex { $0.code == diagnostic.code }, options: Self.options)
        }
        #expect(sarif.contains("\"results\": [\n" + results + "\n      ],\n      \"tool\": "))
    }

    @Test func sarif() {
        let codes = Set(Self.diagnostics.map(\.code))
        let rules = Codes.all.filter { codes.contains($0.code) }
        Self.golden.check(
            SARIFRenderer.render(Self.diagnostics, options: Self.options, toolVersion: "0.1.0", rules: rules),
            against: "diagnostics.sarif")
    }

    @Test func github() {
        Self.golden.check(GitHubRenderer.render(Self.diagnostics, options: Self.options), against: "diagnostics.github")
    }

    /// The parts of SARIF 2.1.0 that the schema requires and code scanning reads.
    @Test func sarifHasTheRequiredStructure() throws {
        let text = SARIFRenderer.render(Self.diagnostics, options: Self.options, toolVersion: "0.1.0", rules: Codes.all)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.hasSuffix("sarif-2.1.0.json") == true)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "msgc")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIds = rules.compactMap { $0["id"] as? String }
        #expect(ruleIds == Codes.all.map(\.code))
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["error", "warning", "note"].contains(level ?? ""))
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == Self.diagnostics.count)
        for result in results {
            let ruleId = try #require(result["ruleId"] as? String)
            #expect(ruleIds.contains(ruleId))
            let ruleIndex = try #require(result["ruleIndex"] as? Int)
            #expect(ruleIds[ruleIndex] == ruleId)
            #expect((result["message"] as? [String: Any])?["text"] is String)
            let locations = try #require(result["locations"] as? [[String: Any]])
            for location in locations {
                let physical = try #require(location["physicalLocation"] as? [String: Any])
                let uri = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String
                #expect(uri?.hasPrefix("content/") == true)
                if let region = physical["region"] as? [String: Any] {
                    #expect((region["startLine"] as? Int ?? 0) >= 1)
                }
            }
        }
        let fixes = results.compactMap { $0["fixes"] as? [[String: Any]] }.flatMap { $0 }
        #expect(fixes.count == 1)
    }

    /// SARIF's `uri` is a URI reference: a space, `#`, `%`, `?`, `:`, a control and non-ASCII
    /// text in a file name are percent-encoded (UTF-8), `/` and a name's usual characters not.
    @Test func sarifURIsArePercentEncoded() throws {
        #expect(SARIFRenderer.uriReference("content/messages/plain-name_1.2~x.yaml") == "content/messages/plain-name_1.2~x.yaml")
        let path = "messages/a b#1 100%?é\u{1B}:日.yaml"
        let encoded = "content/messages/a%20b%231%20100%25%3F%C3%A9%1B%3A%E6%97%A5.yaml"
        #expect(SARIFRenderer.uriReference("content/" + path) == encoded)
        var diagnostic = Self.diagnostics[0]
        diagnostic.location = SourceLocation(path: path, line: 1, column: 1)
        diagnostic.notes = [Note("here", at: SourceLocation(path: path, line: 2, column: 1))]
        diagnostic.fixIts = [FixIt("fix", edits: [FixIt.Edit(location: SourceLocation(path: path, line: 1, column: 1, endLine: 1, endColumn: 2), replacement: "x")])]
        let text = SARIFRenderer.render([diagnostic], options: Self.options, toolVersion: "0.1.0", rules: Codes.all)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let result = try #require(((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        func uri(_ location: Any?) -> String? {
            (((location as? [String: Any])?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        }
        #expect(uri((result["locations"] as? [Any])?.first) == encoded)
        #expect(uri((result["relatedLocations"] as? [Any])?.first) == encoded)
        let change = (((result["fixes"] as? [[String: Any]])?.first?["artifactChanges"] as? [[String: Any]])?.first)
        #expect((change?["artifactLocation"] as? [String: Any])?["uri"] as? String == encoded)
        #expect(URL(string: encoded) != nil)
    }

    @Test func githubEscapesDataAndProperties() {
        #expect(GitHubRenderer.escapeData("50%\r\nnext") == "50%25%0D%0Anext")
        #expect(GitHubRenderer.escapeProperty("a:b,c%") == "a%3Ab%2Cc%25")
    }
}

/// The JSON report's and SARIF results' shapes as `JSONValue`s (which write canonical JSON
/// themselves): what the renderers' streamed writers must produce, byte for byte.
enum ReportModel {
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

    static func location(_ location: Model.SourceLocation, options: RenderOptions) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["path": .string(options.displayPath(location.path))]
        if let line = location.line { object["line"] = .integer(line) }
        if let column = location.column { object["column"] = .integer(column) }
        if let endLine = location.endLine { object["endLine"] = .integer(endLine) }
        if let endColumn = location.endColumn { object["endColumn"] = .integer(endColumn) }
        return object
    }


    static func result(for diagnostic: Diagnostic, ruleIndex: Int?, options: RenderOptions) -> JSONValue {
        var object: [String: JSONValue] = [
            "ruleId": .string(diagnostic.code),
            "level": SARIFRenderer.level(diagnostic.severity),
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
                        "artifactLocation": ["uri": .string(SARIFRenderer.uriReference(options.displayPath(path)))],
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


    static func physicalLocation(_ location: Model.SourceLocation, options: RenderOptions) -> JSONValue {
        var physical: [String: JSONValue] = ["artifactLocation": ["uri": .string(SARIFRenderer.uriReference(options.displayPath(location.path)))]]
        if let region = region(location) { physical["region"] = region }
        return ["physicalLocation": .object(physical)]
    }

    /// A SARIF region; nil for a location without a line (the whole file).
    static func region(_ location: Model.SourceLocation) -> JSONValue? {
        guard let line = location.line else { return nil }
        var region: [String: JSONValue] = ["startLine": .integer(line)]
        if let column = location.column { region["startColumn"] = .integer(column) }
        if let endLine = location.endLine { region["endLine"] = .integer(endLine) }
        if let endColumn = location.endColumn { region["endColumn"] = .integer(endColumn) }
        return .object(region)
    }
}
