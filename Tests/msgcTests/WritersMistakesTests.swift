import Foundation
import TestSupport
import Testing

/// Issue 44's reports on files shaped like the real ones: the writer's mistakes named as the
/// writer's (a product typo, a renamed key), a file with nothing usable that says so, XLF014's
/// fixes that never promote unfinished work, XLF011's hint for `DOMAIN.LOCALE.xlf` names and
/// `coverage --locale`.
@Suite(.ownThreads) struct WritersMistakesTests {
    /// A copy of the everyday tree of the fixtures, or of `from`.
    func tree(from: URL = TranslatorReportTests.fixtures.appendingPathComponent("everyday/content")) throws -> URL {
        let folder = try MsgcRunner.temporaryFolder()
        let content = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: from, to: content)
        return content
    }

    /// A copy of the repository's example tree.
    func exampleTree() throws -> URL { try tree(from: MsgcRunner.packageRoot.appendingPathComponent("content")) }

    func edit(_ url: URL, _ change: (String) -> String) throws {
        try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    /// `product: com.example.reader.montly`: the writer's report says unknown product with a
    /// did-you-mean; the translator's report tells no one to delete the monthly units, which
    /// wait for the writer's fix.
    @Test func aProductTypoIsTheWritersAndDeletesNoTranslation() throws {
        let content = try tree()
        try edit(content.appendingPathComponent("messages/winback.yaml")) {
            $0.replacingOccurrences(of: "product: com.example.reader.monthly", with: "product: com.example.reader.montly")
        }
        let whole = try MsgcRunner.run(["lint", "--content", content.path])
        #expect(whole.stdout.contains("product 'com.example.reader.montly' is not listed in msgc.yaml [PRJ002]"), "\(whole.stdout)")
        #expect(whole.stdout.contains("did you mean 'com.example.reader.monthly'?"))
        #expect(!whole.stdout.contains("TRN003"), "\(whole.stdout)")
        for locale in ["de-DE", "fr-FR", "ja"] {
            let file = content.appendingPathComponent("translations/\(locale).xliff").path
            let lint = try MsgcRunner.run(["lint", "--content", content.path, file])
            #expect(!lint.stdout.contains("can be deleted") && !lint.stdout.contains("TRN003"), "\(lint.stdout)")
            #expect(lint.stdout.contains("('messages/winback.yaml')") && lint.stdout.contains("they are not orphans, keep them; unknown product 'com.example.reader.montly' in the source (did you mean 'com.example.reader.monthly'?) [TRN007]"), "\(lint.stdout)")
        }
    }

    /// The monthly default renamed `winback` → `come-back`, its text unchanged: each unit says
    /// "renamed?" with the new id as a one-click fix, and the lost defaults are a named warning
    /// in lint and build.
    @Test func aRenamedKeySaysRenamedAndTheLostDefaultIsNamed() throws {
        let content = try tree()
        try edit(content.appendingPathComponent("messages/winback.yaml")) {
            $0.replacingOccurrences(of: "  - key: winback\n    product: com.example.reader.monthly", with: "  - key: come-back\n    product: com.example.reader.monthly")
        }
        let file = content.appendingPathComponent("translations/de-DE.xliff").path
        let lint = try MsgcRunner.run(["lint", "--content", content.path, file, "--format", "json"])
        #expect(lint.stdout.contains("unit 'com.example.reader.monthly/winback/header' matches no message field of the project; renamed? message 'come-back' of the same product has the same source text and no unit in this file"), "\(lint.stdout)")
        #expect(lint.stdout.contains("\"replacement\": \"com.example.reader.monthly/come-back/header\""), "\(lint.stdout)")
        #expect(!lint.stdout.contains("can be deleted"), "\(lint.stdout)")

        let whole = try MsgcRunner.run(["lint", "--content", content.path])
        let lost = try #require(whole.stdout.split(separator: "\n").first { $0.contains("[TRN009]") }, "\(whole.stdout)")
        #expect(lost.contains("warning: default message 'come-back' of 'com.example.reader.monthly' has no translation in"), "\(lost)")
        #expect(lost.contains("de-DE") && lost.contains("under the old key 'winback'"), "\(lost)")
        let build = try MsgcRunner.run(["build", "--content", content.path, "--environment", "sandbox", "--out", content.deletingLastPathComponent().appendingPathComponent("out").path])
        #expect(build.stderr.contains("[TRN009]"), "\(build.stderr)")
    }

    /// A file whose targets are all empty without a state (memoQ's untouched export): nothing
    /// in it is usable, so the report ends with a warning that says so, not "no problems
    /// found", and `--strict` fails.
    @Test func aFileWithNothingUsableEndsBySayingSo() throws {
        let content = try tree()
        let german = content.appendingPathComponent("translations/de-DE.xliff")
        try edit(german) { text in
            text.replacingOccurrences(of: #"<target state="translated">[^<]*</target>"#, with: "<target></target>", options: .regularExpression)
        }
        let lint = try MsgcRunner.run(["lint", "--content", content.path, german.path])
        let lines = lint.stdout.split(separator: "\n")
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(lint.stdout.contains("warning: this file gives no usable translation: all 6 de-DE fields have none in it (6 with no target text); `msgc coverage --locale de-DE` shows which messages wait for them [TRN006]"), "\(lint.stdout)")
        #expect(lines.last != "no problems found" && lines.last?.contains("1 warning") == true, "\(lint.stdout)")
        // The warning closes the report: only the summary follows it and its snippet.
        #expect(lines.dropLast().last { $0.contains(": warning:") || $0.contains(": error:") || $0.contains(": note:") }?.contains("[TRN006]") == true)
        #expect(try MsgcRunner.run(["lint", "--content", content.path, german.path, "--strict"]).status == 1)
    }

    /// A note about the file as a whole is drawn without a snippet of `</xliff>`.
    @Test func theUntranslatedFieldsNoteHasNoSnippet() throws {
        let content = try tree()
        let german = content.appendingPathComponent("translations/de-DE.xliff")
        // One target emptied: one field of six has no usable translation.
        try edit(german) { text in
            text.replacingOccurrences(of: #"<target state="translated">[^<]*</target>"#, with: "<target></target>", options: .regularExpression)
        }
        let lint = try MsgcRunner.run(["lint", "--content", content.path, german.path])
        let lines = lint.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let note = try #require(lines.firstIndex { $0.contains("[TRN006]") }, "\(lint.stdout)")
        #expect(!lines[note + 1].contains("</xliff>") && !lint.stdout.contains("| </xliff>"), "\(lint.stdout)")
    }

    /// States from other vocabularies in a 1.2 file: nothing becomes 'final' or 'new' by
    /// distance; a typo is an edit; a known word gets its meaning beside 'new'; an unknown
    /// word gets no state.
    @Test func foreignStatesAreMappedByMeaningNeverPromoted() throws {
        // The German file has six translated targets: the states go in, six and then two.
        var fixesOf: [String: [String]] = [:]
        for batch in [["fuzzy", "initial", "définition", "reviewed", "approved", "done"], ["needs_review", "translatd"]] {
            let content = try tree()
            let german = content.appendingPathComponent("translations/de-DE.xliff")
            var index = 0
            try edit(german) { text in
                var text = text
                while index < batch.count, let range = text.range(of: "<target state=\"translated\">") {
                    text.replaceSubrange(range, with: "<target state=\"\(batch[index])\">")
                    index += 1
                }
                return text
            }
            #expect(index == batch.count)
            let lint = try MsgcRunner.run(["lint", "--content", content.path, german.path, "--format", "json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
            let diagnostics = (json["diagnostics"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "XLF014" }
            #expect(diagnostics.count == batch.count, "\(lint.stdout)")
            for state in batch {
                let found = diagnostics.first { ($0["message"] as? String)?.hasPrefix("state '\(state)'") == true }
                fixesOf[state] = ((found?["fixIts"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
            }
        }
        func fixes(_ state: String) -> [String] { fixesOf[state] ?? [] }
        #expect(fixes("fuzzy") == ["write 'needs-review-translation' if the text is translated but not yet reviewed; msgc ships a unit in that state", "write 'new' if it is not translated yet"], "\(fixes("fuzzy"))")
        #expect(fixes("initial") == ["write 'new'"])
        #expect(fixes("définition").count == 1 && fixes("définition")[0].hasPrefix("write the XLIFF 1.2 state the text is in"))
        #expect(fixes("reviewed").first == "write 'signed-off' if the text is translated and reviewed")
        #expect(fixes("approved").first == "write 'signed-off' if the text is translated and reviewed")
        #expect(fixes("done").first == "write 'translated' if the text is translated")
        #expect(fixes("needs_review").first?.hasPrefix("write 'needs-review-translation'") == true)
        #expect(fixes("translatd") == ["write 'translated'"])
        for (state, list) in fixesOf { #expect(!list.contains { $0.hasPrefix("write 'final'") }, "\(state)") }
    }

    /// Symfony's and Sonata's `DOMAIN.LOCALE.xlf` names: XLF011 names the locale.
    @Test func theLocaleHintReadsDomainLocaleNames() throws {
        let content = try tree()
        for (name, locale) in [("messages.de.xlf", "de-DE"), ("SonataAdminBundle.fr.xliff", "fr-FR"), ("validators.sr_Cyrl.xliff", "sr-Cyrl")] {
            let path = content.appendingPathComponent("translations/\(name)")
            let text = try String(contentsOf: content.appendingPathComponent("translations/de-DE.xliff"), encoding: .utf8)
                .replacingOccurrences(of: " target-language=\"de-DE\"", with: "")
            try Data(text.utf8).write(to: path)
            let lint = try MsgcRunner.run(["lint", "--content", content.path, path.path])
            #expect(lint.stdout.contains("its name suggests '\(locale)' [XLF011]"), "\(name): \(lint.stdout)")
            try FileManager.default.removeItem(at: path)
        }
    }

    /// `coverage --locale` (repeatable) shows only those locales; an unknown one exits 2.
    @Test func coverageTakesLocales() throws {
        let content = try tree()
        let json = try MsgcRunner.run(["coverage", "--content", content.path, "--format", "json", "--locale", "de-DE", "--locale", "ja"])
        #expect(json.status == 0 || json.status == 1, "\(json.stderr)")
        #expect(json.stdout.contains("\"de-DE\"") && json.stdout.contains("\"ja\"") && !json.stdout.contains("\"fr-FR\""), "\(json.stdout)")
        let unknown = try MsgcRunner.run(["coverage", "--content", content.path, "--locale", "de-AT"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--locale 'de-AT' is not a locale of the project"), "\(unknown.stderr)")
    }

    /// `images/Streak_Hero.png` for the example's `images/streak-hero.png`: a did-you-mean
    /// with the file's own name as a one-click edit.
    @Test func anImagePathInAnotherCaseGetsADidYouMean() throws {
        let content = try exampleTree()
        try edit(content.appendingPathComponent("messages/plus/yearly.yaml")) {
            $0.replacingOccurrences(of: "images/streak-hero.png", with: "images/Streak_Hero.png")
        }
        let lint = try MsgcRunner.run(["lint", "--content", content.path, "--format", "json"])
        #expect(lint.stdout.contains("image 'images/Streak_Hero.png' does not exist in the content tree"), "\(lint.stdout)")
        #expect(lint.stdout.contains("did you mean 'images/streak-hero.png'?") && lint.stdout.contains("\"replacement\": \"images/streak-hero.png\""), "\(lint.stdout)")
    }

    /// One bullet indented one space less than the others: one error in a writer's words, at
    /// the line, and none of the findings that only hold because the file was not read (the
    /// image it uses "unused", its product's default missing, `realtime:` naming its keys).
    @Test func oneBadIndentBringsNoCascade() throws {
        let content = try exampleTree()
        try edit(content.appendingPathComponent("messages/plus/yearly.yaml")) {
            $0.replacingOccurrences(of: "      - text: Download lessons and learn offline", with: "     - text: Download lessons and learn offline")
        }
        let lint = try MsgcRunner.run(["lint", "--content", content.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("messages/plus/yearly.yaml:27:"), "\(lint.stdout)")
        #expect(lint.stdout.contains("[PRS001]") && !lint.stdout.contains("error: malformed YAML: did not find expected"), "\(lint.stdout)")
        #expect(lint.stdout.contains("note: the YAML parser says:"), "\(lint.stdout)")
        for code in ["IMG011", "PRJ003", "PRJ012"] { #expect(!lint.stdout.contains("[\(code)]"), "\(code): \(lint.stdout)") }
    }

    /// A quote opened on line 7 and never closed is reported on line 7, not where libyaml
    /// gives up at the end of the file.
    @Test func anUnclosedQuoteIsReportedWhereItOpens() throws {
        let content = try exampleTree()
        try edit(content.appendingPathComponent("messages/plus/yearly.yaml")) {
            $0.replacingOccurrences(of: "    header: Your streak is waiting for you\n", with: "    header: \"Your streak is waiting for you\n")
        }
        let lint = try MsgcRunner.run(["lint", "--content", content.path])
        #expect(lint.stdout.contains("messages/plus/yearly.yaml:7:13: error: malformed YAML: a quoted value is never closed: its closing quote is missing [PRS001]"), "\(lint.stdout)")
    }
}

extension WritersMistakesTests {
    /// The same two mistakes of the writer as the editor shows them (`msgc lsp`): the translator
    /// who opens their file is told "unknown product" and "renamed?", never to delete the units.
    @Test func theEditorNamesTheWritersMistakeToo() throws {
        let content = try tree()
        let folder = content.deletingLastPathComponent()
        try edit(content.appendingPathComponent("messages/winback.yaml")) {
            $0.replacingOccurrences(of: "product: com.example.reader.monthly", with: "product: com.example.reader.montly")
        }
        let client = try LanguageServerSessionTests.Client(in: folder)
        _ = try client.request("initialize", ["processId": NSNull(), "rootUri": folder.absoluteString, "capabilities": [:] as [String: Any]])
        try client.notify("initialized", [:])
        let file = content.appendingPathComponent("translations/de-DE.xliff")
        let uri = file.absoluteString
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "xml", "version": 1, "text": try String(contentsOf: file, encoding: .utf8)]])
        let typo = try client.diagnostics(for: uri)
        let typoMessages = typo.compactMap { $0["message"] as? String }
        #expect(!LanguageServerSessionTests.codes(typo).contains("TRN003"), "\(typoMessages)")
        #expect(!typoMessages.contains { $0.contains("can be deleted") }, "\(typoMessages)")
        #expect(typoMessages.contains { $0.contains("unknown product 'com.example.reader.montly'") }, "\(typoMessages)")

        // The writer, in the same editor, fixes the product and renames the key instead.
        let sourceFile = content.appendingPathComponent("messages/winback.yaml")
        let sourceURI = sourceFile.absoluteString
        let typoSource = try String(contentsOf: sourceFile, encoding: .utf8)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": sourceURI, "languageId": "yaml", "version": 1, "text": typoSource]])
        let renamedSource = typoSource.replacingOccurrences(of: "product: com.example.reader.montly", with: "product: com.example.reader.monthly")
            .replacingOccurrences(of: "  - key: winback\n    product: com.example.reader.monthly", with: "  - key: come-back\n    product: com.example.reader.monthly")
        #expect(renamedSource.contains("key: come-back"))
        try client.notify("textDocument/didChange", ["textDocument": ["uri": sourceURI, "version": 2], "contentChanges": [["text": renamedSource]]])
        // The translator's open file gets its findings again as soon as they change.
        var renamed = try client.diagnostics(for: uri)
        for _ in 0..<3 where !renamed.contains(where: { ($0["message"] as? String)?.contains("renamed?") == true }) {
            renamed = try client.diagnostics(for: uri)
        }
        let renamedMessages = renamed.compactMap { $0["message"] as? String }
        #expect(renamedMessages.contains { $0.contains("renamed? message 'come-back' of the same product has the same source text") }, "\(renamedMessages)")
        #expect(!renamedMessages.contains { $0.contains("can be deleted") }, "\(renamedMessages)")
        #expect(try client.request("shutdown", NSNull())["result"] is NSNull)
        try client.notify("exit", [:])
        client.process.waitUntilExit()
    }
}
