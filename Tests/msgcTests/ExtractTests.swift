import Foundation
import Testing

@Suite struct ExtractTests {
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

    @Test func changedSourceMakesTranslationsStaleAndLeavesThemOut() throws {
        let copy = try exampleCopy()
        let source = copy.appendingPathComponent("messages/plus/monthly.yaml")
        let text = try String(contentsOf: source, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "header: Thanks for learning with us", with: "header: Thank you for learning with us").utf8)
            .write(to: source)
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 0)
        #expect(lint.stdout.contains("warning: header translation in de-DE is stale: it translates 'Thanks for learning with us', but the source is now 'Thank you for learning with us' [TRN001]"))
        let strict = try MsgcRunner.run(["lint", "--content", copy.path, "--strict"])
        #expect(strict.status == 1)
        let build = try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", copy.deletingLastPathComponent().appendingPathComponent("b").path])
        #expect(build.status == 0)
        #expect(build.stdout.contains("in 8 locales"))
        let manifest = try String(contentsOf: copy.deletingLastPathComponent().appendingPathComponent("b/manifest.json"), encoding: .utf8)
        #expect(!manifest.contains("\"path\": \"/inApps/v1/messaging/default/com.example.parla.plus.monthly/de-DE\""))
        // Re-extracting keeps the old translation for the translator, marked as needing work.
        let extract = try MsgcRunner.run(["extract", "--content", copy.path, "--locale", "de-DE"])
        #expect(extract.stdout.contains("<source>Thank you for learning with us</source>"))
        #expect(extract.stdout.contains("<target state=\"needs-translation\">"))
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

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
