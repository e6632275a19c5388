import Foundation
import Testing
import TestSupport

/// What `msgc lint translations/…` tells a translator about their own file, on files shaped like
/// the ones translators' tools return: the work still missing is named, a writer's mistake is
/// not blamed on them, and every state and language is explained as what it is.
@Suite(.ownThreads) struct TranslatorReportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A copy of the everyday tree, or of `tree`, with `files` (tree path: fixture name under
    /// Fixtures/translator-report) put in place.
    func tree(_ tree: String = "everyday", files: [String: String] = [:]) throws -> URL {
        let folder = try MsgcRunner.temporaryFolder()
        let content = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("\(tree)/content"), to: content)
        for (path, fixture) in files {
            let url = content.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("translator-report/\(fixture)"), to: url)
        }
        return content
    }

    func edit(_ url: URL, _ change: (String) -> String) throws {
        try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    /// The file: the header's target empty but `final`, the body's three spaces but
    /// `translated`. Each is a warning at its state (so `--strict` fails), and the report ends
    /// by counting what the locale still lacks.
    @Test func anEmptyFinalTargetAndABlankTranslatedOneAreReported() throws {
        let content = try tree(files: ["translations/de-DE.xliff": "empty-final-de-DE.xliff"])
        let file = content.appendingPathComponent("translations/de-DE.xliff").path
        let lint = try MsgcRunner.run(["lint", "--content", content.path, file])
        #expect(lint.status == 1, "the German body's overflow is an error")
        #expect(lint.stdout.contains("de-DE.xliff:10:24: warning: unit 'com.example.reader.yearly/winback/header' has an empty target, but state 'final' says it is translated; msgc has no text to use [XLF015]"), "\(lint.stdout)")
        #expect(lint.stdout.contains("de-DE.xliff:16:24: warning: unit 'com.example.reader.yearly/winback/body' has a target of only white space, but state 'translated' says it is translated"))
        #expect(lint.stdout.contains("    |                        ^~~~~\n"), "the marker is under 'final'")
        let lines = lint.stdout.split(separator: "\n")
        let footer = try #require(lines.first { $0.contains("[TRN006]") })
        #expect(footer.hasSuffix("note: 2 of 6 de-DE fields have no usable translation in this file (2 with no target text); `msgc coverage --locale de-DE` shows which messages wait for them [TRN006]"), "\(footer)")
        // The note closes the file's findings: only the summary follows (a note about the
        // whole file has no snippet of `</xliff>`).
        #expect(lines.suffix(2).first == footer)
        #expect(lines.last == "1 error, 2 warnings in 1 file")

        // Without the overflow, the warnings alone pass, and fail with --strict.
        try edit(content.appendingPathComponent("translations/de-DE.xliff")) { text in
            text.replacingOccurrences(of: " – jetzt mit allen Ausgaben, Archiven, Podcasts und Newslettern inklusive, jederzeit kündbar", with: "")
        }
        #expect(try MsgcRunner.run(["lint", "--content", content.path, file]).status == 0)
        #expect(try MsgcRunner.run(["lint", "--content", content.path, file, "--strict"]).status == 1)

        // JSON carries the note as a diagnostic of severity note.
        let json = try MsgcRunner.run(["lint", "--content", content.path, file, "--format", "json"])
        #expect(json.stdout.contains("\"code\": \"TRN006\""))
        #expect(json.stdout.contains("\"severity\": \"note\""))
        let github = try MsgcRunner.run(["lint", "--content", content.path, file, "--format", "github"])
        #expect(github.stdout.contains("::notice file="), "\(github.stdout)")
    }

    /// memoQ returns XLIFF 1.2 with its own `mq:` attributes and every segment not started as
    /// an empty target without state: no contradiction, so no warning, but the report says how
    /// much is left, and `rules:` can turn the note off.
    @Test func aMemoQFileWithManyEmptyTargetsSaysHowMuchIsLeft() throws {
        let content = try tree("memoq")
        let file = content.appendingPathComponent("translations/de-DE.xlf").path
        let lint = try MsgcRunner.run(["lint", "--content", content.path, file, "--strict"])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(!lint.stdout.contains("warning:"), "\(lint.stdout)")
        #expect(lint.stdout.contains("note: 118 of 120 de-DE fields have no usable translation in this file (118 with no target text); `msgc coverage --locale de-DE` shows which messages wait for them [TRN006]"), "\(lint.stdout)")
        #expect(lint.stdout.hasSuffix("no problems found\n"))
        // The whole tree's lint is the writer's report: no note there.
        #expect(!(try MsgcRunner.run(["lint", "--content", content.path]).stdout.contains("TRN006")))

        try edit(content.appendingPathComponent("msgc.yaml")) { $0 + "rules:\n  untranslated-fields: off\n" }
        #expect(!(try MsgcRunner.run(["lint", "--content", content.path, file]).stdout.contains("TRN006")))
    }

    /// An Xcode export: untranslated strings have no target or `state="new"` with the source
    /// copied; the report counts both kinds.
    @Test func anXcodeExportCountsItsUntranslatedStrings() throws {
        let content = try tree(files: ["translations/de-DE.xliff": "xcode-de-DE.xliff"])
        let file = content.appendingPathComponent("translations/de-DE.xliff").path
        let lint = try MsgcRunner.run(["lint", "--content", content.path, file])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.contains("[TRN004]"))
        #expect(lint.stdout.contains("note: 3 of 6 de-DE fields have no usable translation in this file (2 with no target text, 1 not translated yet)"), "\(lint.stdout)")
    }

    /// The same export without a target language, in Xcode's folder layout: the one error says
    /// what it costs and which locale the file's name suggests, with the attribute as a fix.
    @Test func aFileWithoutTargetLanguageNamesTheLocaleItsNameSuggests() throws {
        let path = "translations/de-DE.xcloc/Localized Contents/de-DE.xliff"
        let content = try tree(files: [path: "xcode-de-DE.xliff"])
        try edit(content.appendingPathComponent(path)) { $0.replacingOccurrences(of: " target-language=\"de-DE\"", with: "") }
        let lint = try MsgcRunner.run(["lint", "--content", content.path, content.appendingPathComponent(path).path, "--format", "json"])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("XLIFF file has no target language, so msgc cannot tell its locale and none of its 6 units is used; add target-language on <file>; its name suggests 'de-DE'"), "\(lint.stdout)")
        #expect(lint.stdout.contains("\"replacement\": \" target-language=\\\"de-DE\\\"\""), "\(lint.stdout)")
        #expect(!lint.stdout.contains("TRN006"), "the file is used for no locale")
    }

    /// translate-toolkit's po2xliff copies gettext's `Language: de_DE` header into
    /// target-language. The file is de-DE's, with a warning, not refused as malformed.
    @Test func aPo2xliffFileForDeUnderscoreDEBindsToDeDE() throws {
        let content = try tree(files: ["translations/de-DE.xliff": "po2xliff-de_DE.xlf"])
        let file = content.appendingPathComponent("translations/de-DE.xliff").path
        let lint = try MsgcRunner.run(["lint", "--content", content.path, file])
        #expect(lint.stdout.contains("warning: target language 'de_DE' is the project's locale 'de-DE' written with '_' for '-', as gettext writes it; the file is used for de-DE [LOC009]"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("LOC001"))
        // Its units carry po2xliff's sequence numbers, not msgc's ids: one error about the
        // file, not a warning per unit that it can be deleted, nor a count of every field.
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("error: none of the 6 units of this file matches a message field of the project: their ids ('3', '4', '5'…) are not msgc's PRODUCT/KEY/FIELD, so the file was not made by `msgc extract`; none of its translations can ship [TRN008]"), "\(lint.stdout)")
        #expect(lint.stdout.contains("= fix: translate the file `msgc extract --locale de-DE` writes; to keep this work, copy each target into the unit there with the same source text"))
        #expect(!lint.stdout.contains("TRN003") && !lint.stdout.contains("TRN006"), "\(lint.stdout)")

        // A tag that names no project locale still costs the whole file, and says so.
        try edit(content.appendingPathComponent("translations/de-DE.xliff")) { $0.replacingOccurrences(of: "\"de_DE\"", with: "\"deutsch_DE\"") }
        let refused = try MsgcRunner.run(["lint", "--content", content.path, file])
        #expect(refused.stdout.contains("; none of the 6 units of 'translations/de-DE.xliff' is used [LOC001]"), "\(refused.stdout)")
    }

    /// A state typed in the wrong case is explained as what it is, at the attribute, with the
    /// state it is closest to; it is not called "not translated yet".
    @Test func aMisspeltStateIsNamedAtItsAttribute() throws {
        let content = try tree()
        let german = content.appendingPathComponent("translations/de-DE.xliff")
        try edit(german) { text in
            let unit = text.range(of: "id=\"com.example.reader.yearly/last-chance/header\"")!
            let state = text.range(of: "state=\"translated\"", range: unit.upperBound..<text.endIndex)!
            return text.replacingCharacters(in: state, with: "state=\"Translated\"")
        }
        let lint = try MsgcRunner.run(["lint", "--content", content.path, german.path])
        #expect(lint.stdout.contains("de-DE.xliff:22:24: warning: state 'Translated' of unit 'com.example.reader.yearly/last-chance/header' is not an XLIFF 1.2 state, so msgc reads the unit as not translated and does not use it; the nearest state is 'translated' [XLF014]"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("TRN004"))
        // The stale field keeps shipping its previous translation, so only the misspelt one is unusable.
        #expect(lint.stdout.contains("1 of 6 de-DE fields has no usable translation in this file (1 not translated yet)"), "\(lint.stdout)")
    }

    /// A misspelt `type` in a message source is the writer's mistake: the message's units are
    /// no orphans, and the translator's report says they wait for the source to be fixed.
    @Test func aSourceErrorIsTheWritersNotTheTranslators() throws {
        let content = try tree()
        try edit(content.appendingPathComponent("messages/winback.yaml")) { text in
            let monthly = text.range(of: "product: com.example.reader.monthly\n    type: text")!
            return text.replacingCharacters(in: monthly, with: "product: com.example.reader.monthly\n    type: txt")
        }
        let file = content.appendingPathComponent("translations/de-DE.xliff").path
        let lint = try MsgcRunner.run(["lint", "--content", content.path, file])
        #expect(!lint.stdout.contains("TRN003"), "\(lint.stdout)")
        #expect(lint.stdout.contains("note: 1 message source has errors ('messages/winback.yaml'): 2 units of this file wait for it to be fixed and are not checked until then; they are not orphans, keep them [TRN007]"), "\(lint.stdout)")
        let whole = try MsgcRunner.run(["lint", "--content", content.path])
        #expect(whole.status == 1)
        #expect(!whole.stdout.contains("TRN003"))

        // A source that is not even YAML names no message: no unit of any file is an orphan.
        try edit(content.appendingPathComponent("messages/winback.yaml")) { $0 + "  - key: [unclosed\n" }
        let broken = try MsgcRunner.run(["lint", "--content", content.path, file])
        #expect(!broken.stdout.contains("TRN003"), "\(broken.stdout)")
        #expect(broken.stdout.contains("6 units of this file wait for it to be fixed"), "\(broken.stdout)")
    }

    /// In the editor, a source buffer broken while typing leaves the open translations' units
    /// waiting, not orphaned, and they come back when the buffer is whole again.
    @Test func aBrokenBufferInTheEditorOrphansNoUnit() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("everyday/content"), to: folder.appendingPathComponent("content"))
        let tree = folder.appendingPathComponent("content")
        let client = try LanguageServerSessionTests.Client(in: folder)
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": folder.absoluteString, "capabilities": [:] as [String: Any]])
        try client.notify("initialized", [:])
        let xliffURI = tree.appendingPathComponent("translations/de-DE.xliff").absoluteString
        // The translator's file, with one unit of a message that was really removed.
        let retired = """
                  <trans-unit id="com.example.reader.yearly/retired/header">
                    <source>Gone</source>
                    <target state="translated">Weg</target>
                  </trans-unit>
                </body>
            """
        let xliff = try String(contentsOf: tree.appendingPathComponent("translations/de-DE.xliff"), encoding: .utf8)
            .replacingOccurrences(of: "    </body>", with: retired)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": xliffURI, "languageId": "xml", "version": 1, "text": xliff]])
        #expect(LanguageServerSessionTests.codes(try client.diagnostics(for: xliffURI)) == ["TRN001", "LEN001", "TRN003"])

        let sourceURI = tree.appendingPathComponent("messages/winback.yaml").absoluteString
        let source = try String(contentsOf: tree.appendingPathComponent("messages/winback.yaml"), encoding: .utf8)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": sourceURI, "languageId": "yaml", "version": 1, "text": source]])
        _ = try client.diagnostics(for: sourceURI)
        try client.notify("textDocument/didChange", [
            "textDocument": ["uri": sourceURI, "version": 2], "contentChanges": [["text": source + "  - key: [unclosed\n"]],
        ])
        #expect(!(try client.diagnostics(for: sourceURI)).isEmpty)
        // The messages the buffer held before it broke wait for it, and the translator's file
        // says so (TRN007, as `msgc lint FILE` does); the removed one's unit is still the one orphan.
        let whileBroken = try client.diagnostics(for: xliffURI)
        #expect(LanguageServerSessionTests.codes(whileBroken) == ["TRN003", "TRN007"], "\(whileBroken)")

        try client.notify("textDocument/didChange", ["textDocument": ["uri": sourceURI, "version": 3], "contentChanges": [["text": source]]])
        #expect(try client.diagnostics(for: sourceURI).isEmpty)
        #expect(LanguageServerSessionTests.codes(try client.diagnostics(for: xliffURI)) == ["TRN001", "LEN001", "TRN003"])
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        try client.notify("exit", [:])
        client.process.waitUntilExit()
    }
}
