import Foundation
import Testing
import TestSupport

/// `msgc coverage` and `msgc build --state`, run as a user would.
@Suite(.ownThreads, .serialized) struct CoverageCommandTests {
    static let config = """
        bundleId: com.example.app
        sourceLocale: en-US
        locales: [en-US, de-DE]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: com.example.app.yearly

        """
    static let messages = """
        messages:
          - key: winback
            product: com.example.app.yearly
            type: text
            default: true
            header: Stay with us
            body: Keep reading without limits.

        """

    /// A tree whose one message is ready in en-US and has no German translation: 1 of 2 ready.
    static func tree() throws -> URL {
        let folder = try MsgcRunner.temporaryFolder()
        try MsgcRunner.write(["content/msgc.yaml": config, "content/messages/app.yaml": messages], into: folder)
        return folder
    }

    @Test func printsTheTableByDefault() throws {
        let folder = try Self.tree()
        let result = try MsgcRunner.run(["coverage", "--color", "never"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Coverage: 1 of 2 messages ready (50%)\nsandbox, without review state (no --state)\n"))
        #expect(result.stdout.contains("winback (default): missing: header, body"))
        #expect(!result.stdout.contains("\u{1B}["))
    }

    @Test func writesEveryFormatToAFile() throws {
        let folder = try Self.tree()
        for (format, start) in [("json", "{\n  \"blockingErrors\": 0,"), ("markdown", "## Retention message coverage"), ("html", "<!DOCTYPE html>")] {
            let result = try MsgcRunner.run(["coverage", "--format", format, "--out", "report.\(format)"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "wrote report.\(format): 1 of 2 messages ready (50%)\n")
            let text = try String(contentsOf: folder.appendingPathComponent("report.\(format)"), encoding: .utf8)
            #expect(text.hasPrefix(start), "\(format)")
        }
    }

    @Test func failUnderGatesOnOverallReadiness() throws {
        let folder = try Self.tree()
        #expect(try MsgcRunner.run(["coverage", "--fail-under", "50", "--format", "json"], in: folder).status == 0)
        let below = try MsgcRunner.run(["coverage", "--fail-under", "50.5", "--format", "json"], in: folder)
        #expect(below.status == 1)
        #expect(below.stderr == "msgc: 1 of 2 messages ready (50%), below --fail-under 50.5%\n")
        #expect(try MsgcRunner.run(["coverage", "--fail-under", "101"], in: folder).status == 2)
    }

    @Test func aStateFileThatIsNotOneExitsTwo() throws {
        let folder = try Self.tree()
        try MsgcRunner.write(["state.json": "{\"messages\": {\"messageIdentifiers\": [}}\n"], into: folder)
        for command in [["coverage"], ["build", "--environment", "production"]] {
            let result = try MsgcRunner.run(command + ["--state", "state.json", "--color", "never"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("state.json:1:38: error: state file is not valid JSON: expected a JSON value, found '}' [STA001]\n"))
            #expect(result.stderr.contains("nothing was written"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("build").path))
        let missing = try MsgcRunner.run(["coverage", "--state", "nope.json"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("state file 'nope.json' does not exist"))
    }

    /// A state file of 8 MB, nearly all of it escapes between runs of text in a member msgc does
    /// not read, is read in a second or two: the JSON reader once copied the whole string at
    /// every escape, and took minutes here (the hang guard ends such a run, and the test fails).
    @Test func aStateFileFullOfEscapesIsReadInLinearTime() throws {
        let folder = try Self.tree()
        let note = String(repeating: #"é\""#, count: 2 << 20)
        let entry = "{\"messageIdentifier\": \"00000000-0000-5000-8000-000000000009\", \"messageState\": \"PENDING\", \"note\": \"\(note)\"}"
        try MsgcRunner.write(["state.json": "{\"messages\": {\"messageIdentifiers\": [\(entry)]}, \"images\": {\"imageIdentifiers\": []}}\n"], into: folder)
        let result = try MeasuredProcess.run(
            MsgcRunner.executable, ["coverage", "--state", "state.json", "--format", "json"], in: folder, hangGuardSeconds: 60)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"totals\": {"))
    }

    /// The manifest's operations and its sections, from a build in `folder`.
    static func manifest(_ folder: URL, _ environment: String = "production") throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent("build/\(environment)/manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A state file of the tree's app in `environment`, as `msgc state fetch` names them.
    static func stateFile(messages: [(String, String)], environment: String = "production") -> String {
        let entries = messages.map { "{\"messageIdentifier\": \"\($0.0.uppercased())\", \"messageState\": \"\($0.1)\"}" }
        return "{\"environment\": \"\(environment)\", \"bundleId\": \"com.example.app\", "
            + "\"messages\": {\"messageIdentifiers\": [\(entries.joined(separator: ", "))]}, \"images\": {\"imageIdentifiers\": []}}\n"
    }

    @Test func productionBuildDefersDefaultsUntilApproved() throws {
        let folder = try Self.tree()
        #expect(try MsgcRunner.run(["build", "--environment", "production"], in: folder).status == 0)
        let first = try Self.manifest(folder)
        let operations = try #require(first["operations"] as? [[String: Any]])
        let uploaded = operations.filter { $0["op"] as? String == "uploadMessage" }.compactMap { $0["identifier"] as? String }
        #expect(uploaded.count == 1)

        // Apple holds the message but has not approved it: the default waits.
        try MsgcRunner.write(["pending.json": Self.stateFile(messages: [(uploaded[0], "PENDING"), ("00000000-0000-5000-8000-000000000009", "APPROVED")])], into: folder)
        let pending = try MsgcRunner.run(["build", "--environment", "production", "--state", "pending.json", "--color", "never"], in: folder)
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(pending.stderr.contains("warning: the production default configuration of com.example.app.yearly in en-US is deferred: message \(uploaded[0]) is PENDING at Apple [STA003]"))
        #expect(pending.stdout.contains("Apple already holds 1 of its uploads (present); 1 default configuration deferred; 1 identifier at Apple no longer used (unreferenced)"))
        let deferredManifest = try Self.manifest(folder)
        #expect((deferredManifest["operations"] as? [[String: Any]])?.isEmpty == true)
        #expect((deferredManifest["present"] as? [[String: Any]])?.first?["identifier"] as? String == uploaded[0])
        let deferred = try #require((deferredManifest["deferred"] as? [[String: Any]])?.first)
        #expect(deferred["op"] as? String == "configureDefault")
        #expect(deferred["reason"] as? String == "message \(uploaded[0]) is PENDING at Apple")
        #expect((deferredManifest["unreferenced"] as? [[String: Any]])?.first?["identifier"] as? String == "00000000-0000-5000-8000-000000000009")

        // --strict turns the deferral into a failed build that writes nothing.
        let strict = try MsgcRunner.run(["build", "--environment", "production", "--state", "pending.json", "--strict", "--out", "strict"], in: folder)
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("strict").path))

        // Once approved, the default configuration ships.
        try MsgcRunner.write(["approved.json": Self.stateFile(messages: [(uploaded[0], "APPROVED")])], into: folder)
        let approved = try MsgcRunner.run(["build", "--environment", "production", "--state", "approved.json"], in: folder)
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(approved.stderr.isEmpty)
        let final = try Self.manifest(folder)
        #expect((final["operations"] as? [[String: Any]])?.map { $0["op"] as? String } == ["configureDefault"])
        #expect((final["deferred"] as? [[String: Any]])?.isEmpty == true)

        // Coverage reads the same state: the English default is ready only once approved.
        let coverage = try MsgcRunner.run(["coverage", "--state", "pending.json", "--format", "json"], in: folder)
        #expect(coverage.status == 0, "\(coverage.stderr)")
        #expect(coverage.stdout.contains("\"environment\": \"production\""))
        #expect(coverage.stdout.contains("\"state\": \"PENDING\""))
        let ready = try MsgcRunner.run(["coverage", "--state", "approved.json", "--format", "json"], in: folder)
        #expect(ready.stdout.contains("\"ready\": 1"))
        #expect(!ready.stdout.contains("PENDING"))
    }

    @Test func sandboxBuildWithStateDoesNotDefer() throws {
        let folder = try Self.tree()
        #expect(try MsgcRunner.run(["build", "--environment", "sandbox"], in: folder).status == 0)
        let operations = try #require(try Self.manifest(folder, "sandbox")["operations"] as? [[String: Any]])
        let uploaded = operations.filter { $0["op"] as? String == "uploadMessage" }.compactMap { $0["identifier"] as? String }
        try MsgcRunner.write(["pending.json": Self.stateFile(messages: [(uploaded[0], "PENDING")], environment: "sandbox")], into: folder)
        let result = try MsgcRunner.run(["build", "--environment", "sandbox", "--state", "pending.json"], in: folder)
        #expect(result.status == 0)
        let manifest = try Self.manifest(folder, "sandbox")
        #expect((manifest["operations"] as? [[String: Any]])?.map { $0["op"] as? String } == ["configureDefault"])
        #expect((manifest["deferred"] as? [[String: Any]])?.isEmpty == true)
    }
}

/// The known-gaps fixture through the built binary: every format byte for byte as the golden
/// files of CoverageTests, which the in-process renderers produce.
@Suite(.ownThreads) struct CoverageFixtureCommandTests {
    static let fixture = MsgcRunner.packageRoot.appendingPathComponent("Tests/CoverageTests/Fixtures/known-gaps")

    @Test(arguments: [("json", "coverage.json"), ("markdown", "coverage.md"), ("table", "coverage.txt"), ("html", "coverage.html")])
    func everyFormatMatchesItsGoldenFile(format: String, golden: String) throws {
        let result = try MsgcRunner.run([
            "coverage", "--content", Self.fixture.appendingPathComponent("content").path, "--state",
            Self.fixture.appendingPathComponent("state.json").path, "--format", format, "--color", "never",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let expected = try String(contentsOf: Self.fixture.appendingPathComponent("expected/\(golden)"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func productionBuildWithTheFixtureStateDefersOnlyWhatIsNotApproved() throws {
        let out = try MsgcRunner.temporaryFolder().appendingPathComponent("production")
        let result = try MsgcRunner.run([
            "build", "--content", Self.fixture.appendingPathComponent("content").path, "--environment", "production",
            "--state", Self.fixture.appendingPathComponent("state.json").path, "--out", out.path, "--color", "never",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("[STA002]"))  // the German offer was rejected
        #expect(result.stderr.contains("warning: the production default configuration of com.example.gaps.yearly in ar-SA is deferred"))
        let data = try Data(contentsOf: out.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defaults = (manifest["operations"] as? [[String: Any]] ?? []).filter { $0["op"] as? String == "configureDefault" }
        #expect(defaults.map { "\($0["product"]!) \($0["locale"]!)" }.sorted() == [
            "com.example.gaps.monthly en-US", "com.example.gaps.yearly de-DE", "com.example.gaps.yearly en-US", "com.example.gaps.yearly fr-FR",
        ])
        let deferred = manifest["deferred"] as? [[String: Any]] ?? []
        #expect(deferred.map { "\($0["product"]!) \($0["locale"]!)" } == ["com.example.gaps.yearly ar-SA"])
        #expect((manifest["unreferenced"] as? [[String: Any]])?.count == 2)
    }
}
