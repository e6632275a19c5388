import Foundation
import Testing
import TestSupport

/// What Apple may answer, and what a hostile server or command line may try: each against a
/// stand-in of its own, so these run alongside the rest of the suite.
@Suite(.ownThreads, .enabled(if: StandIn.python != nil, "needs Python with PyJWT and cryptography (scripts/test.sh makes .build-venv)"))
struct ApplyAnswersTests {
    static let bundleID = ApplyTests.bundleID

    static func bundle(_ environment: String) throws -> (folder: URL, bundle: URL) { try ApplyTests.bundle(environment) }

    static func apply(_ bundle: URL, _ standIn: StandIn, extra: [String] = []) throws -> MsgcRunner.Result {
        try ApplyTests.apply(bundle, standIn, extra: extra)
    }

    /// `msgc state fetch` against the stand-in, with `extra` options.
    static func fetch(_ standIn: StandIn, out: URL, extra: [String] = []) throws -> MsgcRunner.Result {
        try MsgcRunner.run(["state", "fetch", "--environment", "sandbox", "--bundle-id", Self.bundleID, "--out", out.path,
                            "--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID, "--issuer-id", StandIn.issuerID,
                            "--api-base", standIn.base] + extra)
    }

    /// Runs msgc for at most `seconds` (then kills it): its exit status, or nil when it was
    /// still running. A regression that storms or hangs ends the test instead of the suite.
    static func runBounded(_ arguments: [String], seconds: Double) throws -> Int32? {
        let process = Process()
        process.executableURL = MsgcRunner.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return nil
    }

    /// The identifiers of the bundle's uploads of `operation`, in the manifest's order.
    static func identifiers(_ bundle: URL, _ operation: String) throws -> [(identifier: String, file: String)] {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as! [String: Any]
        return (manifest["operations"] as! [[String: Any]]).filter { $0["op"] as? String == operation }
            .map { ($0["identifier"] as! String, $0["file"] as! String) }
    }

    // MARK: - Issue 33: no request storm, whatever Retry-After says

    /// A 429 whose Retry-After is 0, negative, not a number or already past (the stand-in gives
    /// each in turn) waits a floor that doubles, and the waiting counts toward --max-wait: in a
    /// second of --max-wait, a list that answers only 429 is asked a handful of times, then
    /// msgc stops by itself with status 3 (the 30 s bound only ends a run that would not: the
    /// waits are counted, not the wall clock, so a loaded machine asks as often).
    @Test func aRetryAfterThatSaysNowStillWaits() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["rateLimit": ["listMessages": [100_000, "0|-5000|soon|past"]]])
        defer { standIn.stop() }
        let status = try Self.runBounded(
            ["state", "fetch", "--environment", "sandbox", "--bundle-id", Self.bundleID, "--out", folder.appendingPathComponent("s.json").path,
             "--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID, "--issuer-id", StandIn.issuerID, "--api-base", standIn.base,
             "--time-scale", "0.02", "--max-wait", "1s"], seconds: 30)
        let asked = try standIn.log().entries.filter { $0.endpoint == "listMessages" }.count
        #expect(asked >= 4 && asked <= 8, "\(asked) requests in the window")
        #expect(status == 3, "msgc did not stop by itself with status 3")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.json").path))
    }

    // MARK: - Issue 35: bounded waiting

    /// A Retry-After two hours on, beyond --max-wait: apply stops at once (one request to that
    /// endpoint, no sleep), with status 3, what is left and when Apple said to come back; a second
    /// run, once Apple's budget is back, carries on to the end.
    @Test func aRetryAfterBeyondMaxWaitStopsAtOnceAndASecondRunCarriesOn() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["rateLimit": ["uploadMessage": [100_000, "in:7200"]]])
        defer { standIn.stop() }
        let first = try Self.apply(bundle, standIn, extra: ["--max-wait", "10m"])
        #expect(first.status == 3, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains(" left"), "\(first.stdout)")
        #expect(first.stdout.contains("Apple's Upload Message limit asks msgc to come back at "), "\(first.stdout)")
        #expect(first.stdout.contains("beyond --max-wait"), "\(first.stdout)")
        #expect(try standIn.log().entries.filter { $0.endpoint == "uploadMessage" }.count == 1)

        try standIn.calm()
        let second = try Self.apply(bundle, standIn)
        #expect(second.status == 0, "\(second.stdout)")
        let log = try standIn.log()
        #expect(log.messages.count == 72 && log.defaults.count == 20)
    }

    // MARK: - Issue 35: tokens and 401

    /// A server whose clock is 30 s behind refuses a token issued at the client's now; msgc's
    /// tokens say they were issued a minute ago, so it takes them.
    @Test func aServerClockBehindTakesTheToken() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["clockBehind": 30])
        defer { standIn.stop() }
        let result = try Self.fetch(standIn, out: folder.appendingPathComponent("s.json"))
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Further behind than that: a 401 that names what the token was made of (never the key or
    /// the token), the clock as a cause, and this machine's UTC time.
    @Test func a401NamesTheIdsAndTheClock() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["clockBehind": 600])
        defer { standIn.stop() }
        let result = try Self.fetch(standIn, out: folder.appendingPathComponent("s.json"))
        #expect(result.status == 2)
        for part in ["(401)", "key id \(StandIn.keyID)", "issuer id \(StandIn.issuerID)", "bundle id \(Self.bundleID)", "clock", " UTC)"] {
            #expect(result.stderr.contains(part), "missing '\(part)': \(result.stderr)")
        }
        #expect(!result.stderr.contains("BEGIN") && !result.stderr.contains("eyJ"))
        #expect(try standIn.log().entries.count == 1)
    }

    // MARK: - Issue 35: lists as Apple's libraries read them

    /// `{}` lists (an app that never uploaded) and image items without imageSize (uploaded
    /// before API 1.4) are read; the images are held and not uploaded again, with no warning.
    @Test func listsWithoutMembersAreRead() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try StandIn(folder: folder, environment: "sandbox", extra: ["listShape": "bare"])
        let dry = try Self.apply(bundle, empty, extra: ["--dry-run"])
        empty.stop()
        #expect(dry.status == 0, "\(dry.stdout)")
        #expect(dry.stdout.contains("images: 6 to upload\nmessages: 72 to upload"), "\(dry.stdout)")

        let images = Dictionary(uniqueKeysWithValues: try Self.identifiers(bundle, "uploadImage").map { ($0.identifier, ["APPROVED", NSNull()] as [Any]) })
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["listShape": "bare", "preload": ["images": images]])
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("images: 0 uploaded, 6 already at Apple\nmessages: 72 uploaded\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("warning:"), "\(result.stdout)")
        #expect(try standIn.log().entries.filter { $0.endpoint == "uploadImage" }.isEmpty)
    }

    /// A size Apple lists that contradicts the bundle's is a warning (the image is held).
    @Test func aListedSizeThatContradictsTheBundleIsAWarning() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try #require(try Self.identifiers(bundle, "uploadImage").first)
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["preload": ["images": [image.identifier: ["APPROVED", "BULLET_POINT"]]]])
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn, extra: ["--dry-run"])
        #expect(result.stdout.contains("warning: Apple lists image ") && result.stdout.contains("as BULLET_POINT, but this bundle uploads it as FULL_SIZE"),
                "\(result.stdout)")
    }

    /// Identifiers that are not UUIDs, in Apple's lists: warned about and never used, neither in
    /// a request nor in the state file state fetch writes (so never in a manifest after it).
    @Test func identifiersThatAreNotUUIDsAreNeverUsed() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let hostile = "../default/com.example.parla.premium/en-US"
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["preload": ["messages": [hostile: "APPROVED"], "images": ["x%2f..": ["APPROVED", "FULL_SIZE"]]]])
        defer { standIn.stop() }
        let state = folder.appendingPathComponent("state.json")
        let fetch = try Self.fetch(standIn, out: state)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(fetch.stderr.contains("'\(hostile)' is not a UUID; msgc ignores this entry"), "\(fetch.stderr)")
        let written = try String(contentsOf: state, encoding: .utf8)
        #expect(!written.contains("..") && !written.contains("%"), "\(written)")
        // Beside the lists, the environment, the app and when they were read (the one clock value).
        let lines = written.split(separator: "\n", omittingEmptySubsequences: false)
        let fetchedAt = try #require(lines.first { $0.hasPrefix("  \"fetchedAt\": ") })
        #expect(fetchedAt.hasSuffix("Z\",") && fetchedAt.count == "  \"fetchedAt\": \"2026-11-28T04:45:15Z\",".count, "\(fetchedAt)")
        #expect(lines.filter { $0 != fetchedAt }.joined(separator: "\n")
            == "{\n  \"bundleId\": \"\(Self.bundleID)\",\n  \"environment\": \"sandbox\",\n  \"images\": {\n    \"imageIdentifiers\": []\n  },\n  \"messages\": {\n    \"messageIdentifiers\": []\n  }\n}\n")

        let result = try Self.apply(bundle, standIn)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("warning: Apple's lists: messages.messageIdentifiers[0].messageIdentifier '\(hostile)' is not a UUID"), "\(result.stdout)")
        #expect(try standIn.log().entries.allSatisfy { !$0.path.contains("..") })
    }

    /// The same in a state file given to build: the entry is left out of the manifest.
    @Test func aStateFileIdentifierThatIsNotAUUIDNeverReachesTheManifest() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.json")
        try Data(#"{"messages": {"messageIdentifiers": [{"messageIdentifier": "../default/PRODUCT/en-US", "messageState": "APPROVED"}]}, "images": {}}"#.utf8)
            .write(to: state)
        let out = folder.appendingPathComponent("bundle")
        let build = try MsgcRunner.run(["build", "--content", "content", "--environment", "sandbox", "--state", state.path, "--out", out.path, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("is not a UUID; msgc ignores this entry [STA004]"), "\(build.stderr)")
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(!manifest.contains("PRODUCT"))
    }

    // MARK: - Issue 35: a 409 that is not "done"

    /// Apple refuses an identifier with 409 but does not list it (deleted earlier): that upload
    /// fails on its own (exit 1), named, with the way out; what needs it is not sent.
    @Test func a409ForAnIdentifierAppleDoesNotListIsARefusal() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let burned = try #require(try Self.identifiers(bundle, "uploadMessage").first).identifier
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["burned": [burned]])
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("messages: 71 uploaded, 1 refused"), "\(result.stdout)")
        #expect(result.stdout.contains("Apple answered 409 for \(burned) but does not list it"), "\(result.stdout)")
        #expect(result.stdout.contains("docs/apply.md"), "\(result.stdout)")
        #expect(try standIn.log().defaults.values.allSatisfy { $0 != burned })
    }

    // MARK: - Issue 35: both lanes at once, order kept

    /// Images and messages upload at the same time, each at its endpoint's pace; no message
    /// reaches the stand-in before its images, no default before its message.
    @Test func bothLanesRunAtOnceAndKeepTheOrder() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        let result = try MsgcRunner.run(["apply", bundle.path, "--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID,
                                         "--issuer-id", StandIn.issuerID, "--api-base", standIn.base, "--time-scale", "0.005"])
        #expect(result.status == 0, "\(result.stdout)")
        let log = try standIn.log()
        #expect(log.outOfOrder == 0, "a message before its images or a default before its message")
        #expect(log.early == 0)
        let images = log.entries.filter { $0.endpoint == "uploadImage" }.map(\.time)
        let messages = log.entries.filter { $0.endpoint == "uploadMessage" }.map(\.time)
        let lastImage = try #require(images.max())
        #expect(messages.filter { $0 < lastImage }.count >= 2, "messages waited for every image: one lane at a time")
        #expect(log.messages.count == 72 && log.defaults.count == 20)
    }

    // MARK: - Issue 33: the bytes verified are the bytes sent

    /// A message file changed while apply runs is not sent: the run stops (exit 2) and says so.
    @Test func aBundleFileChangedDuringApplyStopsIt() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let last = try #require(try Self.identifiers(bundle, "uploadMessage").last)
        let path = bundle.appendingPathComponent(last.file).path
        let changed = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"header\": \"", with: "\"header\": \"Now ")
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["changeFile": [path, 1, changed]])
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn)
        #expect(result.status == 2, "\(result.stdout)")
        #expect(result.stdout.contains("the bundle changed during the run: '\(last.file)' changed after the bundle was verified"), "\(result.stdout)")
        #expect(try standIn.log().entries.allSatisfy { !$0.path.hasSuffix(last.identifier) })
    }

    // MARK: - Issue 33: --api-base

    /// Percent escapes, dot segments, user info, queries, plain http elsewhere: refused with a
    /// message and status 2, never a crash, before any request.
    @Test(arguments: [
        "http://127.0.0.1:9/a%20b", "http://127.0.0.1:9/%3F", "http://127.0.0.1:9/x%23y", "http://127.0.0.1:9/%2e%2e/evil",
        "http://127.0.0.1:9/../evil", "http://127.0.0.1:9/./x", "http://user:secret@127.0.0.1:9", "http://example.com",
        "ftp://127.0.0.1", "https://api.example.com/?q=1", "https://api.example.com#top", "https://[::1", "http://127.0.0.1:99999",
        "https://exa mple.com", "https://", "http://127.0.0.1:9//x",
    ])
    func aHostileAPIBaseIsRefused(base: String) throws {
        // Checked before the bundle is read or a key loaded.
        let result = try MsgcRunner.run(["apply", "/nonexistent-bundle", "--key-file", "/nonexistent.p8", "--key-id", "K", "--issuer-id", "I", "--api-base", base])
        #expect(result.status == 2, "\(base): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("--api-base"), "\(base): \(result.stderr)")
    }
}
