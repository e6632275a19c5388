import Foundation
import TestSupport
import Testing

/// Issue 43, the compile side: a source edit changes nothing translated locales ship until their
/// translation comes back (or, opted out, withholds them and says so), and a state file names
/// the environment and app it describes.
@Suite(.ownThreads, .serialized) struct StaleTranslationTests {
    static let product = "com.example.parla.plus.yearly"
    static let oldHeader = "Your streak is waiting for you"
    static let newHeader = "Your streak is still waiting for you"

    /// A copy of the example content, built for production into `before`, then with only the
    /// English header of plus.yearly's default message edited (after `edit` has changed
    /// anything else), built into `after`.
    struct Release {
        var folder: URL
        var content: URL
        var before: URL
        var after: URL
        var build: MsgcRunner.Result
    }

    static func release(edit: (URL) throws -> Void = { _ in }) throws -> Release {
        let folder = try MsgcRunner.temporaryFolder()
        let content = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: content)
        let before = folder.appendingPathComponent("before")
        let first = try MsgcRunner.run(["build", "--content", content.path, "--environment", "production", "--out", before.path])
        #expect(first.status == 0, "\(first.stderr)")
        try edit(content)
        try replace(oldHeader, with: newHeader, in: content.appendingPathComponent("messages/plus/yearly.yaml"))
        let after = folder.appendingPathComponent("after")
        let build = try MsgcRunner.run(["build", "--content", content.path, "--environment", "production", "--out", after.path])
        return Release(folder: folder, content: content, before: before, after: after, build: build)
    }

    static func replace(_ old: String, with new: String, in file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(old), "\(file.lastPathComponent) no longer holds '\(old)'")
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
    }

    static func manifest(_ bundle: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as! [String: Any]
    }

    static func notShipped(_ bundle: URL) throws -> [[String: String]] {
        (try manifest(bundle)["notShipped"] as? [[String: String]]) ?? []
    }

    static func defaultFile(_ locale: String) -> String { "defaults/\(product)/\(locale).json" }

    // MARK: - Case 1: a source-only edit keeps every translated locale's default

    @Test func aSourceEditKeepsTheTranslatedDefaultsWithTheirIdentifiers() throws {
        let release = try Self.release()
        defer { try? FileManager.default.removeItem(at: release.folder) }
        #expect(release.build.status == 0, "\(release.build.stderr)")
        let before = try MsgcRunner.files(in: release.before)
        let after = try MsgcRunner.files(in: release.after)
        // German and Chinese keep their default, pointing at the very same upload.
        for locale in ["de-DE", "zh-Hans"] {
            #expect(after[Self.defaultFile(locale)] != nil, "the \(locale) default is gone")
            #expect(after[Self.defaultFile(locale)] == before[Self.defaultFile(locale)], "the \(locale) default points elsewhere")
        }
        // English, whose text changed, is a new upload.
        #expect(after[Self.defaultFile("en-US")] != before[Self.defaultFile("en-US")])
        // Every message file of a translated locale is the same bytes: nothing new to upload there.
        let newFiles = Set(after.keys).subtracting(before.keys).filter { $0.hasPrefix("messages/") }
        #expect(newFiles.count == 1, "only the English message is new: \(newFiles.sorted())")
        #expect(try Self.notShipped(release.after) == Self.notShipped(release.before))
        // The warning names the locale, the message and what waits.
        #expect(release.build.stderr.contains(
            "header translation in de-DE is stale: it translates '\(Self.oldHeader)', but the source is now '\(Self.newHeader)'; de-DE keeps showing its previous translation of 'winback' until the translation is updated [TRN001]"),
            "\(release.build.stderr)")
        #expect(release.build.stdout.contains("ship the previous translation of a source text that changed since (TRN001)"), "\(release.build.stdout)")

        // msgc diff: the translated locales are unchanged, not gone.
        let diff = try MsgcRunner.run(["diff", release.before.path, release.after.path, "--format", "json"])
        #expect(diff.status == 0, "\(diff.stderr)")
        let changes = try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as! [String: Any]
        for section in ["messages", "defaults"] {
            let entries = changes[section] as! [[String: Any]]
            #expect(entries.allSatisfy { $0["locale"] as? String == "en-US" }, "\(section): \(entries)")
        }

        // Coverage says so, in every format, and counts the message as shipping.
        let json = try MsgcRunner.run(["coverage", "--content", release.content.path, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let products = report["products"] as! [[String: Any]]
        let cells = products.first { $0["product"] as? String == Self.product }!["cells"] as! [[String: Any]]
        let german = cells.first { $0["locale"] as? String == "de-DE" }!
        let previous = german["previousTranslation"] as? [[String: Any]]
        #expect(previous?.first?["key"] as? String == "winback")
        #expect(previous?.first?["fields"] as? [String] == ["header"])
        #expect((german["notReady"] as! [[String: Any]]).allSatisfy { $0["key"] as? String != "winback" })
        for format in ["table", "markdown", "html"] {
            let rendered = try MsgcRunner.run(["coverage", "--content", release.content.path, "--format", format, "--color", "never"])
            #expect(rendered.status == 0, "\(rendered.stderr)")
            #expect(rendered.stdout.contains("previous translation: header"), "\(format): \(rendered.stdout)")
        }
    }

    @Test func theEditedTreeBuildsTheSameBytesEverywhere() throws {
        let release = try Self.release()
        defer { try? FileManager.default.removeItem(at: release.folder) }
        let again = release.folder.appendingPathComponent("again")
        let build = try MsgcRunner.run(
            ["build", "--content", release.content.path, "--environment", "production", "--out", again.path],
            in: release.folder, environment: ["TZ": "Pacific/Chatham", "LANG": "de_DE.UTF-8", "LC_ALL": "tr_TR.UTF-8"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try MsgcRunner.files(in: again) == MsgcRunner.files(in: release.after))
    }

    // MARK: - The opt-out

    @Test func withholdOnTheMessageLeavesTheStaleLocalesOutAndSaysWhatTheyShow() throws {
        let release = try Self.release { content in
            try Self.replace("    default: true\n    header: \(Self.oldHeader)", with: "    default: true\n    staleTranslations: withhold\n    header: \(Self.oldHeader)",
                             in: content.appendingPathComponent("messages/plus/yearly.yaml"))
        }
        defer { try? FileManager.default.removeItem(at: release.folder) }
        #expect(release.build.status == 0, "\(release.build.stderr)")
        let after = try MsgcRunner.files(in: release.after)
        #expect(after[Self.defaultFile("de-DE")] == nil)
        #expect(after[Self.defaultFile("zh-Hans")] == nil)
        let withheld = try Self.notShipped(release.after).filter { $0["reason"] == "withheld-stale" }
        #expect(withheld.contains(["key": "winback", "locale": "de-DE", "product": Self.product, "reason": "withheld-stale"]))
        #expect(withheld.contains(["key": "winback", "locale": "zh-Hans", "product": Self.product, "reason": "withheld-stale"]))
        #expect(release.build.stderr.contains(
            "staleTranslations: withhold, so de-DE does not ship 'winback' until the translation is updated (Apple keeps its current default there; realtime answers omit it) [TRN001]"),
            "\(release.build.stderr)")
        #expect(release.build.stdout.contains("withheld-stale"), "\(release.build.stdout)")

        // diff: withheld, waiting for translation; never gone.
        let diff = try MsgcRunner.run(["diff", release.before.path, release.after.path])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("withheld    message winback — withheld (waiting for translation: withheld-stale)"), "\(diff.stdout)")
        #expect(diff.stdout.contains("default winback — withheld (waiting for translation: withheld-stale)"), "\(diff.stdout)")
        #expect(!diff.stdout.contains("  gone "), "\(diff.stdout)")
    }

    @Test func withholdInMsgcYamlAppliesToEveryMessage() throws {
        let release = try Self.release { content in
            try Self.replace("minimumState: translated\n", with: "minimumState: translated\nstaleTranslations: withhold\n",
                             in: content.appendingPathComponent("msgc.yaml"))
        }
        defer { try? FileManager.default.removeItem(at: release.folder) }
        #expect(release.build.status == 0, "\(release.build.stderr)")
        #expect(try MsgcRunner.files(in: release.after)[Self.defaultFile("de-DE")] == nil)
        #expect(try Self.notShipped(release.after).contains { $0["locale"] == "ja" && $0["key"] == "winback" && $0["reason"] == "withheld-stale" })
    }

    @Test func anUnknownStaleTranslationsValueIsAnError() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: content)
        try Self.replace("minimumState: translated\n", with: "minimumState: translated\nstaleTranslations: keep\n",
                         in: content.appendingPathComponent("msgc.yaml"))
        let lint = try MsgcRunner.run(["lint", "--content", content.path])
        #expect(lint.status == 1)
        let output = lint.stdout + lint.stderr
        #expect(output.contains("msgc.yaml:6:20: error: 'staleTranslations' must be one of keep-previous, withhold, not 'keep' [PRS006]"), "\(output)")
    }

    // MARK: - Case 4: a state file names its environment and app

    static let sandboxState = """
        {"environment": "sandbox", "bundleId": "com.example.parla", "fetchedAt": "2026-11-27T09:00:00Z",
         "messages": {"messageIdentifiers": []}, "images": {"imageIdentifiers": []}}

        """

    @Test func aStateFileOfAnotherEnvironmentOrAppIsRefused() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let example = MsgcRunner.packageRoot.appendingPathComponent("content").path
        let sandbox = folder.appendingPathComponent("sandbox-state.json")
        try Data(Self.sandboxState.utf8).write(to: sandbox)
        let out = folder.appendingPathComponent("build")
        let build = try MsgcRunner.run(["build", "--content", example, "--environment", "production", "--state", sandbox.path, "--out", out.path])
        #expect(build.status == 2, "\(build.stderr)")
        #expect(build.stderr.contains(
            "state file '\(sandbox.path)' describes sandbox of com.example.parla, fetched at 2026-11-27T09:00:00Z, but this is production of com.example.parla"),
            "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let otherApp = folder.appendingPathComponent("other-app.json")
        try Data(Self.sandboxState.replacingOccurrences(of: "com.example.parla", with: "com.example.news").utf8).write(to: otherApp)
        let sandboxBuild = try MsgcRunner.run(["build", "--content", example, "--environment", "sandbox", "--state", otherApp.path, "--out", out.path])
        #expect(sandboxBuild.status == 2)
        #expect(sandboxBuild.stderr.contains("describes sandbox of com.example.news"), "\(sandboxBuild.stderr)")
        #expect(sandboxBuild.stderr.contains("but this is sandbox of com.example.parla"), "\(sandboxBuild.stderr)")

        let coverage = try MsgcRunner.run(["coverage", "--content", example, "--state", otherApp.path])
        #expect(coverage.status == 2, "\(coverage.stderr)")
        #expect(coverage.stderr.contains("describes sandbox of com.example.news"), "\(coverage.stderr)")
        // Without --environment, coverage matches the state file's own environment.
        let matching = try MsgcRunner.run(["coverage", "--content", example, "--state", sandbox.path, "--format", "json"])
        #expect(matching.status == 0, "\(matching.stderr)")
        #expect(matching.stdout.contains("\"environment\": \"sandbox\""))

        // The snapshot checks the state against the bundle's manifest.
        let bundle = folder.appendingPathComponent("production")
        #expect(try MsgcRunner.run(["build", "--content", example, "--environment", "production", "--out", bundle.path]).status == 0)
        let snapshot = try MsgcRunner.run(["realtime", "snapshot", bundle.path, "--state", sandbox.path, "--out", folder.appendingPathComponent("s.json").path])
        #expect(snapshot.status == 2, "\(snapshot.stderr)")
        #expect(snapshot.stderr.contains("describes sandbox of com.example.parla"), "\(snapshot.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.json").path))
    }

    @Test func anOlderStateFileIsUsedWithAWarning() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let example = MsgcRunner.packageRoot.appendingPathComponent("content").path
        let state = folder.appendingPathComponent("state.json")
        try Data(#"{"messages": {"messageIdentifiers": []}, "images": {"imageIdentifiers": []}}"#.utf8).write(to: state)
        let build = try MsgcRunner.run(["build", "--content", example, "--environment", "sandbox", "--state", state.path, "--out", folder.appendingPathComponent("b").path])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("warning: state file does not say which environment or app (bundleId) it describes"), "\(build.stderr)")
        #expect(build.stderr.contains("[STA011]"))

        let wrongType = folder.appendingPathComponent("wrong.json")
        try Data(#"{"environment": 1, "bundleId": "com.example.parla", "messages": {}, "images": {}}"#.utf8).write(to: wrongType)
        let refused = try MsgcRunner.run(["build", "--content", example, "--environment", "sandbox", "--state", wrongType.path, "--out", folder.appendingPathComponent("c").path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\"environment\" must be a string, not a number [STA001]"), "\(refused.stderr)")
    }
}
