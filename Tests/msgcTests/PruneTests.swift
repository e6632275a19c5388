import Foundation
import Testing
import TestSupport

/// `msgc prune`, `msgc state fetch --defaults` and the drift they reveal, against the stand-in of
/// Apple's service (AppleStandIn/standin.py) with its delete and get-default endpoints.
@Suite(.ownThreads, .serialized, .enabled(if: StandIn.python != nil, "needs Python with PyJWT and cryptography (scripts/test.sh makes .build-venv)"))
struct PruneTests {
    /// One change a release makes to the example content.
    enum Edit {
        /// `from` replaced with `to` in `file` (which must hold `from`).
        case replace(_ file: String, _ from: String, _ to: String)
        /// The message `key` removed from `file`: its block, up to the next message.
        case removeMessage(_ file: String, key: String)
        /// `file` deleted.
        case delete(_ file: String)
    }

    /// The monthly plan's default message with only its English header edited: each translation
    /// of it goes stale.
    static let thanksEdited = Edit.replace("messages/plus/monthly.yaml", "header: Thanks for learning with us", "header: Thank you for learning with us")

    /// Release 2: `staleTranslations: withhold` and the monthly plan's thank-you header edited in
    /// English only (its six translated locales that stay, de-DE, es-MX, fr-FR, ja, pt-BR and
    /// zh-Hans, are withheld: `notShipped` with `withheld-stale`, and Apple keeps serving their
    /// default); ar-SA dropped from msgc.yaml (its two defaults and eight messages are no longer
    /// configured); the monthly plan's `new-courses` message removed (seven more messages).
    static let release2: [Edit] = [
        .replace("msgc.yaml", "minimumState: translated\n", "minimumState: translated\nstaleTranslations: withhold\n"),
        .replace("msgc.yaml", "zh-Hans, ar-SA]", "zh-Hans]"), .delete("translations/ar-SA.xliff"),
        thanksEdited,
        .removeMessage("messages/plus/monthly.yaml", key: "new-courses"),
    ]

    /// Release 3: release 2, and translations come back updated: the family plan's header edited in
    /// English with de-DE, fr-FR and es-MX translated anew (four new uploads, four old versions
    /// unused), and de-DE's thank-you translated again (it ships a new upload; the other five stay
    /// withheld).
    static let release3: [Edit] = release2 + [
        .replace("messages/family.yaml", "header: Keep learning together", "header: Keep learning, together"),
    ] + [("de-DE", "Gemeinsam weiterlernen", "Lernt gemeinsam weiter"), ("fr-FR", "Continuez à apprendre ensemble", "Continuez à apprendre, ensemble"),
         ("es-MX", "Sigan aprendiendo juntos", "Sigan aprendiendo, juntos")].flatMap { locale, from, to in
        [Edit.replace("translations/\(locale).xliff", "<source>Keep learning together</source>", "<source>Keep learning, together</source>"),
         Edit.replace("translations/\(locale).xliff", ">\(from)</target>", ">\(to)</target>")]
    } + [
        .replace("translations/de-DE.xliff", "<source>Thanks for learning with us</source>", "<source>Thank you for learning with us</source>"),
        .replace("translations/de-DE.xliff", ">Danke, dass du mit uns lernst</target>", ">Vielen Dank, dass du mit uns lernst</target>"),
    ]

    /// The three releases prune is tested with: the example content as it is, `release2`, `release3`.
    static let threeReleases: [[Edit]] = [[], release2, release3]

    /// The locales whose monthly thank-you release 2 withholds, and release 3 (de-DE's came back).
    static let withheld2 = ["de-DE", "es-MX", "fr-FR", "ja", "pt-BR", "zh-Hans"]
    static let withheld3 = ["es-MX", "fr-FR", "ja", "pt-BR", "zh-Hans"]
    static let monthly = "com.example.parla.plus.monthly"

    /// A bundle of the example content with each release's edits, for `environment`.
    static func releases(_ environment: String, _ scenario: [[Edit]] = threeReleases) throws -> (folder: URL, bundles: [URL], contents: [URL]) {
        let folder = try MsgcRunner.temporaryFolder()
        var bundles: [URL] = []
        var contents: [URL] = []
        for (index, release) in scenario.enumerated() {
            let content = folder.appendingPathComponent("content\(index + 1)")
            try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: content)
            for edit in release {
                switch edit {
                case .replace(let file, let from, let to):
                    let url = content.appendingPathComponent(file)
                    let text = try String(contentsOf: url, encoding: .utf8)
                    #expect(text.contains(from), "the example content changed: \(from)")
                    try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: url)
                case .removeMessage(let file, let key):
                    let url = content.appendingPathComponent(file)
                    let text = try String(contentsOf: url, encoding: .utf8)
                    let start = try #require(text.range(of: "  - key: \(key)\n"), "the example content changed: no \(key) in \(file)")
                    let end = text.range(of: "  - key: ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
                    try Data(text.replacingCharacters(in: start.lowerBound..<end, with: "").utf8).write(to: url)
                case .delete(let file):
                    try FileManager.default.removeItem(at: content.appendingPathComponent(file))
                }
            }
            let bundle = folder.appendingPathComponent("r\(index + 1)")
            let build = try MsgcRunner.run(["build", "--content", content.path, "--environment", environment, "--out", bundle.path, "--quiet"])
            #expect(build.status == 0, "\(build.stderr)")
            bundles.append(bundle)
            contents.append(content)
        }
        return (folder, bundles, contents)
    }

    static func manifest(_ bundle: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as! [String: Any]
    }

    /// The identifier of each locale's upload of `product`/`key` in a bundle.
    static func messages(_ bundle: URL, product: String = monthly, key: String = "thanks") throws -> [String: String] {
        var result: [String: String] = [:]
        for entry in try manifest(bundle)["operations"] as! [[String: Any]]
        where entry["op"] as? String == "uploadMessage" && entry["product"] as? String == product && entry["key"] as? String == key {
            result[entry["locale"] as! String] = entry["identifier"] as? String
        }
        return result
    }

    /// The bundle's `notShipped` entries as `PRODUCT/KEY in LOCALE (REASON)`, sorted.
    static func notShipped(_ bundle: URL) throws -> [String] {
        ((try manifest(bundle)["notShipped"] as? [[String: Any]]) ?? []).map {
            "\($0["product"] as! String)/\($0["key"] as! String) in \($0["locale"] as! String) (\($0["reason"] as! String))"
        }.sorted()
    }

    /// What prune prints for a withheld locale's monthly default, and for its message, `served`.
    static func keptLines(_ locale: String, served: String) -> [String] {
        let why = "this bundle does not ship \(monthly)/thanks in \(locale) (withheld-stale) although its sources configure it: Apple keeps showing this version meanwhile"
        return ["kept default of \(monthly) in \(locale): Apple serves \(served) there; \(why)",
                "kept message \(served): Apple serves it as the default of \(monthly) in \(locale), which stays: \(why)"]
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

    /// The lines of a run's output that start with `prefix`.
    static func lines(_ result: MsgcRunner.Result, _ prefix: String) -> [Substring] {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    static func deletes(_ log: StandIn.Log) -> [StandIn.Entry] { log.entries.filter { $0.method == "DELETE" } }

    /// Three releases applied, then prune from the last: it deletes what ar-SA, `new-courses` and
    /// the replaced versions left (2 defaults, 21 messages) and nothing else; the five locales whose
    /// thank-you is withheld keep their default and its message, each printed with why.
    @Test func afterThreeReleasesPruneDeletesWhatTheLastNoLongerUsesAndNothingElse() throws {
        let (folder, bundles, _) = try Self.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        for bundle in bundles { #expect(try ApplyTests.apply(bundle, standIn).status == 0) }
        let before = try standIn.log()
        #expect(try Self.notShipped(bundles[2]) == Self.withheld3.map { "\(Self.monthly)/thanks in \($0) (withheld-stale)" })
        // What is live although the last release does not ship it: the withheld locales' defaults, as r1 configured them.
        let thanks = try Self.messages(bundles[0])
        let live = Set(Self.withheld3.map { thanks[$0]! })
        for locale in Self.withheld3 { #expect(before.defaults["\(Self.monthly)/\(locale)"] == thanks[locale]) }
        let last = try Self.uploads(bundles[2])
        let earlier = try Self.uploads(bundles[0]).union(try Self.uploads(bundles[1]))
        let expected = earlier.subtracting(last).subtracting(live)
        #expect(live.isDisjoint(with: last))
        // ar-SA's 8, new-courses in the 7 other locales, the first English thank-you, de-DE's that came back, 4 of the family plan.
        #expect(expected.count == 21)
        #expect(expected.contains(thanks["de-DE"]!) && expected.contains(thanks["en-US"]!))

        let dryRun = try Self.prune(bundles[2], previous: [bundles[0], bundles[1]], standIn)
        #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(Self.deletes(try standIn.log()).isEmpty, "a dry run deleted something")
        #expect(dryRun.stdout.contains("dry run: 23 deletions (2 default configurations, 21 messages, 0 images)"), "\(dryRun.stdout)")
        #expect(Self.count(dryRun) == expected.count + 2, "\(dryRun.stdout)")
        for product in [Self.monthly, "com.example.parla.plus.yearly"] {
            #expect(dryRun.stdout.contains("would delete default of \(product) in ar-SA: "), "\(dryRun.stdout)")
        }
        for identifier in expected { #expect(dryRun.stdout.contains("would delete message \(identifier): message "), "\(identifier) is not planned") }
        #expect(dryRun.stdout.contains("which this bundle no longer uses"))
        for locale in Self.withheld3 {
            for line in Self.keptLines(locale, served: thanks[locale]!) { #expect(dryRun.stdout.contains(line), "\(dryRun.stdout)") }
            #expect(!dryRun.stdout.contains("would delete default of \(Self.monthly) in \(locale)"), "\(dryRun.stdout)")
        }
        #expect(Self.lines(dryRun, "kept ").count == 2 * Self.withheld3.count, "\(dryRun.stdout)")

        let run = try Self.prune(bundles[2], previous: [bundles[0], bundles[1]], standIn, extra: ["--confirm", "\(Self.count(dryRun) ?? -1)"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let log = try standIn.log()
        let lastMessages = Set(try ApplyAnswersTests.identifiers(bundles[2], "uploadMessage").map(\.identifier))
        #expect(Set(log.messages.keys) == lastMessages.union(live), "Apple holds other messages than the last release uses and the withheld locales show")
        #expect(log.defaults.count == (try Self.defaultCount(bundles[2])) + Self.withheld3.count)
        for locale in Self.withheld3 { #expect(log.defaults["\(Self.monthly)/\(locale)"] == thanks[locale], "the \(locale) default was taken away") }
        #expect(log.defaults["\(Self.monthly)/ar-SA"] == nil && log.defaults["com.example.parla.plus.yearly/ar-SA"] == nil)
        #expect(log.servedDeleted == 0)
        #expect(try ApplyTests.apply(bundles[2], standIn).stdout.contains("messages: 0 uploaded"), "prune deleted what the last release uses")
        let deleted = Self.deletes(log).filter { $0.status == "200" }.map(\.path)
        #expect(deleted.count == 23)
        #expect(Set(deleted).count == deleted.count, "something was deleted twice")
        #expect(deleted.allSatisfy { path in !last.union(live).contains { path.hasSuffix($0) } })
    }

    /// A kill -9 in the middle of deleting, then the same command again: it finishes the job and
    /// deletes nothing twice. The stand-in holds every delete after the second unanswered, so the
    /// kill comes after exactly two whatever the machine's load (a test that raced a paced prune
    /// once killed it after 12 at a load of 16); the third, let go after the kill, is the request
    /// Apple carried out for a client that never heard back.
    @Test func aKilledPruneResumesWithTheSameCommand() throws {
        let (folder, bundles, _) = try Self.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["holdAfter": ["deleteMessage": 2]])
        defer { standIn.stop() }
        for bundle in bundles.prefix(2) { #expect(try ApplyTests.apply(bundle, standIn).status == 0) }
        let dryRun = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        let confirmed = try #require(Self.count(dryRun), "\(dryRun.stdout)")
        // ar-SA's 2 defaults and 8 messages, new-courses in 7 locales, the first English thank-you.
        #expect(confirmed == 18, "\(dryRun.stdout)")
        let thanks = try Self.messages(bundles[0])

        let process = Process()
        process.executableURL = MsgcRunner.executable
        process.arguments = ["prune", bundles[1].path, "--previous", bundles[0].path, "--confirm", "\(confirmed)"] + Self.credentials(standIn)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The third delete reaches the stand-in and waits there: the prune is stuck on it.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline {
            if try standIn.log().entries.count(where: { $0.endpoint == "deleteMessage" }) >= 3 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try standIn.log().entries.count { $0.endpoint == "deleteMessage" && $0.status == "200" }
        #expect(partial == 2, "the kill came after \(partial) messages")
        try standIn.release()

        let rest = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(confirmed)"])
        #expect(rest.status == 0, "\(rest.stdout)\(rest.stderr)")
        let log = try standIn.log()
        let deleted = Self.deletes(log).filter { $0.status == "200" }.map(\.path)
        #expect(Set(deleted).count == deleted.count, "something was deleted twice")
        #expect(deleted.count == confirmed, "\(deleted.count) deleted of \(confirmed)")
        #expect(log.servedDeleted == 0)
        #expect(log.defaults.count == 18)
        for locale in Self.withheld2 { #expect(log.defaults["\(Self.monthly)/\(locale)"] == thanks[locale], "the \(locale) default was taken away") }
        let again = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        #expect(again.stdout.contains("dry run: 0 deletions"), "\(again.stdout)")
        for locale in Self.withheld2 {
            for line in Self.keptLines(locale, served: thanks[locale]!) { #expect(again.stdout.contains(line), "\(again.stdout)") }
        }
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
        #expect(confirmed == 18, "\(dryRun.stdout)")
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
    /// message, and so does a withheld locale's (even with --all-unreferenced); an image a message
    /// still uses is left and reported (403).
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

        // Before r2 is applied, Apple serves r1's thank-you message as a default r2 re-points: it stays,
        // as do the withheld locales' defaults and messages; what r2 no longer configures goes (ar-SA's
        // 2 defaults and 8 messages, new-courses in 7 locales).
        let dryRun = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        #expect(dryRun.stdout.contains("kept message \(served): Apple serves it as the default of com.example.parla.plus.monthly in en-US"), "\(dryRun.stdout)")
        #expect(Self.count(dryRun) == 17, "\(dryRun.stdout)")
        let thanks = try Self.messages(bundles[0])
        for locale in Self.withheld2 {
            for line in Self.keptLines(locale, served: thanks[locale]!) { #expect(dryRun.stdout.contains(line), "\(dryRun.stdout)") }
        }
        for identifier in foreign + [foreignImage] { #expect(!dryRun.stdout.contains(identifier), "\(identifier) would be deleted") }
        let run = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(Self.count(dryRun) ?? -1)"])
        #expect(run.status == 0, "\(run.stdout)")
        var log = try standIn.log()
        #expect(log.servedDeleted == 0, "a message Apple serves as a default was deleted")
        #expect(log.messages[served] != nil)
        for identifier in foreign { #expect(log.messages[identifier] != nil) }
        for locale in Self.withheld2 { #expect(log.messages[thanks[locale]!] != nil && log.defaults["\(Self.monthly)/\(locale)"] == thanks[locale]) }

        let wide = try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--all-unreferenced"])
        for identifier in foreign { #expect(wide.stdout.contains("would delete message \(identifier)"), "\(wide.stdout)") }
        for locale in Self.withheld2 { #expect(!wide.stdout.contains("would delete message \(thanks[locale]!)"), "\(wide.stdout)") }
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
        for locale in Self.withheld2 { #expect(log.messages[thanks[locale]!] != nil && log.defaults["\(Self.monthly)/\(locale)"] == thanks[locale]) }
    }

    /// state fetch --defaults records what Apple serves; a build and coverage of the next release
    /// against it warn of a default it re-points (STA009) and of defaults it no longer configures
    /// (STA010); prune deletes those only with --confirm, and keeps the withheld locales' defaults
    /// (STA010 too, but what those locales show until their translation comes back).
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
        // STA010: ar-SA's two defaults, no longer configured, and the six withheld locales' monthly
        // default, reported as what the locale shows while it waits (prune keeps those).
        #expect(build.stderr.components(separatedBy: "[STA010]").count - 1 == 8, "\(build.stderr)")
        #expect(build.stderr.components(separatedBy: "waits for its translation there (withheld-stale)").count - 1 == 6, "\(build.stderr)")
        let coverage = try MsgcRunner.run(["coverage", "--content", contents[1].path, "--environment", "sandbox", "--state", state.path])
        #expect(coverage.stderr.contains("[STA009]") && coverage.stderr.contains("[STA010]"), "\(coverage.stderr)")

        let dryRun = try Self.prune(bundles[1], previous: [bundles[0]], standIn)
        #expect(dryRun.stdout.contains("would delete default of com.example.parla.plus.monthly in ar-SA"), "\(dryRun.stdout)")
        #expect(Self.lines(dryRun, "would delete default of ").count == 2, "\(dryRun.stdout)")
        let served = try standIn.log().defaults
        for locale in Self.withheld2 {
            #expect(Self.keptLines(locale, served: served["\(Self.monthly)/\(locale)"]!).allSatisfy { dryRun.stdout.contains($0) }, "\(dryRun.stdout)")
        }
        #expect(served.count == 20, "a dry run deleted a default")
        #expect(try Self.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "\(Self.count(dryRun) ?? -1)"]).status == 0)
        let log = try standIn.log()
        #expect(log.defaults.count == 18 && log.defaults["com.example.parla.plus.monthly/ar-SA"] == nil, "\(log.defaults.keys.sorted())")
        for locale in Self.withheld2 { #expect(log.defaults["\(Self.monthly)/\(locale)"] == served["\(Self.monthly)/\(locale)"], "the \(locale) default was taken away") }

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
        // What the withheld locales show is kept: of r1's uploads r2 does not use, all but their thank-you.
        let thanks = try Self.messages(bundles[0])
        let withheld = Set(Self.withheld2.map { thanks[$0]! })
        let gone = try Self.uploads(bundles[0]).subtracting(try Self.uploads(bundles[1])).subtracting(withheld)
        #expect(gone.count == 16)
        #expect(text.stdout.contains("prune after applying the new bundle (`msgc prune NEW --previous OLD`): 2 default configurations, 16 messages, 0 images"), "\(text.stdout)")
        #expect(text.stdout.contains("kept by that prune although the new bundle does not use them: 12"), "\(text.stdout)")
        for locale in Self.withheld2 {
            for line in Self.keptLines(locale, served: thanks[locale]!) { #expect(text.stdout.contains("  \(line)\n"), "\(text.stdout)") }
        }
        let json = try MsgcRunner.run(["diff", bundles[0].path, bundles[1].path, "--format", "json"])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let prune = try #require(document["prune"] as? [[String: Any]])
        #expect(Set(prune.filter { $0["kind"] as? String == "message" }.compactMap { $0["identifier"] as? String }) == gone)
        let kept = try #require(document["pruneKept"] as? [[String: Any]])
        #expect(Set(kept.compactMap { $0["name"] as? String }) == Set(Self.withheld2.flatMap { ["default of \(Self.monthly) in \($0)", "message \(thanks[$0]!)"] }))
    }
}
