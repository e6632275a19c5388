import Foundation
import Testing
import TestSupport

/// What a translator hands back, as the tools people use write it, checked unit by unit: every
/// target with text is either checked or reported as unused, with the reason.
@Suite(.ownThreads) struct ReturnedTranslationTests {
    let example = MsgcRunner.packageRoot.appendingPathComponent("content")

    func exampleCopy() throws -> URL {
        let copy = try MsgcRunner.temporaryFolder().appendingPathComponent("content")
        try FileManager.default.copyItem(at: example, to: copy)
        return copy
    }

    /// Rewrites one file of the tree.
    func edit(_ file: URL, _ change: (String) throws -> String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(try change(text).utf8).write(to: file)
    }

    /// The text of `unit`'s `<target>` in an XLIFF 1.2 file, replaced by `replace(old)`.
    func replaceTarget(in text: String, unit: String, _ replace: (String) -> String) throws -> String {
        let unitStart = try #require(text.range(of: "id=\"\(unit)\""))
        let open = try #require(text.range(of: "<target", range: unitStart.upperBound..<text.endIndex))
        let contentStart = try #require(text.range(of: ">", range: open.upperBound..<text.endIndex)).upperBound
        let close = try #require(text.range(of: "</target>", range: contentStart..<text.endIndex))
        return text.replacingCharacters(in: contentStart..<close.lowerBound, with: replace(String(text[contentStart..<close.lowerBound])))
    }

    static let winback = "com.example.parla.plus.yearly/winback"

    /// The issue's own example: a right-to-left override in the German header of a message whose
    /// body is not translated yet was never checked, since the message was incomplete.
    @Test func aPartlyTranslatedMessageIsCheckedFieldByField() throws {
        let copy = try exampleCopy()
        let german = copy.appendingPathComponent("translations/de-DE.xliff")
        try edit(german) { text in
            let withOverride = try replaceTarget(in: text, unit: "\(Self.winback)/header") { "\u{202E}" + $0 }
            return try replaceTarget(in: withOverride, unit: "\(Self.winback)/body") { _ in "" }
        }
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("translations/de-DE.xliff:112:31: error: de-DE header contains U+202E RIGHT-TO-LEFT OVERRIDE"))
        // The body emptied but still marked final contradicts itself (XLF015).
        #expect(lint.stdout.contains("warning: unit '\(Self.winback)/body' has an empty target, but state 'final' says it is translated"))
        #expect(lint.stdout.hasSuffix("1 error, 1 warning in 1 file\n"), "\(lint.stdout)")

        // A header far over Apple's limit in a half-translated message is an error too.
        try edit(german) { text in
            try replaceTarget(in: text, unit: "\(Self.winback)/header") { _ in String(repeating: "Lernserie ", count: 9) }
        }
        let long = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(long.stdout.contains("error: de-DE header has 90 UTF-16 units; Apple's limit is 66"), "\(long.stdout)")

        // The message is not ready in de-DE for two reasons, and the build leaves it out there only.
        let coverage = try MsgcRunner.run(["coverage", "--content", copy.path, "--format", "json"])
        #expect(coverage.stdout.contains("\"reason\": \"missing\""))
        #expect(coverage.stdout.contains("\"code\": \"LEN001\""))
        let out = copy.deletingLastPathComponent().appendingPathComponent("bundle")
        let build = try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", out.path])
        #expect(build.status == 0, "\(build.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let uploads = (manifest["operations"] as? [[String: Any]] ?? []).filter { $0["op"] as? String == "uploadMessage" && $0["key"] as? String == "winback" }
        #expect(!uploads.contains { $0["locale"] as? String == "de-DE" })
        #expect(uploads.contains { $0["locale"] as? String == "fr-FR" })
        // What it does not ship there is named, with why.
        let notShipped = manifest["notShipped"] as? [[String: String]] ?? []
        #expect(notShipped.contains { $0["key"] == "winback" && $0["locale"] == "de-DE" }, "\(notShipped)")
    }

    /// CAT tools fill targets from memory and mark them new until a translator confirms them.
    @Test(arguments: ["new", "needs-translation", "needs-l10n", "x-machine-translated"])
    func aTargetNotYetTranslatedSaysWhyItIsNotUsed(state: String) throws {
        let copy = try exampleCopy()
        let french = copy.appendingPathComponent("translations/fr-FR.xliff")
        try edit(french) { text in
            let start = try #require(text.range(of: "id=\"\(Self.winback)/body\""))
            let written = try #require(text.range(of: #"state="[a-z-]*""#, options: .regularExpression, range: start.upperBound..<text.endIndex))
            return text.replacingCharacters(in: written, with: "state=\"\(state)\"")
        }
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 0)
        let why = state.hasPrefix("x-")
            ? "state '\(state)' is a tool's own state, which msgc reads as not translated yet" : "state '\(state)' says it is not translated yet"
        #expect(lint.stdout.contains("warning: body target in fr-FR is not used: \(why) [TRN004]"), "\(lint.stdout)")
        #expect(try MsgcRunner.run(["lint", "--content", copy.path, "--strict"]).status == 1)
        let coverage = try MsgcRunner.run(["coverage", "--content", copy.path])
        #expect(coverage.stdout.contains("winback (default): not translated (\(state)): body"), "\(coverage.stdout)")
    }

    /// Symfony's XLIFF 2.0 dumper writes no state and a hashed id beside the name; Phrase writes
    /// `trgLang` in lower case. Both are translations of the project's pt-BR.
    @Test func symfonyAndPhraseXLIFF20IsUsed() throws {
        let copy = try exampleCopy()
        let extract = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "pt-BR", "--xliff", "2.0"])
        #expect(extract.status == 0)
        var serial = 0
        var symfony = extract.stdout.replacingOccurrences(of: "<segment state=\"translated\">", with: "<segment>")
            .replacingOccurrences(of: "<segment state=\"final\">", with: "<segment>")
            .replacingOccurrences(of: "trgLang=\"pt-BR\"", with: "trgLang=\"pt-br\"")
        while let id = symfony.range(of: #"<unit id="com\.example[^"]*""#, options: .regularExpression) {
            serial += 1
            symfony.replaceSubrange(id, with: "<unit id=\"h\(serial)\"")
        }
        #expect(!symfony.contains("state="))
        let translations = copy.appendingPathComponent("translations")
        try FileManager.default.removeItem(at: translations.appendingPathComponent("pt-BR.xliff"))
        try Data(symfony.utf8).write(to: translations.appendingPathComponent("messages+intl-icu.pt-BR.xlf"))

        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 0)
        #expect(lint.stdout.contains("warning: target language 'pt-br' is the project's locale 'pt-BR' written in another case"))
        #expect(lint.stdout.hasSuffix("0 errors, 1 warning in 1 file\n"), "\(lint.stdout)")
        let coverage = try MsgcRunner.run(["coverage", "--content", copy.path, "--format", "json"])
        #expect(coverage.stdout.contains("\"ready\": 72"), "\(coverage.stdout.prefix(400))")
    }

    /// `<cp hex="…"/>` stands for a character XML cannot carry; decoded, it is checked like any.
    @Test func aCodePointElementIsCheckedAsItsCharacter() throws {
        let copy = try exampleCopy()
        let extract = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "ja", "--xliff", "2.0"])
        let header = try #require(extract.stdout.range(of: "name=\"\(Self.winback)/header\""))
        let target = try #require(extract.stdout.range(of: "<target>", range: header.upperBound..<extract.stdout.endIndex))
        let text = extract.stdout.replacingCharacters(in: target, with: "<target><cp hex=\"1B\"/>")
        try FileManager.default.removeItem(at: copy.appendingPathComponent("translations/ja.xliff"))
        try Data(text.utf8).write(to: copy.appendingPathComponent("translations/ja.xlf"))
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("error: ja header contains the control character U+001B ESCAPE [TXT002]"), "\(lint.stdout)")
        // The marker covers the element that stands for the character.
        #expect(lint.stdout.contains("<target><cp hex=\"1B\"/>"))
    }

    /// Two units with one id: the same target is noise, a different one makes the field ambiguous.
    @Test func repeatedUnitsAreNoiseOrAmbiguity() throws {
        let copy = try exampleCopy()
        let spanish = copy.appendingPathComponent("translations/es-MX.xliff")
        try edit(spanish) { text in
            let start = try #require(text.range(of: "      <trans-unit id=\"\(Self.winback)/header\""))
            let end = try #require(text.range(of: "</trans-unit>\n", range: start.upperBound..<text.endIndex))
            let unit = String(text[start.lowerBound..<end.upperBound])
            let other = try replaceTarget(in: unit, unit: "\(Self.winback)/header") { _ in "Tu racha te espera" }
            return text.replacingCharacters(in: end.upperBound..<end.upperBound, with: unit + other)
        }
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("warning: unit id '\(Self.winback)/header' appears again with the same target; msgc uses the first one"))
        #expect(lint.stdout.contains("error: unit id '\(Self.winback)/header' appears again with a different target than the one on line"))
        #expect(lint.stdout.contains("[XLF013]"))
        let coverage = try MsgcRunner.run(["coverage", "--content", copy.path])
        #expect(coverage.stdout.contains("winback (default): ambiguous (repeated units with different targets): header"), "\(coverage.stdout)")
    }

    /// Units that match no message field never raise errors; a file that cannot be used at all
    /// gets one diagnostic; one for the source locale gets a warning that it is not used.
    @Test func unusableFilesAndOrphansSayItOnce() throws {
        let copy = try exampleCopy()
        let translations = copy.appendingPathComponent("translations")
        let orphan = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="a" source-language="en-US" target-language="%@" datatype="plaintext"><body>
                <trans-unit id="com.example.parla.plus.yearly/retired/header"><source>Old</source><target>Alt <g id="1">fett</g></target></trans-unit>
                <trans-unit id="com.example.parla.plus.yearly/retired/header"><source>Old</source><target>Anders</target></trans-unit>
                <trans-unit id="com.example.parla.plus.yearly/winback/header"><source>x</source><target>y <x id="2"/></target></trans-unit>
              </body></file>
            </xliff>

            """
        try FileManager.default.removeItem(at: translations.appendingPathComponent("de-DE.xliff"))
        try Data(orphan.replacingOccurrences(of: "%@", with: "de-DE").utf8).write(to: translations.appendingPathComponent("de-DE.xliff"))
        try Data(orphan.replacingOccurrences(of: " target-language=\"%@\"", with: "").utf8)
            .write(to: translations.appendingPathComponent("unknown.xliff"))
        try Data(orphan.replacingOccurrences(of: "%@", with: "en-US").utf8).write(to: translations.appendingPathComponent("en.xliff"))

        let lint = try MsgcRunner.run(["lint", "--content", copy.path, "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        func found(_ path: String) -> [String] {
            diagnostics.filter { $0["path"] as? String == copy.path + "/translations/\(path)" }
                .map { "\($0["code"]!) \($0["severity"]!)" }
        }
        // The orphan's markup and its conflicting repeat are warnings; the field's markup is an
        // error (and its recorded source, "x", is not the header's: stale).
        // The stale header is still checked, as the previous translation that keeps shipping:
        // without its placeholder it ends with a space (TXT010).
        #expect(found("de-DE.xliff") == ["TRN003 warning", "XLF008 warning", "XLF013 warning", "TRN001 warning", "TXT010 warning", "XLF008 error"],
                "\(found("de-DE.xliff"))")
        #expect(found("unknown.xliff") == ["XLF011 error"])
        #expect(found("en.xliff") == ["TRN005 warning"])
        #expect(lint.stdout.contains("'translations/en.xliff' translates into the source locale 'en-US'; its 2 units are not used"))
    }

    /// `msgc lint FILE` reports what is in that file only, with the exit status it gives, from
    /// inside the tree or beside it.
    @Test func lintReportsOnlyTheFilesNamed() throws {
        let copy = try exampleCopy()
        try edit(copy.appendingPathComponent("translations/de-DE.xliff")) { text in
            try replaceTarget(in: text, unit: "\(Self.winback)/header") { "\u{202E}" + $0 }
        }
        try edit(copy.appendingPathComponent("translations/fr-FR.xliff")) { text in
            try replaceTarget(in: text, unit: "\(Self.winback)/header") { $0 + " " }
        }
        let french = try MsgcRunner.run(["lint", "translations/fr-FR.xliff"], in: copy)
        #expect(french.status == 0)
        #expect(french.stdout.contains("[TXT010]") || french.stdout.contains("warning"), "\(french.stdout)")
        #expect(!french.stdout.contains("de-DE.xliff"))
        #expect(french.stdout.hasSuffix("0 errors, 1 warning in 1 file\n"), "\(french.stdout)")

        let german = try MsgcRunner.run(["lint", "content/translations/de-DE.xliff"], in: copy.deletingLastPathComponent())
        #expect(german.status == 1)
        #expect(german.stdout.hasPrefix("content/translations/de-DE.xliff:112:31: error:"), "\(german.stdout)")
        #expect(!german.stdout.contains("fr-FR.xliff"))

        let folder = try MsgcRunner.run(["lint", "--format", "json", "translations/"], in: copy)
        #expect(folder.stdout.contains("translations/de-DE.xliff") && folder.stdout.contains("translations/fr-FR.xliff"))
        #expect(try MsgcRunner.run(["lint", "messages"], in: copy).status == 0)

        let outside = try MsgcRunner.run(["lint", "--content", copy.path, "/etc/hostname"])
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("'/etc/hostname' is not inside the content tree"))
        let missing = try MsgcRunner.run(["lint", "translations/xx.xliff"], in: copy)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("'translations/xx.xliff' does not exist"))
        let nowhere = try MsgcRunner.run(["lint"], in: copy.deletingLastPathComponent().appendingPathComponent("content/images"))
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("the current folder has no msgc.yaml and there is no ./content"))
    }

    /// Trados writes some files with lone carriage returns; others write CR LF or UTF-16. The
    /// snippet shows the very line the location names, whatever the line breaks.
    @Test(arguments: ["\r", "\r\n", "\n"], [false, true])
    func snippetsShowTheLineTheLocationNames(lineBreak: String, utf16: Bool) throws {
        let copy = try exampleCopy()
        let german = copy.appendingPathComponent("translations/de-DE.xliff")
        var text = try replaceTarget(in: try String(contentsOf: german, encoding: .utf8), unit: "\(Self.winback)/header") { $0 + " 50 %" }
        text = text.replacingOccurrences(of: "\n", with: lineBreak)
        if utf16 {
            text = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
            try Data([0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: german)
        } else {
            try Data(text.utf8).write(to: german)
        }
        let lint = try MsgcRunner.run(["lint", "--content", copy.path, "--color", "never"])
        // A number the source does not have is a warning (TXT012: msgc may not read every way of
        // writing a number), so the lint passes; the snippet is what is checked here.
        #expect(lint.status == 0)
        let lines = lint.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex { $0.contains("translations/de-DE.xliff:112:") && $0.contains("[TXT012]") })
        #expect(lines[heading + 2].hasPrefix(" 112 |         <target state=\"final\">Deine Lernserie wartet auf dich 50 %</target>"),
                "\(lint.stdout)")
    }
}
