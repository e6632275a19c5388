import Foundation
import Testing
import TestSupport

/// Issue 44: what a realtime snapshot trusts (offers, switchTo, types, billing plans, groups,
/// weights) is in the bundle's `realtime.json`, which the digest covers; an edit of the
/// manifest's copies is refused wherever the bundle is read, an edit of realtime.json fails the
/// digest, and `msgc diff` reports a change of these facts even when the uploads are the same.
@Suite(.ownThreads) struct RealtimeFactsCommandTests {
    /// The digest as README recomputes it: `sha256sum` over every file but manifest.json, sorted.
    static func recomputedDigest(_ bundle: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "find . -type f ! -name manifest.json | sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum | sha256sum"]
        process.currentDirectoryURL = URL(fileURLWithPath: bundle)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return "sha256:" + String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    static func manifestText(_ bundle: String) throws -> String {
        try String(contentsOfFile: bundle + "/manifest.json", encoding: .utf8)
    }

    /// The number of the first line where `edited` differs from `original`.
    static func firstChangedLine(_ original: String, _ edited: String) -> Int {
        let before = original.split(separator: "\n", omittingEmptySubsequences: false)
        let after = edited.split(separator: "\n", omittingEmptySubsequences: false)
        return zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }!.offset + 1
    }

    static func digest(in manifest: String) -> String {
        let start = manifest.range(of: "\"digest\": \"")!.upperBound
        return String(manifest[start...].prefix(71))
    }

    @Test func theBuildWritesRealtimeJSONAndTheDigestCoversIt() throws {
        let (_, bundle, _) = try RealtimeCommandTests().releasedExample()
        let text = try String(contentsOfFile: bundle + "/realtime.json", encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"format\": \"msgc-realtime-facts\",\n  \"formatVersion\": 1,\n  \"messages\": [\n    {\n"))
        #expect(text.hasSuffix("\n  ]\n}\n") && !text.contains("\t") && !text.contains("\\/"))
        // The facts the sources give, as the manifest has them.
        #expect(text.contains("\"offer\": \"plus.yearly.half_price\"") && text.contains("\"switchTo\": \"com.example.parla.plus.monthly\""))
        #expect(text.contains("\"group\": \"parla\"") && text.contains("\"choice\": \"first-usable\"") && text.contains("\"weight\": 1"))
        let manifest = try Self.manifestText(bundle)
        #expect(!manifest.contains("realtime.json"), "no entry lists it: it is no upload")
        #expect(Self.digest(in: manifest) == (try Self.recomputedDigest(bundle)))
        // Read strictly (canonical bytes included) and verified by every reader.
        let same = try MsgcRunner.run(["diff", bundle, bundle, "--exit-code"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("the bundles hold the same uploads and default configurations\n"))
    }

    /// Each realtime fact edited in manifest.json alone: the snapshot, `diff` and `apply` refuse
    /// the bundle, naming the manifest's line and the field, and nothing is written.
    @Test func aManifestFactEditedAloneIsRefusedWhereverTheBundleIsRead() throws {
        let (folder, bundle, state) = try RealtimeCommandTests().releasedExample(everythingApproved: true)
        let original = try Self.manifestText(bundle)
        let edits: [(field: String, from: String, to: String)] = [
            ("offer", "\"offer\": \"plus.yearly.half_price\"", "\"offer\": \"plus.yearly.free_forever\""),
            // Another product of the same group: the group check passes, realtime.json does not.
            ("switchTo", "\"switchTo\": \"com.example.parla.plus.monthly\"", "\"switchTo\": \"com.example.parla.family.yearly\""),
            ("messageType", "\"messageType\": \"promotional-offer\"", "\"messageType\": \"text\""),
            ("billingPlanType", "\"switchTo\": \"com.example.parla.plus.monthly\"", "\"billingPlanType\": \"BILLED_UPFRONT\",\n      \"switchTo\": \"com.example.parla.plus.monthly\""),
            ("realtime", "\"weight\": 1", "\"weight\": 1000"),
            ("group", "\"group\": \"parla\"", "\"group\": \"elsewhere\""),
        ]
        let out = folder.appendingPathComponent("snapshot.json").path
        for edit in edits {
            #expect(original.contains(edit.from), "\(edit.from)")
            let edited = original.replacingOccurrences(of: edit.from, with: edit.to)
            try edited.write(toFile: bundle + "/manifest.json", atomically: true, encoding: .utf8)
            let line = Self.firstChangedLine(original, edited)
            let snapshot = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
            #expect(snapshot.status == 2, "\(edit.field): \(snapshot.stderr)")
            #expect(snapshot.stderr.contains("manifest.json:\(line):") && snapshot.stderr.contains("\"\(edit.field)\"")
                && snapshot.stderr.contains("realtime.json, which the digest covers"), "\(edit.field): \(snapshot.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            let diff = try MsgcRunner.run(["diff", bundle, bundle])
            #expect(diff.status == 2 && diff.stderr.contains("manifest.json:\(line):"), "\(edit.field): \(diff.stderr)")
        }
        // A message's `requires` (the images the snapshot judges approved) emptied: its body,
        // which the digest covers, shows them.
        var document = try JSONSerialization.jsonObject(with: Data(original.utf8)) as! [String: Any]
        var operations = document["operations"] as! [[String: Any]]
        let index = try #require(operations.firstIndex { $0["op"] as? String == "uploadMessage" && !(($0["requires"] as? [Any]) ?? []).isEmpty })
        operations[index]["requires"] = [String]()
        document["operations"] = operations
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted]).write(to: URL(fileURLWithPath: bundle + "/manifest.json"))
        let requires = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
        #expect(requires.status == 2 && requires.stderr.contains("requires [], but its body shows the images ["), "\(requires.stderr)")
        // Put back, the bundle reads again.
        try original.write(toFile: bundle + "/manifest.json", atomically: true, encoding: .utf8)
        #expect(try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out]).status == 0)
    }

    /// realtime.json edited: alone, its manifest's copies differ; together with the manifest
    /// (the same edit in both), the digest no longer matches. Either way nothing is signed.
    @Test func anEditedRealtimeJSONFailsTheDigest() throws {
        let (folder, bundle, state) = try RealtimeCommandTests().releasedExample(everythingApproved: true)
        let out = folder.appendingPathComponent("snapshot.json").path
        let facts = try String(contentsOfFile: bundle + "/realtime.json", encoding: .utf8)
        let manifest = try Self.manifestText(bundle)
        let from = "\"offer\": \"plus.yearly.half_price\""
        let to = "\"offer\": \"plus.yearly.free_forever\""
        try facts.replacingOccurrences(of: from, with: to).write(toFile: bundle + "/realtime.json", atomically: true, encoding: .utf8)
        let alone = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
        #expect(alone.status == 2 && alone.stderr.contains("\"offer\" of message"), "\(alone.stderr)")
        try manifest.replacingOccurrences(of: from, with: to).write(toFile: bundle + "/manifest.json", atomically: true, encoding: .utf8)
        for arguments in [["realtime", "snapshot", bundle, "--state", state, "--out", out], ["diff", bundle, bundle]] {
            let both = try MsgcRunner.run(arguments)
            #expect(both.status == 2, "\(both.stderr)")
            #expect(both.stderr.contains("is damaged: its files do not match the manifest's digest"), "\(both.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        // Larger than any JSON msgc writes, or not JSON at all: refused before anything is trusted.
        try Data("not json".utf8).write(to: URL(fileURLWithPath: bundle + "/realtime.json"))
        let garbage = try MsgcRunner.run(["diff", bundle, bundle])
        #expect(garbage.status == 2 && garbage.stderr.contains("realtime.json:1:") && garbage.stderr.contains("not valid JSON"), "\(garbage.stderr)")
    }

    /// A bundle with products but no realtime.json, as an earlier msgc wrote it (its digest over
    /// the files it has): it verifies and diffs, but the snapshot says to build it again.
    @Test func aBundleWithoutRealtimeJSONIsRefusedByTheSnapshotOnly() throws {
        let (folder, bundle, state) = try RealtimeCommandTests().releasedExample(everythingApproved: true)
        let out = folder.appendingPathComponent("snapshot.json").path
        let current = folder.appendingPathComponent("current").path
        try FileManager.default.copyItem(atPath: bundle, toPath: current)
        try FileManager.default.removeItem(atPath: bundle + "/realtime.json")
        // Deleted alone: the digest no longer matches.
        let damaged = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
        #expect(damaged.status == 2 && damaged.stderr.contains("do not match the manifest's digest"), "\(damaged.stderr)")
        // With the digest an earlier msgc computed.
        let manifest = try Self.manifestText(bundle)
        try manifest.replacingOccurrences(of: Self.digest(in: manifest), with: try Self.recomputedDigest(bundle))
            .write(toFile: bundle + "/manifest.json", atomically: true, encoding: .utf8)
        let older = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
        #expect(older.status == 2)
        #expect(older.stderr.contains("has no realtime.json (an earlier msgc wrote it)") && older.stderr.contains("build it again with this msgc"), "\(older.stderr)")
        #expect(older.stderr.split(separator: "\n").count == 1, "one line: \(older.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // The same uploads and the same facts: only the digests differ.
        let diff = try MsgcRunner.run(["diff", bundle, current, "--exit-code"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("the bundles hold the same uploads and default configurations\n"), "\(diff.stdout)")
    }

    /// Two builds whose sources differ only in an offer's identifier and the realtime weights:
    /// the same uploads, and `msgc diff` says which facts differ (text and JSON), exit 1 with
    /// --exit-code.
    @Test func diffReportsRealtimeFactsWhenTheUploadsAreTheSame() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        let content = try DiffTests.exampleCopy(in: scratch)
        let weighted = "    realtime: [{message: offer-half-price, weight: 3}, {message: winback, weight: 1}]"
        try DiffTests.edit(content.appendingPathComponent("msgc.yaml")) {
            $0.replacingOccurrences(of: "    realtime: [offer-half-price, switch-monthly, winback]", with: weighted)
        }
        let old = scratch.appendingPathComponent("old")
        try DiffTests.build(content, to: old, release: "1.0")
        try DiffTests.edit(content.appendingPathComponent("msgc.yaml")) { $0.replacingOccurrences(of: "weight: 3}", with: "weight: 2}") }
        try DiffTests.edit(content.appendingPathComponent("messages/plus/yearly.yaml")) {
            $0.replacingOccurrences(of: "offer: plus.yearly.half_price", with: "offer: plus.yearly.half_price_2027")
        }
        let new = scratch.appendingPathComponent("new")
        try DiffTests.build(content, to: new, release: "1.0")

        let text = try MsgcRunner.run(["diff", old.path, new.path, "--exit-code"])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout.contains("\nrealtime facts (what a snapshot of the new bundle answers and signs)\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  com.example.parla.plus.yearly  realtime 'offer-half-price:3, winback:1' → 'offer-half-price:2, winback:1'\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  com.example.parla.plus.yearly  de-DE  message offer-half-price: offer 'plus.yearly.half_price' → 'plus.yearly.half_price_2027'\n"), "\(text.stdout)")
        #expect(text.stdout.contains("messages: 0 new, 0 gone, 0 changed,"), "\(text.stdout)")
        #expect(text.stdout.contains("the bundles hold the same uploads and default configurations, but not the same realtime facts\n"), "\(text.stdout)")
        let locales = text.stdout.split(separator: "\n").filter { $0.contains("message offer-half-price: offer") }.count
        #expect(locales >= 2, "one line per locale that ships it: \(text.stdout)")
        #expect(text.stdout.components(separatedBy: "realtime facts: \(locales + 1) changed\n").count == 2, "\(text.stdout)")

        let json = try MsgcRunner.run(["diff", old.path, new.path, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let realtime = document["realtime"] as! [[String: Any]]
        #expect(realtime.count == locales + 1)
        #expect(realtime.first.map { $0["field"] as? String == "realtime" && $0["locale"] is NSNull && $0["old"] as? String == "offer-half-price:3, winback:1" } == true)
        #expect(realtime.contains { $0["field"] as? String == "offer" && $0["key"] as? String == "offer-half-price" && $0["new"] as? String == "plus.yearly.half_price_2027" })
        #expect((document["messages"] as! [Any]).isEmpty)
    }
}
