import Foundation
import TestSupport
import Testing

/// Issue 43: the release cycle as a team lives it, against the stand-in of Apple in production
/// (uploads wait for review until `/_standin/approve`): build, apply, state fetch, realtime
/// snapshot, prune; nothing live is deleted on the way.
@Suite(.ownThreads, .serialized, .enabled(if: StandIn.python != nil, "needs Python with PyJWT and cryptography (scripts/test.sh makes .build-venv)"))
struct LiveCycleTests {
    static let germanOffer = (from: "Dein nächstes Jahr", to: "Dein neues Jahr")

    static func fetch(_ standIn: StandIn, environment: String, out: URL) throws {
        let result = try MsgcRunner.run(["state", "fetch", "--environment", environment, "--bundle-id", ApplyTests.bundleID, "--out", out.path,
                                         "--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID, "--issuer-id", StandIn.issuerID,
                                         "--api-base", standIn.base, "--time-scale", "0.1"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    static func snapshot(_ bundle: URL, state: URL, out: URL, previous: URL? = nil) throws -> MsgcRunner.Result {
        try MsgcRunner.run(["realtime", "snapshot", bundle.path, "--state", state.path, "--out", out.path] + (previous.map { ["--previous", $0.path] } ?? []))
    }

    /// A release in production taken through review: apply, Apple approves, apply again (the
    /// defaults), state fetch, then the snapshot `name`.json (with `previous`, the one deployed).
    static func released(_ bundle: URL, _ standIn: StandIn, folder: URL, name: String, previous: URL? = nil) throws -> (snapshot: URL, result: MsgcRunner.Result) {
        _ = try ApplyTests.apply(bundle, standIn)
        try standIn.approve()
        #expect(try ApplyTests.apply(bundle, standIn).status == 0)
        let state = folder.appendingPathComponent("\(name)-state.json"), out = folder.appendingPathComponent("\(name).json")
        try fetch(standIn, environment: "production", out: state)
        let result = try snapshot(bundle, state: state, out: out, previous: previous)
        #expect(result.status == 0, "\(result.stderr)")
        return (out, result)
    }

    /// The German offer's identifier in a bundle.
    static func germanOffer(_ bundle: URL) throws -> String {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as! [String: Any]
        return (manifest["operations"] as! [[String: Any]]).first {
            $0["op"] as? String == "uploadMessage" && $0["key"] as? String == "offer-half-price" && $0["locale"] as? String == "de-DE"
        }!["identifier"] as! String
    }

    /// Issue 43 case 2 and the cycle (b): an edit of a message that is no default, with a snapshot
    /// deployed. apply exits 0 with the edit in review and says so; the snapshot answers with the
    /// approved previous version; prune keeps that version (with or without --snapshot) and says
    /// why; after approval the next snapshot answers with the new one and prune deletes the old.
    @Test func anEditInReviewKeepsItsApprovedPredecessorUntilApproval() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: content)
        let r1 = folder.appendingPathComponent("r1"), r2 = folder.appendingPathComponent("r2")
        #expect(try MsgcRunner.run(["build", "--content", content.path, "--environment", "production", "--out", r1.path, "--quiet"]).status == 0)
        let xliff = content.appendingPathComponent("translations/de-DE.xliff")
        let text = try String(contentsOf: xliff, encoding: .utf8)
        #expect(text.contains(Self.germanOffer.from))
        try Data(text.replacingOccurrences(of: Self.germanOffer.from, with: Self.germanOffer.to).utf8).write(to: xliff)
        #expect(try MsgcRunner.run(["build", "--content", content.path, "--environment", "production", "--out", r2.path, "--quiet"]).status == 0)
        let old = try Self.germanOffer(r1), new = try Self.germanOffer(r2)
        #expect(old != new)

        let standIn = try StandIn(folder: folder, environment: "production")
        defer { standIn.stop() }
        // Release 1: through review, its snapshot deployed.
        let s1 = try Self.released(r1, standIn, folder: folder, name: "s1").snapshot

        // Release 2: the edit waits for review; apply has nothing else to wait for, and says so.
        let applied = try ApplyTests.apply(r2, standIn)
        #expect(applied.status == 0, "\(applied.stdout)")
        #expect(applied.stdout.contains("1 upload of this bundle waits for Apple's review (1 message, 0 images)"), "\(applied.stdout)")
        #expect(applied.stdout.contains("msgc prune keeps those"), "\(applied.stdout)")
        let state2 = folder.appendingPathComponent("state2.json"), s2 = folder.appendingPathComponent("s2.json")
        try Self.fetch(standIn, environment: "production", out: state2)
        #expect(try Self.snapshot(r2, state: state2, out: s2, previous: s1).status == 0)
        #expect(try String(contentsOf: s2, encoding: .utf8).contains(old), "the snapshot does not answer with the approved version")

        for extra in [["--snapshot", s2.path], []] {
            let dryRun = try PruneTests.prune(r2, previous: [r1], standIn, extra: extra)
            #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
            #expect(!dryRun.stdout.contains("would delete message \(old)"), "prune would delete what Apple and the snapshot still show: \(dryRun.stdout)")
            #expect(dryRun.stdout.contains("kept message \(old): "), "\(dryRun.stdout)")
            #expect(dryRun.stdout.contains("1 kept until Apple approves its replacement"), "\(dryRun.stdout)")
            // The count confirms exactly what the dry run listed: nothing of the live version goes.
            let run = try PruneTests.prune(r2, previous: [r1], standIn, extra: extra + ["--confirm", "\(PruneTests.count(dryRun) ?? 0)"])
            #expect(run.status == 0, "\(run.stdout)")
            #expect(try standIn.log().messages[old] != nil, "prune deleted the approved version the snapshot answers with")
        }
        #expect(try standIn.log().servedDeleted == 0)

        // Approval: the next snapshot answers with the new version, and the next prune deletes the old.
        try standIn.approve()
        let state3 = folder.appendingPathComponent("state3.json"), s3 = folder.appendingPathComponent("s3.json")
        try Self.fetch(standIn, environment: "production", out: state3)
        #expect(try Self.snapshot(r2, state: state3, out: s3, previous: s2).status == 0)
        let deployed = try String(contentsOf: s3, encoding: .utf8)
        #expect(deployed.contains(new) && !deployed.contains(old))
        let after = try PruneTests.prune(r2, previous: [r1], standIn, extra: ["--snapshot", s3.path])
        #expect(after.stdout.contains("would delete message \(old)"), "\(after.stdout)")
        #expect(try PruneTests.prune(r2, previous: [r1], standIn, extra: ["--snapshot", s3.path, "--confirm", "\(PruneTests.count(after) ?? -1)"]).status == 0)
        #expect(try standIn.log().messages[old] == nil)
        #expect(try standIn.log().messages[new] != nil)
    }

    /// What a deployed snapshot answers with stays even when nothing else protects it: the
    /// previous snapshot still deployed while the next one is not yet rolled out.
    @Test func aDeployedSnapshotsAnswersAreKept() throws {
        let (folder, bundles, _) = try PruneTests.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        #expect(try ApplyTests.apply(bundles[0], standIn).status == 0)
        let state = folder.appendingPathComponent("state.json"), deployed = folder.appendingPathComponent("deployed.json")
        try Self.fetch(standIn, environment: "sandbox", out: state)
        #expect(try Self.snapshot(bundles[0], state: state, out: deployed).status == 0)
        #expect(try ApplyTests.apply(bundles[2], standIn).status == 0)
        let plain = try PruneTests.prune(bundles[2], previous: [bundles[0]], standIn)
        let guarded = try PruneTests.prune(bundles[2], previous: [bundles[0]], standIn, extra: ["--snapshot", deployed.path])
        let answered = try String(contentsOf: deployed, encoding: .utf8)
        let planned = plain.stdout.split(separator: "\n").filter { $0.hasPrefix("would delete message ") }.map { String($0.dropFirst(21).prefix(36)) }
        let live = planned.filter { answered.contains($0) }
        #expect(!live.isEmpty, "\(plain.stdout)")
        for identifier in live {
            #expect(!guarded.stdout.contains("would delete message \(identifier)"), "\(guarded.stdout)")
            #expect(guarded.stdout.contains("kept message \(identifier): the realtime snapshot \(deployed.path) answers with it"), "\(guarded.stdout)")
        }
        // A snapshot of another environment is refused before anything is asked of Apple.
        let production = folder.appendingPathComponent("production.json")
        try Data(answered.replacingOccurrences(of: "\"environment\": \"sandbox\"", with: "\"environment\": \"production\"").utf8).write(to: production)
        let refused = try PruneTests.prune(bundles[2], previous: [bundles[0]], standIn, extra: ["--snapshot", production.path])
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
    }

    /// Issue 44: Get Default Message answering 400 (InvalidLocaleError) for a pair is no answer:
    /// prune stops before deleting anything, and state fetch --defaults writes nothing.
    @Test func aDefaultApplesCannotReadStopsPruneAndStateFetch() throws {
        let (folder, bundles, _) = try PruneTests.releases("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["defaultReadErrors": ["com.example.parla.plus.monthly/de-DE": "InvalidLocale"]])
        defer { standIn.stop() }
        #expect(try ApplyTests.apply(bundles[0], standIn).status == 0)
        let served = try #require(try standIn.log().defaults["com.example.parla.plus.monthly/de-DE"])
        let dryRun = try PruneTests.prune(bundles[1], previous: [bundles[0]], standIn)
        #expect(dryRun.status == 2, "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("stopped: Get Default Message for com.example.parla.plus.monthly in de-DE was refused: HTTP 400 4000164"), "\(dryRun.stdout)")
        #expect(!dryRun.stdout.contains("would delete"), "\(dryRun.stdout)")
        let run = try PruneTests.prune(bundles[1], previous: [bundles[0]], standIn, extra: ["--confirm", "10"])
        #expect(run.status == 2, "\(run.stdout)")
        #expect(PruneTests.deletes(try standIn.log()).isEmpty, "prune deleted something after Apple's read failed")
        #expect(try standIn.log().messages[served] != nil)

        let state = folder.appendingPathComponent("state.json")
        let fetch = try ApplyAnswersTests.fetch(standIn, out: state, extra: ["--defaults", bundles[0].path, "--time-scale", "0.01"])
        #expect(fetch.status == 2, "\(fetch.stdout)\(fetch.stderr)")
        #expect(fetch.stderr.contains("4000164"), "\(fetch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state.path), "state fetch recorded a default it could not read")
    }

    /// Issue 43 case 1 and the cycle (a): only the English header of the monthly plan's default
    /// message is edited, so its translations are stale; with the default `staleTranslations:
    /// keep-previous` each translated locale ships its previous translation, the very upload and
    /// default configuration Apple already holds. Only English changes: reviewed, re-pointed, and
    /// its first version is what prune deletes; the translated locales keep their default and
    /// message at Apple through prune, and the snapshot keeps answering there. (With `withhold`,
    /// PruneTests covers what prune keeps.)
    @Test func aSourceOnlyEditTakesNothingFromTranslatedLocales() throws {
        let (folder, bundles, _) = try PruneTests.releases("production", [[], [PruneTests.thanksEdited]])
        defer { try? FileManager.default.removeItem(at: folder) }
        let r1 = bundles[0], r2 = bundles[1]
        let monthly = PruneTests.monthly
        let before = try PruneTests.messages(r1), after = try PruneTests.messages(r2)
        let translated = before.keys.filter { $0 != "en-US" }.sorted()
        #expect(translated.count == 7)
        #expect(after["en-US"] != nil && after["en-US"] != before["en-US"])
        // keep-previous: nothing waits, every translated locale ships the same upload as before.
        #expect(try PruneTests.notShipped(r2).isEmpty)
        for locale in translated { #expect(after[locale] == before[locale], "\(locale) does not ship its previous translation") }
        let diff = try MsgcRunner.run(["diff", r1.path, r2.path])
        #expect(diff.stdout.contains("prune after applying the new bundle (`msgc prune NEW --previous OLD`): 0 default configurations, 1 message, 0 images"), "\(diff.stdout)")

        let standIn = try StandIn(folder: folder, environment: "production")
        defer { standIn.stop() }
        let s1 = try Self.released(r1, standIn, folder: folder, name: "s1").snapshot
        let served = try standIn.log().defaults
        let (s2, snapshot) = try Self.released(r2, standIn, folder: folder, name: "s2", previous: s1)
        #expect(!snapshot.stdout.contains("no longer answered"), "the snapshot dropped answers: \(snapshot.stdout)")
        let answers = try String(contentsOf: s2, encoding: .utf8)
        for locale in translated { #expect(answers.contains(before[locale]!), "the snapshot no longer answers with the \(locale) thank-you") }
        #expect(try standIn.log().defaults["\(monthly)/en-US"] == after["en-US"], "apply did not re-point the English default")

        let dryRun = try PruneTests.prune(r2, previous: [r1], standIn, extra: ["--snapshot", s2.path])
        #expect(dryRun.status == 0, "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("dry run: 1 deletion (0 default configurations, 1 message, 0 images)"), "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("would delete message \(before["en-US"]!): "), "\(dryRun.stdout)")
        for locale in translated {
            #expect(!dryRun.stdout.contains("would delete default of \(monthly) in \(locale)"), "\(dryRun.stdout)")
            #expect(!dryRun.stdout.contains("would delete message \(before[locale]!)"), "\(dryRun.stdout)")
        }
        #expect(try PruneTests.prune(r2, previous: [r1], standIn, extra: ["--snapshot", s2.path, "--confirm", "\(PruneTests.count(dryRun) ?? -1)"]).status == 0)
        let log = try standIn.log()
        for locale in translated {
            #expect(log.defaults["\(monthly)/\(locale)"] == served["\(monthly)/\(locale)"], "the \(locale) default was taken away")
            #expect(log.defaults["\(monthly)/\(locale)"] == before[locale])
            #expect(log.messages[before[locale]!] != nil, "the \(locale) thank-you was deleted")
        }
        #expect(log.messages[before["en-US"]!] == nil)
        #expect(log.servedDeleted == 0)
    }
}

