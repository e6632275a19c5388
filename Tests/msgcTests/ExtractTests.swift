import Foundation
import Testing
import TestSupport

@Suite(.ownThreads) struct ExtractTests {
    let example = MsgcRunner.packageRoot.appendingPathComponent("content")

    /// A copy of the example tree to change freely.
    func exampleCopy() throws -> URL {
        let copy = try MsgcRunner.temporaryFolder().appendingPathComponent("content")
        try FileManager.default.copyItem(at: example, to: copy)
        return copy
    }

    @Test(arguments: ["1.2", "2.0"])
    func roundTripGivesTheSameBundle(version: String) throws {
        let copy = try exampleCopy()
        let scratch = copy.deletingLastPathComponent()
        let reference = scratch.appendingPathComponent("reference")
        #expect(try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", reference.path]).status == 0)
        // Replace every translation file with what extract writes from it.
        let translations = copy.appendingPathComponent("translations")
        for name in try FileManager.default.contentsOfDirectory(atPath: translations.path).sorted() {
            let locale = String(name.dropLast(".xliff".count))
            let out = scratch.appendingPathComponent("\(locale).xliff")
            let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", locale, "--xliff", version, "--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            try FileManager.default.removeItem(at: translations.appendingPathComponent(name))
            try FileManager.default.moveItem(at: out, to: translations.appendingPathComponent(name))
        }
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 0, "\(lint.stdout)")
        let rebuilt = scratch.appendingPathComponent("rebuilt")
        #expect(try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", rebuilt.path]).status == 0)
        #expect(try MsgcRunner.files(in: rebuilt) == MsgcRunner.files(in: reference))
    }

    /// Extract and pseudo stop on what would stop a build, judged as build judges it: msgc.yaml's
    /// `rules:` settle the severities first, so a rule set to `warning` or `off` no longer stops them.
    @Test func extractAndPseudoFollowTheProjectsRules() throws {
        let copy = try exampleCopy()
        let source = copy.appendingPathComponent("messages/plus/monthly.yaml")
        let text = try String(contentsOf: source, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "header: Thanks for learning with us", with: #"header: "Thanks for\u2028learning with us""#).utf8)
            .write(to: source)
        let out = copy.deletingLastPathComponent().appendingPathComponent("de-DE.xliff").path
        let pseudoOut = copy.deletingLastPathComponent().appendingPathComponent("en-XA.xliff").path
        let extract = ["extract", "--content", copy.path, "--locale", "de-DE", "--out", out]
        let pseudo = ["pseudo", "--content", copy.path, "--locale", "en-XA", "--out", pseudoOut]

        let stopped = try MsgcRunner.run(extract)
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("[TXT004]"), "\(stopped.stderr)")
        #expect(stopped.stderr.hasSuffix("msgc: fix the message sources first; nothing was extracted\n"), "\(stopped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let stoppedPseudo = try MsgcRunner.run(pseudo)
        #expect(stoppedPseudo.status == 1, "\(stoppedPseudo.stderr)")
        #expect(stoppedPseudo.stderr.hasSuffix("msgc: fix the message sources first; nothing was written\n"), "\(stoppedPseudo.stderr)")

        let config = copy.appendingPathComponent("msgc.yaml")
        let settings = try String(contentsOf: config, encoding: .utf8)
        for level in ["warning", "off"] {
            try Data((settings + "rules:\n  line-separator: \(level)\n").utf8).write(to: config)
            let result = try MsgcRunner.run(extract)
            #expect(result.status == 0, "\(level): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: out))
            try FileManager.default.removeItem(atPath: out)
            let pseudoResult = try MsgcRunner.run(pseudo)
            #expect(pseudoResult.status == 0, "\(level): \(pseudoResult.stderr)")
        }
    }

    /// A tree msgc cannot read (no msgc.yaml) stops extract and pseudo as an I/O failure, 2, as
    /// it stops lint and build: it is no finding about the sources.
    @Test func aTreeWithoutMsgcYAMLIsAnIOFailure() throws {
        let copy = try exampleCopy()
        try FileManager.default.removeItem(at: copy.appendingPathComponent("msgc.yaml"))
        let out = copy.deletingLastPathComponent().appendingPathComponent("out.xliff").path
        for arguments in [["extract", "--locale", "de-DE"], ["pseudo", "--locale", "en-XA"]] {
            let result = try MsgcRunner.run(arguments + ["--content", copy.path, "--out", out])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("[CFG001]"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func outIntoAFolderThatDoesNotExistSaysSo() throws {
        let copy = try exampleCopy()
        let missing = copy.deletingLastPathComponent().appendingPathComponent("missing")
        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", missing.appendingPathComponent("de-DE.xliff").path])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        let folder = missing.standardizedFileURL.path
        #expect(result.stderr == "msgc: cannot write '\(folder)/de-DE.xliff': there is no folder '\(folder)'\n")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func changedSourceMakesTranslationsStaleAndShipsThePreviousOne() throws {
        let copy = try exampleCopy()
        let source = copy.appendingPathComponent("messages/plus/monthly.yaml")
        let text = try String(contentsOf: source, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "header: Thanks for learning with us", with: "header: Thank you for learning with us").utf8)
            .write(to: source)
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 0)
        #expect(lint.stdout.contains("warning: header translation in de-DE is stale: it translates 'Thanks for learning with us', but the source is now 'Thank you for learning with us'; de-DE keeps showing its previous translation of 'thanks' until the translation is updated [TRN001]"), "\(lint.stdout)")
        let strict = try MsgcRunner.run(["lint", "--content", copy.path, "--strict"])
        #expect(strict.status == 1)
        let build = try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", copy.deletingLastPathComponent().appendingPathComponent("b").path])
        #expect(build.status == 0)
        #expect(build.stdout.contains("in 8 locales"))
        let manifest = try String(contentsOf: copy.deletingLastPathComponent().appendingPathComponent("b/manifest.json"), encoding: .utf8)
        // The previous translation keeps shipping, default and all, until the translator updates it.
        #expect(manifest.contains("\"path\": \"/inApps/v1/messaging/default/com.example.parla.plus.monthly/de-DE\""))
        #expect(!manifest.contains("notShipped"))
        // Re-extracting keeps the old translation for the translator, marked as needing work.
        let extract = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE"])
        #expect(extract.stdout.contains("<source>Thank you for learning with us</source>"))
        #expect(extract.stdout.contains("<target state=\"needs-translation\">"))
        // Writing the locale's file again says so.
        let german = copy.appendingPathComponent("translations/de-DE.xliff").path
        let again = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", german])
        #expect(again.stderr.contains("32 translations (1 stale, written back as needing translation)"), "\(again.stderr)")
        // From then on the locale waits for its translator, and the manifest says so.
        let rebuilt = try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", copy.deletingLastPathComponent().appendingPathComponent("c").path])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let waiting = try String(contentsOf: copy.deletingLastPathComponent().appendingPathComponent("c/manifest.json"), encoding: .utf8)
        #expect(!waiting.contains("\"path\": \"/inApps/v1/messaging/default/com.example.parla.plus.monthly/de-DE\""))
        #expect(waiting.contains("\"notShipped\""))
        #expect(rebuilt.stdout.contains("not shipped while 1 message waits for translation (1 untranslated)"), "\(rebuilt.stdout)")
    }

    /// A locale's file that cannot be used for it (unreadable, or its target language spelled
    /// otherwise) stops extract: writing without its translations, often over it, would lose them.
    @Test(arguments: [
        ("de-DE.xliff", "<target state=\"final\">", "<target state=\"final\">Bad & ", "but it cannot be read"),
        ("de_DE.xliff", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><!DOCTYPE x>",
         "but it cannot be read"),
    ])
    func keepsTranslationsItCannotRead(name: String, original: String, replacement: String, reason: String) throws {
        let copy = try exampleCopy()
        let translations = copy.appendingPathComponent("translations")
        let file = translations.appendingPathComponent("de-DE.xliff")
        let text = try String(contentsOf: file, encoding: .utf8)
        let range = try #require(text.range(of: original))
        try FileManager.default.removeItem(at: file)
        let broken = Data(text.replacingCharacters(in: range, with: replacement).utf8)
        try broken.write(to: translations.appendingPathComponent(name))

        let extract = try MsgcRunner.run(
            ["extract", "--content", copy.path, "--locale", "de-DE", "--out", translations.appendingPathComponent(name).path])
        #expect(extract.status == 1)
        #expect(extract.stderr.contains("msgc: 'translations/\(name)' may hold de-DE translations, \(reason)"), "\(extract.stderr)")
        #expect(extract.stderr.contains("Nothing was extracted, so no translation is lost"))
        if reason.hasSuffix("cannot be read") {
            // What reading the file found, with its place.
            #expect(extract.stderr.contains("translations/\(name):"))
            #expect(extract.stderr.contains("error: XML is not well-formed") || extract.stderr.contains("error: DOCTYPE declarations"))
        }
        #expect(try Data(contentsOf: translations.appendingPathComponent(name)) == broken)
        // Other locales are extracted as before.
        #expect(try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "fr-FR"]).status == 0)
    }

    /// A target language with gettext's `_` (`de_DE`, as po2xliff writes it) is the project's
    /// locale: lint warns, and extract carries every translation over rather than refuse.
    @Test func targetLanguageWithUnderscoreIsTheLocale() throws {
        let copy = try exampleCopy()
        let file = copy.appendingPathComponent("translations/de-DE.xliff")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "target-language=\"de-DE\"", with: "target-language=\"de_DE\"").utf8).write(to: file)
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.stdout.contains("[LOC009]"))
        #expect(!lint.stdout.contains("LOC001"))
        let original = try MsgcRunner.run(["extract", "--content", example.path, "--locale", "de-DE"])
        let extract = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", file.path])
        #expect(extract.status == 0, "\(extract.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == original.stdout)
    }

    /// A target language in another case (`de-de`, as Microsoft's tools write it) is the
    /// project's locale: lint warns, and extract carries every translation over.
    @Test func targetLanguageInAnotherCaseIsTheLocale() throws {
        let copy = try exampleCopy()
        let file = copy.appendingPathComponent("translations/de-DE.xliff")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "target-language=\"de-DE\"", with: "target-language=\"de-de\"").utf8).write(to: file)

        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 0)
        #expect(lint.stdout.contains(
            "warning: target language 'de-de' is the project's locale 'de-DE' written in another case; the file is used for de-DE [LOC008]"))
        #expect(!lint.stdout.contains("LOC003"))
        let original = try MsgcRunner.run(["extract", "--content", example.path, "--locale", "de-DE"])
        let extract = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-de"])
        #expect(extract.status == 0)
        #expect(extract.stderr.contains("warning: --locale 'de-de' is the project's locale 'de-DE' in another case; using de-DE"))
        #expect(extract.stdout == original.stdout)
    }

    /// Nothing extract or pseudo writes replaces a file holding translations it did not read
    /// and carry over; the file msgc uses for the locale may always be written again.
    @Test func neverWritesOverTranslationsItWouldNotCarryOver() throws {
        let copy = try exampleCopy()
        let translations = copy.appendingPathComponent("translations")
        func bytes(_ name: String) throws -> Data { try Data(contentsOf: translations.appendingPathComponent(name)) }
        let french = try bytes("fr-FR.xliff")

        let other = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", translations.appendingPathComponent("fr-FR.xliff").path])
        #expect(other.status == 2)
        #expect(other.stderr.hasSuffix("/translations/fr-FR.xliff' holds 32 translations (fr-FR) that the new file would not carry over; nothing was written. Choose another --out, or move the file away first\n"), "\(other.stderr)")
        #expect(try bytes("fr-FR.xliff") == french)

        // The locale's second file, which msgc does not use, with a translator's edit in it.
        let edited = String(decoding: french, as: UTF8.self).replacingOccurrences(of: "Gardez Parla Plus", with: "Conservez Parla Plus")
        try Data(edited.utf8).write(to: translations.appendingPathComponent("z-fr-FR-returned.xliff"))
        let second = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "fr-FR", "--out", translations.appendingPathComponent("z-fr-FR-returned.xliff").path])
        #expect(second.status == 2)
        #expect(second.stderr.contains("holds 1 translation (fr-FR) that the new file would not carry over"), "\(second.stderr)")

        // A file msgc cannot read may hold anything.
        let unreadable = copy.deletingLastPathComponent().appendingPathComponent("export.xliff")
        try Data("<xliff".utf8).write(to: unreadable)
        let garbage = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "fr-FR", "--out", unreadable.path])
        #expect(garbage.status == 2)
        #expect(garbage.stderr.contains("exists but cannot be read as XLIFF"), "\(garbage.stderr)")
        #expect(try Data(contentsOf: unreadable) == Data("<xliff".utf8))

        // A pseudo-translation never replaces a real locale's file, and replaces its own.
        let pseudo = try MsgcRunner.run(["pseudo", "--content", copy.path, "--locale", "en-XA", "--out", translations.appendingPathComponent("ja.xliff").path])
        #expect(pseudo.status == 2)
        #expect(pseudo.stderr.contains("(ja) that the new file would not carry over"), "\(pseudo.stderr)")
        #expect(try MsgcRunner.run(["pseudo", "--content", copy.path, "--locale", "en-XA"]).status == 0)
        #expect(try MsgcRunner.run(["pseudo", "--content", copy.path, "--locale", "en-XA", "--expansion", "0.5"]).status == 0)

        // The locale's own file is read and carried over: writing it again is safe.
        let own = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "fr-FR", "--out", translations.appendingPathComponent("fr-FR.xliff").path])
        #expect(own.status == 0, "\(own.stderr)")
    }

    /// A translator's own notes survive re-extraction, in both XLIFF versions and across them.
    @Test func reExtractingKeepsTranslatorsNotes() throws {
        let copy = try exampleCopy()
        let german = copy.appendingPathComponent("translations/de-DE.xliff")
        var text = try String(contentsOf: german, encoding: .utf8)
        let unit = try #require(text.range(of: "id=\"com.example.parla.plus.yearly/winback/header\""))
        let end = try #require(text.range(of: "</trans-unit>", range: unit.upperBound..<text.endIndex))
        text.insert(contentsOf: "  <note from=\"translator\">Lernserie &amp; Co. ist Markenname</note>\n        <note>Reviewed by Jonas</note>\n      ",
                    at: end.lowerBound)
        try Data(text.utf8).write(to: german)
        let v12 = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE"])
        #expect(v12.stdout.contains("        <note from=\"translator\">Lernserie &amp; Co. ist Markenname</note>\n        <note>Reviewed by Jonas</note>\n      </trans-unit>"))
        let v20 = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", "2.0", "--out", german.path])
        #expect(v20.status == 0, "\(v20.stderr)")
        let again = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", "2.0"])
        #expect(again.stdout.contains("        <note category=\"translator\">Lernserie &amp; Co. ist Markenname</note>\n        <note>Reviewed by Jonas</note>\n      </notes>"))
        // msgc's own notes are written once, not piled up.
        #expect(again.stdout.components(separatedBy: "<note category=\"msgc\">").count == again.stdout.components(separatedBy: "<unit ").count)
        #expect(again.stdout.components(separatedBy: "Lernserie &amp; Co.").count == 2)
    }

    @Test func refusesTheSourceLocaleAndUnknownLocales() throws {
        let source = try MsgcRunner.run(["extract", "--content", example.path, "--locale", "en-US"])
        #expect(source.status == 2)
        #expect(source.stderr.contains("'en-US' is the source locale"))
        let unknown = try MsgcRunner.run(["extract", "--content", example.path, "--locale", "it"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'it' is not one of the project's locales"))
    }

    @Test func extractsOnlyProductsThatShipInTheLocale() throws {
        let japanese = try MsgcRunner.run(["extract", "--content", example.path, "--locale", "ja"])
        #expect(japanese.status == 0)
        #expect(!japanese.stdout.contains("com.example.parla.family.yearly"))
        #expect(japanese.stdout.contains("com.example.parla.plus.yearly/winback/header"))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["MSGC_TRANSLATE_TOOLKIT_BIN"] != nil,
                   "needs translate-toolkit; scripts/test.sh installs it"))
    func translateToolkitReadsOurXLIFF() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        let xliff = scratch.appendingPathComponent("de-DE.xliff")
        #expect(try MsgcRunner.run(["extract", "--content", example.path, "--locale", "de-DE", "--out", xliff.path]).status == 0)
        let po = scratch.appendingPathComponent("de-DE.po")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.environment["MSGC_TRANSLATE_TOOLKIT_BIN"]!)
            .appendingPathComponent("xliff2po")
        process.arguments = [xliff.path, po.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOf: po, encoding: .utf8)
        #expect(text.contains("msgid \"Thanks for learning with us\""))
        #expect(text.contains("msgstr \"Danke, dass du mit uns lernst\"") || text.contains("msgstr \""))
    }
}

extension ExtractTests {
    /// extract → translate-toolkit (xliff2po, edit the PO as a translator would, pomerge back)
    /// → msgc imports the merged file and ships the new translation.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MSGC_TRANSLATE_TOOLKIT_BIN"] != nil,
                   "needs translate-toolkit; scripts/test.sh installs it"))
    func roundTripThroughTranslateToolkit() throws {
        let copy = try exampleCopy()
        let scratch = copy.deletingLastPathComponent()
        let bin = URL(fileURLWithPath: ProcessInfo.processInfo.environment["MSGC_TRANSLATE_TOOLKIT_BIN"]!)
        func tool(_ name: String, _ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = bin.appendingPathComponent(name)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        let exported = scratch.appendingPathComponent("de-DE.xliff")
        #expect(try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", exported.path]).status == 0)
        let po = scratch.appendingPathComponent("de-DE.po")
        #expect(try tool("xliff2po", [exported.path, po.path]) == 0)
        let text = try String(contentsOf: po, encoding: .utf8)
        // xliff2po marks every unit without approved="yes" fuzzy; a translator confirms the
        // entries they checked, which clears the flag, and rewrites one.
        let edited = text.replacingOccurrences(of: "msgstr \"Danke, dass du mit uns lernst\"", with: "msgstr \"Danke fürs Lernen mit uns\"")
            .replacingOccurrences(of: "#, fuzzy\n", with: "")
        #expect(edited.contains("Danke fürs Lernen mit uns"))
        try Data(edited.utf8).write(to: po)
        let merged = copy.appendingPathComponent("translations/de-DE.xliff")
        #expect(try tool("pomerge", ["-t", exported.path, "-i", po.path, "-o", merged.path]) == 0)
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 0, "\(lint.stdout)")
        let out = scratch.appendingPathComponent("bundle")
        #expect(try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", out.path]).status == 0)
        let bodies = try MsgcRunner.files(in: out).filter { $0.key.hasPrefix("messages/") }.map { String(decoding: $0.value, as: UTF8.self) }
        #expect(bodies.contains { $0.contains("\"header\": \"Danke fürs Lernen mit uns\"") })
    }

    // MARK: - Work in the locale's file is never dropped silently

    static let family = "com.example.parla.family.yearly"

    /// The example tree with a translator's note, an `<alt-trans>` and `approved="yes"` in
    /// de-DE's file, written again as `version` by extract itself.
    func treeWithTranslatorWork(version: String) throws -> (copy: URL, file: URL) {
        let copy = try exampleCopy()
        let file = copy.appendingPathComponent("translations/de-DE.xliff")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "resname=\"\(Self.family)/stay-together/body\" ", with: "resname=\"\(Self.family)/stay-together/body\" approved=\"yes\" ")
        text = text.replacingOccurrences(of: "Field: header. Limit: 66 UTF-16 units.</note>\n      </trans-unit>", with: """
            Field: header. Limit: 66 UTF-16 units.</note>
                    <note from="anna">Du-Form, wie überall</note>
                    <alt-trans origin="tm" match-quality="85%"><source>Keep learning</source><target>Weiterlernen</target></alt-trans>
                  </trans-unit>
            """)
        #expect(text.contains("approved=\"yes\"") && text.contains("<alt-trans"))
        try Data(text.utf8).write(to: file)
        let convert = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", version, "--out", file.path])
        #expect(convert.status == 0, "\(convert.stderr)")
        return (copy, file)
    }

    @Test("re-extracting keeps approved, alt-trans and notes where the unit still exists", arguments: ["1.2", "2.0"])
    func carriesApprovalAndCandidates(version: String) throws {
        let (copy, file) = try treeWithTranslatorWork(version: version)
        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", version, "--out", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("carried over from '\(copy.path)/translations/de-DE.xliff': 32 translations"), "\(result.stderr)")
        // The note and the alt-trans went on every header unit of the file.
        #expect(result.stderr.contains("10 translator notes, 10 candidates (alt-trans/matches)"), "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("<note \(version == "1.2" ? "from" : "category")=\"anna\">Du-Form, wie überall</note>"))
        #expect(text.contains("<target>Weiterlernen</target>"))
        if version == "1.2" {
            #expect(text.contains("<alt-trans origin=\"tm\" match-quality=\"85%\">"))
            #expect(text.contains("resname=\"\(Self.family)/stay-together/body\" maxwidth=\"144\" size-unit=\"char\" approved=\"yes\""))
        } else {
            #expect(text.contains("<mtc:match ref=\"#s1\" origin=\"tm\" matchQuality=\"85\">"))
            #expect(text.contains("<segment state=\"reviewed\">"))
        }
        #expect(!FileManager.default.fileExists(atPath: file.path + ".orphans"))
    }

    @Test("a renamed key's units go to the .orphans file, named on stderr, and are offered to the new key", arguments: ["1.2", "2.0"])
    func renamedKeyKeepsItsWork(version: String) throws {
        let (copy, file) = try treeWithTranslatorWork(version: version)
        let source = copy.appendingPathComponent("messages/family.yaml")
        let yaml = try String(contentsOf: source, encoding: .utf8)
        try Data(yaml.replacingOccurrences(of: "key: stay-together\n", with: "key: stay-together-v2\n").utf8).write(to: source)

        // To standard output the file is untouched, and stderr says what the output lacks.
        let preview = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", version])
        #expect(preview.status == 0)
        #expect(preview.stderr.contains("warning: 7 units of '\(copy.path)/translations/de-DE.xliff' that no message has any more (renamed or removed) are not in this output"), "\(preview.stderr)")

        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", version, "--out", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: 7 units of '\(copy.path)/translations/de-DE.xliff' that no message has any more (renamed or removed) left the file; their work is kept in '\(file.path).orphans':"), "\(result.stderr)")
        #expect(result.stderr.contains("  \(Self.family)/stay-together/header: translation, 1 note, 1 candidate; offered as a candidate to \(Self.family)/stay-together-v2/header (the same source text)\n"), "\(result.stderr)")
        let approved = version == "1.2" ? "approved translation" : "translation"
        #expect(result.stderr.contains("  \(Self.family)/stay-together/body: \(approved); offered"), "\(result.stderr)")

        // Every orphan's translation, note, candidate and approval is in the .orphans file.
        let orphans = try String(contentsOf: URL(fileURLWithPath: file.path + ".orphans"), encoding: .utf8)
        #expect(orphans.contains("Gemeinsam weiterlernen") && orphans.contains("Du-Form, wie überall") && orphans.contains("Weiterlernen"))
        #expect(orphans.components(separatedBy: "\(Self.family)/stay-together/").count - 1 == (version == "1.2" ? 14 : 7))
        if version == "1.2" { #expect(orphans.contains("approved=\"yes\"")) }
        // The new key's units offer the old translation, and the tree lints without reading the orphans.
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("msgc: the translation of \(Self.family)/stay-together/header"))
        #expect(!text.contains("\"\(Self.family)/stay-together/"))
        let lint = try MsgcRunner.run(["lint", "--content", copy.path, "--format", "json"])
        #expect(!lint.stdout.contains(".orphans"))

        // A second rename adds to the orphans file; nothing is lost on the way.
        try Data(yaml.replacingOccurrences(of: "key: stay-together\n", with: "key: stay-together-v3\n").utf8).write(to: source)
        let again = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", version, "--out", file.path])
        #expect(again.status == 0, "\(again.stderr)")
        let merged = try String(contentsOf: URL(fileURLWithPath: file.path + ".orphans"), encoding: .utf8)
        #expect(merged.contains("Du-Form, wie überall"))
        #expect(merged.contains("\(Self.family)/stay-together/header\""))
        // The v2 units held nothing but msgc's offer, which the v1 orphan still backs.
        #expect(!merged.contains("\(Self.family)/stay-together-v2/header\""))
        #expect(!again.stderr.contains("warning"), "\(again.stderr)")
        // The v3 unit is offered the v1 orphan's translation (the v2 unit had none).
        #expect(try String(contentsOf: file, encoding: .utf8).contains("msgc: the translation of \(Self.family)/stay-together/header"))
        // Extracting again offers it once, not once more each run.
        let third = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--xliff", version, "--out", file.path])
        #expect(third.status == 0, "\(third.stderr)")
        let offers = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "msgc: the translation of \(Self.family)/stay-together/header\"")
        #expect(offers.count - 1 == 1)
    }

    @Test func orphansFileThatCannotBeAddedToStopsExtract() throws {
        let (copy, file) = try treeWithTranslatorWork(version: "1.2")
        let before = try Data(contentsOf: file)
        let source = copy.appendingPathComponent("messages/family.yaml")
        let yaml = try String(contentsOf: source, encoding: .utf8)
        try Data(yaml.replacingOccurrences(of: "key: stay-together\n", with: "key: renamed\n").utf8).write(to: source)
        try Data("not xliff".utf8).write(to: URL(fileURLWithPath: file.path + ".orphans"))
        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("de-DE.xliff.orphans' exists but it cannot be read as XLIFF"), "\(result.stderr)")
        #expect(try Data(contentsOf: file) == before)
    }

    /// Inside the content tree extract and pseudo write only the locale's XLIFF file under
    /// translations/: anything else would be read back as a source, or as a second file for the
    /// locale, which lint refuses. A link to a folder of the tree is the tree.
    @Test("--out into the content tree", arguments: [
        ("extract", "translations/new.xliff", "would be a second file for the locale in the content tree, beside"),
        ("extract", "messages/de.yaml", "is inside the content tree ('messages/de.yaml'), which is msgc's input"),
        ("extract", "de.xliff", "is inside the content tree ('de.xliff')"),
        ("extract", "LINK/new.xliff", "would be a second file for the locale"),
        ("pseudo", "images/p.xliff", "is inside the content tree ('images/p.xliff')"),
        ("pseudo", "translations/other.xliff", "would be a second file for the locale"),
    ])
    func outIntoTheContentTree(command: String, out: String, message: String) throws {
        let copy = try exampleCopy()
        let scratch = copy.deletingLastPathComponent()
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("LINK"), withDestinationURL: copy.appendingPathComponent("translations"))
        let locale = command == "extract" ? "de-DE" : "en-XA"
        if command == "pseudo" { #expect(try MsgcRunner.run(["pseudo", "--content", "content", "--locale", locale], in: scratch).status == 0) }
        let before = try MsgcRunner.files(in: copy)
        let path = out.hasPrefix("LINK/") ? out : "content/" + out
        let result = try MsgcRunner.run([command, "--content", "content", "--locale", locale, "--out", path], in: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("msgc: '\(path)' \(message)"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("Nothing was written; choose another --out\n"), "\(result.stderr)")
        #expect(try MsgcRunner.files(in: copy) == before)
        #expect(try MsgcRunner.run(["lint", "--content", "content"], in: scratch).status == 0)
    }

    /// An --out that is a link to the locale's file updates that file and keeps the link.
    @Test func outThroughALinkToTheLocalesFileWritesThatFile() throws {
        let (copy, file) = try treeWithTranslatorWork(version: "1.2")
        let link = copy.deletingLastPathComponent().appendingPathComponent("de.xliff")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let source = copy.appendingPathComponent("messages/family.yaml")
        let yaml = try String(contentsOf: source, encoding: .utf8)
        try Data(yaml.replacingOccurrences(of: "key: stay-together\n", with: "key: together\n").utf8).write(to: source)
        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", link.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == file.path)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\(Self.family)/together/header"))
        #expect(FileManager.default.fileExists(atPath: file.path + ".orphans"))
        #expect(!FileManager.default.fileExists(atPath: link.path + ".orphans"))
    }

    /// The `.orphans` file is a name msgc makes: a link there (a cloned tree's) is replaced by
    /// the file, never followed out of the tree.
    @Test func aLinkWhereTheOrphansGoIsReplacedNotFollowed() throws {
        let (copy, file) = try treeWithTranslatorWork(version: "1.2")
        let outside = copy.deletingLastPathComponent().appendingPathComponent("outside.xliff")
        let orphans = URL(fileURLWithPath: file.path + ".orphans")
        try FileManager.default.createSymbolicLink(atPath: orphans.path, withDestinationPath: outside.path)
        let source = copy.appendingPathComponent("messages/family.yaml")
        let yaml = try String(contentsOf: source, encoding: .utf8)
        try Data(yaml.replacingOccurrences(of: "key: stay-together\n", with: "key: together\n").utf8).write(to: source)
        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outside.path))
        var status = stat()
        #expect(lstat(orphans.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
        #expect(try String(contentsOf: orphans, encoding: .utf8).contains("Du-Form, wie überall"))
    }

    /// Translations the reader leaves out of the locale's file (a repeated unit with another
    /// target, a <file> for another language) stop extract from writing over it.
    @Test func unitsTheReaderLeftOutStopExtract() throws {
        let copy = try exampleCopy()
        let file = copy.appendingPathComponent("translations/de-DE.xliff")
        var text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "<trans-unit id=\"\(Self.family)/stay-together/header\""))
        let end = try #require(text.range(of: "</trans-unit>", range: start.upperBound..<text.endIndex))
        let repeated = String(text[start.lowerBound..<end.upperBound]).replacingOccurrences(of: "Gemeinsam weiterlernen", with: "Zusammen weiterlernen")
        text.insert(contentsOf: "\n      " + repeated, at: end.upperBound)
        text = text.replacingOccurrences(of: "</xliff>", with: """
              <file original="other" source-language="en-US" target-language="fr-FR" datatype="plaintext"><body>
                <trans-unit id="x/y/header"><source>Hello</source><target>Bonjour</target></trans-unit>
              </body></file>
            </xliff>
            """)
        try Data(text.utf8).write(to: file)
        let before = try Data(contentsOf: file)
        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("[XLF013]") && result.stderr.contains("[XLF010]"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("holds translations msgc cannot use (above), which writing it again would drop; keep one of each repeated unit and move a <file> for another language to a file of its own first. Nothing was written\n"), "\(result.stderr)")
        #expect(try Data(contentsOf: file) == before)
    }

    /// Thousands of orphans are all kept, and named on stderr up to a screenful.
    @Test func manyOrphansAreListedUpToAScreenful() throws {
        let copy = try exampleCopy()
        let file = copy.appendingPathComponent("translations/de-DE.xliff")
        let junk = (0..<150).map { "<trans-unit id=\"gone/k\($0)/header\"><source>S\($0)</source><target>T\($0)</target></trans-unit>" }
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "</body>", with: junk.joined(separator: "\n") + "</body>")
        try Data(text.utf8).write(to: file)
        let result = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE", "--out", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "\n  gone/").count - 1 == 100)
        #expect(result.stderr.contains("  … and 50 more, every one in '\(file.path).orphans'\n"), "\(result.stderr)")
        let orphans = try String(contentsOf: URL(fileURLWithPath: file.path + ".orphans"), encoding: .utf8)
        #expect(orphans.components(separatedBy: "<target state=").count - 1 == 150)
    }
}
