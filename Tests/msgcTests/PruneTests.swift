import Foundation
import Testing
import TestSupport

/// `msgc prune`, `msgc state fetch --defaults` and the drift they reveal, against the stand-in of
/// Apple's service (AppleStandIn/standin.py) with its delete and get-default endpoints.
@Suite(.ownThreads, .serialized, .enabled(if: StandIn.python != nil, "needs Python with PyJWT and cryptography (scripts/test.sh makes .build-venv)"))
struct PruneTests {
    /// Three releases of the example content: as it is, with the monthly plan's thank-you header
    /// edited (its translations go stale and, with `staleTranslations: withhold`, six locales
    /// lose that message and its default), and then with the family plan's header edited too.
    static func releases(_ environment: String) throws -> (folder: URL, bundles: [URL], contents: [URL]) {
        let folder = try MsgcRunner.temporaryFolder()
        let withhold = ("msgc.yaml", "minimumState: translated\n", "minimumState: translated\nstaleTranslations: withhold\n")
        let edits: [[(file: String, from: String, to: String)]] = [
            [],
            [withhold, ("messages/plus/monthly.yaml", "header: Thanks for learning with us", "header: Thank you for learning with us")],
            [withhold, ("messages/plus/monthly.yaml", "header: Thanks for learning with us", "header: Thank you for learning with us"),
             ("messages/family.yaml", "header: Keep learning together", "header: Keep learning, together")],
        ]
        var bundles: [URL] = []
        var contents: [URL] = []
        for (index, release) in edits.enumerated() {
            let content = folder.appendingPathComponent("content\(index + 1)")
            try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: content)
            for edit in release {
                let url = content.appendingPathComponent(edit.file)
                let text = try String(contentsOf: url, encoding: .utf8)
                #expect(text.contains(edit.from), "the example content changed: \(edit.from)")
                try Data(text.replacingOccurrences(of: edit.from, with: edit.to).utf8).write(to: url)
            }
            let bundle = folder.appendingPathComponent("r\(index + 1)")
            let build = try MsgcRunner.run(["build", "--content", content.path, "--environment", environment, "--out", bundle.path, "--quiet"])
            #expect(build.status == 0, "\(build.stderr)")
            bundles.append(bundle)
            contents.append(content)
        }
        return (folder, bundles, contents)
    }

    static func credentials(_ standIn: StandIn) -> [String] {
        ["--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID, "--issuer-id", StandIn.issuerID, "--api-base", standIn.base,
         "--rate", "200", "--time-scale", "0.1"]
    }

    static func prune(_ bundle: URL, previous: [URL], _ standIn: StandIn, extra: [String] = []) throws -> MsgcRunner.Result {
        try MsgcRunner.run(["prune", bundle.path, "--previous"] + previous.map(\.path) + credentials(standIn) + extra)
    }

    /// The count a dry run asks to confirm.
    static func count(_ dryRun: MsgcRunner.Result) -> Int? {
        dryRun.stdout.split(separator: "\n").first { $0.hasPrefix("to delete them, run this command again with --confirm ") }
            .flatMap { Int($0.split(separator: " ").last!) }
    }

    static func uploads(_ bundle: URL) throws -> Set<String> {
        Set(try ApplyAnswersTests.identifiers(bundle, "uploadMessage").map(\.identifier) + ApplyAnswersTests.identifiers(bundle, "uploadImage").map(\.identifier))
    }

    /// How many default configurations a bundle holds.
    static func defaultCount(_ bundle: URL) throws -> Int {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as! [String: Any]
        return (manifest["operations"] as! [[String: Any]]).count { $0["op"] as? String == "configureDefault" }
    }

    static func deletes(_ log: StandIn.Log) -> [StandIn.Entry] { log.entries.filter { $0.method == "DELETE" } }

    @Test func afterThreeReleasesPruneDeletesWhatTheLastNoLongerUsesAndNothingElse() throws {
        let (folder, bundles, _) = try Self.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        for bundle in bundles { #expect(try ApplyTests.apply(bundle, standIn).status == 0) }
        let before = try standIn.log()
        let last = try Self.uploads(bundles[2])
        let earlier = try Self.uploads(bundles[0]).union(try Self.uploads(bundles[1]))
        let expected = earlier.subtracting(last)
        #expect(!expected.isEmpty)

        let dryRun = try Self.prune(bundles[2], previous: [bundles[0], bundles[1]], standIn)
        #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(Self.deletes(try standIn.log()).isEmpty, "a dry run deleted something")
        let defaultsGone = before.defaults.count - (try Self.defaultCount(bundles[2]))
        #expect(defaultsGone == 10)
        #expect(Self.count(dryRun) == expected.count + defaultsGone, "\(dryRun.stdout)")
        for identifier in expected { #expect(dryRun.stdout.contains("would delete message \(identifier): message "), "\(identifier) is not planned") }
        #expect(dryRun.stdout.contains("which this bundle no longer uses"))

        let run = try Self.prune(bundles[2], previous: [bundles[0], bundles[1]], standIn, extra: ["--confirm", "\(Self.count(dryRun) ?? -1)"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let log = try standIn.log()
        #expect(Set(log.messages.keys) == last.intersection(before.messages.keys), "Apple holds other messages than the last release uses")
        #expect(log.defaults.count == (try Self.defaultCount(bundles[2])))
        #expect(try ApplyTests.apply(bundles[2], standIn).stdout.contains("messages: 0 uploaded"), "prune deleted what the last release uses")
        let deleted = Self.deletes(log).filter { $0.status == "200" }.map(\.path)
        #expect(Set(deleted).count == deleted.count, "something was deleted twice")
        #expect(deleted.allSatisfy { path in !last.contains { path.hasSuffix($0) } })
    }

    /// A kill -9 in the middle of deleting, then the same command again: it finishes the job and
    /// deletes nothing twice.
    @Test func aKilledPruneResumesWithTheSameCommand() throws {
        let (folder, bundles, _) = try Self.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["rates": ["deleteMessage": 2]])
        defer { standIn.stop() }
        for bundle in bundles.prefix(2) { #expect(try ApplyTests.apply(bundle, standIn).status == 0) }
        let dryRun = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        let confirmed = try #require(Self.count(dryRun), "\(dryRun.stdout)")

        let process = Process()
        process.executableURL = MsgcRunner.executable
        process.arguments = ["prune", bundles[1].path, "--previous", bundles[0].path, "--confirm", "\(confirmed)"] + Self.credentials(standIn)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline {
            if try standIn.log().entries.count(where: { $0.endpoint == "deleteMessage" && $0.status == "200" }) >= 2 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try standIn.log().entries.count { $0.endpoint == "deleteMessage" && $0.status == "200" }
        #expect(partial >= 2 && partial < confirmed - 7, "the kill came after \(partial) messages")

        let rest = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(confirmed)"])
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        let log = try standIn.log()
        let deleted = Self.deletes(log).filter { $0.status == "200" }.map(\.path)
        #expect(Set(deleted).count == deleted.count, "something was deleted twice")
        #expect(deleted.count == confirmed, "\(deleted.count) deleted of \(confirmed)")
        #expect(log.servedDeleted == 0)
        let again = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        #expect(again.stdout.contains("dry run: 0 deletions"), "\(again.stdout)")
    }

    /// In production, a --confirm that is not the dry run's count deletes nothing, above or below.
    @Test func aConfirmThatDoesNotMatchDeletesNothingInProduction() throws {
        let (folder, bundles, _) = try Self.releases("production")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "production")
        defer { standIn.stop() }
        for bundle in bundles.prefix(2) {
            _ = try ApplyTests.apply(bundle, standIn)
            try standIn.approve()
            #expect(try ApplyTests.apply(bundle, standIn).status == 0)
        }
        let dryRun = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        let confirmed = try #require(Self.count(dryRun), "\(dryRun.stdout)")
        for wrong in [confirmed + 1, confirmed - 1, 0] {
            let refused = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(wrong)"])
            #expect(refused.status == 2, "--confirm \(wrong): \(refused.stdout)")
            #expect(refused.stdout.contains("does not match the plan"), "\(refused.stdout)")
        }
        #expect(Self.deletes(try standIn.log()).isEmpty, "a refused --confirm deleted something")
        let run = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(confirmed)"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(Self.deletes(try standIn.log()).count == confirmed)
    }

    /// What another tool uploaded stays without --all-unreferenced; a default Apple serves keeps its
    /// message; an image a message still uses is left and reported (403).
    @Test func anotherToolsUploadsStayUnlessAskedAndAnImageInUseIsLeft() throws {
        let (folder, bundles, _) = try Self.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let foreign = ["0a5c4f1e-0000-4000-8000-000000000001", "0a5c4f1e-0000-4000-8000-000000000002"]
        let foreignImage = "0a5c4f1e-0000-4000-8000-0000000000a1"
        // A message both releases use, held by Apple with a foreign image in it (Apple says so,
        // whatever the bundle's body holds): the image is in use.
        let kept = try #require(try ApplyAnswersTests.identifiers(bundles[0], "uploadMessage").map(\.identifier).first { try Self.uploads(bundles[1]).contains($0) })
        let ghost = "0a5c4f1e-0000-4000-8000-000000000003"
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["ghosts": [ghost], "preload": [
            "messages": [foreign[0]: "APPROVED", foreign[1]: "PENDING", kept: "APPROVED"],
            "images": [foreignImage: ["APPROVED", "FULL_SIZE"]],
            "messageImages": [kept: [foreignImage]],
        ]])
        defer { standIn.stop() }
        #expect(try ApplyTests.apply(bundles[0], standIn).status == 0)
        let served = try #require(try standIn.log().defaults["com.example.parla.plus.monthly/en-US"])

        // Before r2 is applied, Apple serves r1's thank-you message as a default r2 re-points: it stays.
        let dryRun = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        #expect(dryRun.stdout.contains("kept message \(served): Apple serves it as the default of com.example.parla.plus.monthly in en-US"), "\(dryRun.stdout)")
        for identifier in foreign + [foreignImage] { #expect(!dryRun.stdout.contains(identifier), "\(identifier) would be deleted") }
        let run = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(Self.count(dryRun) ?? -1)"])
        #expect(run.status == 0, "\(run.stdout)")
        var log = try standIn.log()
        #expect(log.servedDeleted == 0, "a message Apple serves as a default was deleted")
        #expect(log.messages[served] != nil)
        for identifier in foreign { #expect(log.messages[identifier] != nil) }

        let wide = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--all-unreferenced"])
        for identifier in foreign { #expect(wide.stdout.contains("would delete message \(identifier)"), "\(wide.stdout)") }
        #expect(wide.stdout.contains("would delete image \(foreignImage)"), "\(wide.stdout)")
        #expect(wide.stdout.contains("no bundle of this project names it (--all-unreferenced)"), "\(wide.stdout)")
        let all = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--all-unreferenced", "--confirm", "\(Self.count(wide) ?? -1)"])
        #expect(all.status == 1, "\(all.stdout)")
        #expect(all.stdout.contains("in use: image \(foreignImage): HTTP 403 4030019"), "\(all.stdout)")
        // Listed by Apple but gone when deleted: a 404, which is done.
        #expect(all.stdout.contains("1 already gone"), "\(all.stdout)")
        #expect(all.stderr.contains("already gone: message \(ghost)"), "\(all.stderr)")
        log = try standIn.log()
        for identifier in foreign { #expect(log.messages[identifier] == nil) }
        #expect(log.servedDeleted == 0)
    }

    /// state fetch --defaults records what Apple serves; a build and coverage of the next release
    /// against it warn of a default it re-points (STA009) and of defaults it no longer configures
    /// (STA010); prune deletes those only with --confirm.
    @Test func driftInBothDirections() throws {
        let (folder, bundles, contents) = try Self.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        #expect(try ApplyTests.apply(bundles[0], standIn).status == 0)
        let state = folder.appendingPathComponent("state.json")
        let fetch = try ApplyAnswersTests.fetch(standIn, out: state, extra: ["--defaults", bundles[0].path, "--time-scale", "0.01"])
        #expect(fetch.status == 0, "\(fetch.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as! [String: Any]
        #expect((object["defaults"] as? [[String: Any]])?.count == 20)
        #expect(try standIn.log().entries.count { $0.endpoint == "getDefault" } == 20)

        let build = try MsgcRunner.run(["build", "--content", contents[1].path, "--environment", "sandbox", "--state", state.path,
                                        "--out", folder.appendingPathComponent("next").path])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.components(separatedBy: "[STA009]").count - 1 == 1, "\(build.stderr)")
        #expect(build.stderr.components(separatedBy: "[STA010]").count - 1 == 7, "\(build.stderr)")
        let coverage = try MsgcRunner.run(["coverage", "--content", contents[1].path, "--environment", "sandbox", "--state", state.path])
        #expect(coverage.stderr.contains("[STA009]") && coverage.stderr.contains("[STA010]"), "\(coverage.stderr)")

        let dryRun = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        #expect(dryRun.stdout.contains("would delete default of com.example.parla.plus.monthly in de-DE"), "\(dryRun.stdout)")
        #expect(try standIn.log().defaults.count == 20, "a dry run deleted a default")
        #expect(try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(Self.count(dryRun) ?? -1)"]).status == 0)
        let log = try standIn.log()
        #expect(log.defaults.count == 13 && log.defaults["com.example.parla.plus.monthly/de-DE"] == nil, "\(log.defaults.keys.sorted())")

        // An older state file, without defaults, is read as before and says nothing of them.
        var old = object
        old["defaults"] = nil
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: state.path + ".old"))
        let older = try MsgcRunner.run(["build", "--content", contents[1].path, "--environment", "sandbox", "--state", state.path + ".old",
                                        "--out", folder.appendingPathComponent("plain").path])
        #expect(older.status == 0 && !older.stderr.contains("[STA01") && !older.stderr.contains("[STA009]"), "\(older.stderr)")
    }

    /// The state-aware cap names prune and how much it could free; diff shows what a prune after
    /// the new release would delete.
    @Test func theCapNamesPruneAndDiffShowsWhatItWouldDelete() throws {
        let (folder, bundles, contents) = try Self.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let held = (0..<2000).map { String(format: "{\"messageIdentifier\": \"0b000000-0000-4000-8000-%012d\", \"messageState\": \"APPROVED\"}", $0) }
        let state = folder.appendingPathComponent("full.json")
        try Data("{\"messages\": {\"messageIdentifiers\": [\(held.joined(separator: ","))]}, \"images\": {\"imageIdentifiers\": []}}".utf8).write(to: state)
        let build = try MsgcRunner.run(["build", "--content", contents[0].path, "--environment", "sandbox", "--state", state.path,
                                        "--out", folder.appendingPathComponent("capped").path])
        #expect(build.status == 1)
        // It promises only what prune does (issue 43, case 6): how many Apple holds unused, that
        // prune from the live bundle deletes what earlier releases uploaded, --all-unreferenced the rest.
        #expect(build.stderr.contains(
            "Apple holds 2000 messages this build does not use: `msgc prune LIVE_BUNDLE --previous OLDER_BUNDLE…` deletes those that earlier releases uploaded, and only `--all-unreferenced` deletes the rest [PRJ006]"),
            "\(build.stderr)")
        #expect(!build.stderr.contains("can free up to"))
        #expect(build.stderr.contains("this build wrote nothing: run `msgc prune LIVE_BUNDLE --previous OLDER_BUNDLE…`, where LIVE_BUNDLE is the bundle applied now"))

        let text = try MsgcRunner.run(["diff", bundles[0].path, bundles[1].path])
        let gone = try Self.uploads(bundles[0]).subtracting(try Self.uploads(bundles[1]))
        #expect(text.stdout.contains("prune after applying the new bundle (`msgc prune NEW --previous OLD`): 7 default configurations, \(gone.count) messages, 0 images"), "\(text.stdout)")
        let json = try MsgcRunner.run(["diff", bundles[0].path, bundles[1].path, "--format", "json"])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let prune = try #require(document["prune"] as? [[String: Any]])
        #expect(Set(prune.filter { $0["kind"] as? String == "message" }.compactMap { $0["identifier"] as? String }) == gone)
    }
}
