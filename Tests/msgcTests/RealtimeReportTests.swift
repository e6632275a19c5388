import ExperimentStore
import Foundation
import Testing
import TestSupport

/// `msgc realtime outcomes import` and `msgc realtime report` through the built executables:
/// a SQLite store holding the decisions of 300 subscribers over two weighted arms, notifications
/// signed by scripts/realtime-notifications.py for outcomes planted among them (with retries,
/// duplicates, another app's and lines that are not notifications), and a report that counts
/// exactly what was planted.
@Suite(.ownThreads, .enabled(if: StandIn.python != nil, "needs Python with cryptography (scripts/test.sh's venv)"))
struct RealtimeReportTests {
    static let product = "com.example.parla.plus.yearly"
    static let monthly = "com.example.parla.plus.monthly"
    static let offer = "plus.yearly.half_price"
    static let experiment = "go-monthly=1,half-price=2"
    /// 2026-10-26T… UTC: the first exposure; one subscriber a minute after it.
    static let start: Int64 = 1_793_000_000_000
    static let hour: Int64 = 3_600_000
    static let until = "2026-11-15T00:00:00Z"

    /// The store, the key and the planted notifications of one test.
    struct Experiment {
        var folder: URL
        var store: String
        var keyFile: String
        var planted: URL
        var root: String

        /// The subscriber of index `i` and their arm: two of three get half-price, as the weights say.
        static func otid(_ index: Int) -> String { String(3_000_000_000 + index) }
        static func arm(_ index: Int) -> String { index % 3 == 2 ? "go-monthly" : "half-price" }
    }

    static func makeExperiment() async throws -> Experiment {
        let folder = try MsgcRunner.temporaryFolder()
        let keyFile = folder.appendingPathComponent("subject.key")
        let keyBytes = (0..<32).map { UInt8($0 * 7 % 251) }
        try Data(keyBytes).write(to: keyFile)
        _ = chmod(keyFile.path, 0o600)
        let key = try SubjectKey(bytes: keyBytes)
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try ExperimentStore(url: .sqlite(path: path))
        _ = try await store.migrate()
        var decisions: [Decision] = []
        var plants: [[String: Any]] = []
        for index in 0..<300 {
            let arm = Experiment.arm(index)
            let time = start + Int64(index) * 60_000
            let subject = key.hash(originalTransactionId: Experiment.otid(index))
            let (kind, answer) = arm == "half-price" ? ("offer", offer) : ("product", monthly)
            func decision(_ at: Int64, _ assignment: Decision.Assignment, kind: String, answer: String) -> Decision {
                Decision(
                    timeMilliseconds: at, environment: "Production", requestId: "req-\(index)-\(at)", product: product, deviceLocale: "en-US",
                    answeringLocale: "en-US", experimentId: experiment, arms: experiment, bundleDigest: "sha256:test", arm: arm,
                    answerKind: kind, answer: answer, snapshotGeneration: 1, subject: subject, assignment: assignment)
            }
            decisions.append(decision(time, .first, kind: kind, answer: answer))
            // Every fifth comes back a day later, answered by their arm or, every tenth, by
            // another message (marked): neither changes their first exposure.
            if index % 5 == 0 {
                decisions.append(index % 10 == 0
                    ? decision(time + 24 * hour, .marked, kind: "message", answer: "plain")
                    : decision(time + 24 * hour, .sticky, kind: kind, answer: answer))
            }
            let otid = Experiment.otid(index)
            func plant(_ type: String, _ subtype: String?, at: Int64, _ extra: [String: Any] = [:]) {
                var entry: [String: Any] = ["originalTransactionId": otid, "type": type, "signedDate": at, "label": "\(index)-\(plants.count)"]
                if let subtype { entry["subtype"] = subtype }
                entry.merge(extra) { $1 }
                plants.append(entry)
            }
            if arm == "half-price" {
                switch index % 10 {
                case 0, 3: plant("OFFER_REDEEMED", "UPGRADE", at: time + 2 * hour, ["offerIdentifier": offer])
                case 1, 4: plant("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: time + 5 * hour, ["autoRenewStatus": 0])
                case 6:
                    // Cancelled and taken back within the window: stayed.
                    plant("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: time + 5 * hour, ["autoRenewStatus": 0])
                    plant("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", at: time + 6 * hour)
                case 7:
                    // Cancelled after the 48-hour window: stayed.
                    plant("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: time + 72 * hour, ["autoRenewStatus": 0])
                default: break
                }
            } else {
                switch index % 4 {
                case 0: plant("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", at: time + hour, ["autoRenewProductId": monthly])
                case 1: plant("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", at: time + 30 * hour, ["autoRenewStatus": 0])
                case 2: plant("SUBSCRIBED", "RESUBSCRIBE", at: time + hour)
                default: break
                }
            }
        }
        try await store.record(decisions: decisions)
        await store.close()
        // Retries (the same bytes again, and wrapped as Apple posts them), another app's, and
        // lines that are not notifications.
        plants.append(["originalTransactionId": Experiment.otid(1), "type": "DID_CHANGE_RENEWAL_STATUS", "subtype": "AUTO_RENEW_DISABLED",
                       "signedDate": start + 60_000 + 5 * hour, "label": "other-app", "bundleId": "com.example.other"])
        let plantFile = folder.appendingPathComponent("plant.json")
        try JSONSerialization.data(withJSONObject: plants, options: [.sortedKeys]).write(to: plantFile)
        let out = folder.appendingPathComponent("notifications")
        let script = MsgcRunner.packageRoot.appendingPathComponent("scripts/realtime-notifications.py").path
        let made = try MsgcRunner.run(
            [script, "--out", out.path, "--now", String(start), "--plant", plantFile.path], program: URL(fileURLWithPath: StandIn.python ?? "python3"))
        guard made.status == 0 else { throw ServeProcess.Failure(description: "realtime-notifications.py: \(made.stderr)") }
        var lines = try String(contentsOf: out.appendingPathComponent("planted.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        lines.insert(lines[0], at: 3)
        lines.append("{\"signedPayload\": \"\(lines[1])\"}\r")
        lines.append("")
        lines.append("not a notification")
        let planted = folder.appendingPathComponent("planted.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: planted)
        return Experiment(
            folder: folder, store: "sqlite:\(path)", keyFile: keyFile.path, planted: planted, root: out.appendingPathComponent("pki/root.der").path)
    }

    static func importArguments(_ experiment: Experiment, file: String) -> [String] {
        ["realtime", "outcomes", "import", file, "--store", experiment.store, "--subject-key", experiment.keyFile,
         "--bundle-id", "com.example.parla", "--environment", "production", "--app-apple-id", "1234567890",
         "--root-certificate", experiment.root]
    }

    @Test func theReportCountsExactlyWhatWasPlanted() async throws {
        let experiment = try await Self.makeExperiment()
        defer { try? FileManager.default.removeItem(at: experiment.folder) }
        let first = try MsgcRunner.run(Self.importArguments(experiment, file: experiment.planted.path))
        // Half-price: 20+20 offers, 20+20 cancellations, 20×2 taken back, 20 late: 140 lines;
        // go-monthly: 25 switches, 25 cancellations, 25 subscribed (not relevant); a retry of
        // line 1 as line 4, and of line 2 wrapped as line 218.
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stderr.hasSuffix("msgc: \(experiment.planted.path): 190 stored, 2 duplicates, 25 not relevant, 2 refused\n"), "\(first.stderr)")
        let refusals = first.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(refusals == [
            "\(experiment.planted.path):217: error: the notification is for another app [wrong-app]",
            "\(experiment.planted.path):220: error: the notification is not a JWS as Apple signs them [malformed-jws]",
        ], "\(first.stderr)")
        // Again: everything is there already.
        let again = try MsgcRunner.run(Self.importArguments(experiment, file: experiment.planted.path))
        #expect(again.stderr.hasSuffix(": 0 stored, 217 duplicates, 0 not relevant, 2 refused\n"), "\(again.stderr)")

        let report = try MsgcRunner.run(["realtime", "report", "--store", experiment.store, "--until", Self.until, "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let products = try #require(json["products"] as? [[String: Any]])
        #expect(products.count == 1)
        #expect(products.first?["product"] as? String == Self.product && products.first?["experiment"] as? String == Self.experiment)
        let arms = try #require(products.first?["arms"] as? [[String: Any]])
        func outcomes(_ message: String) -> [String: Int]? {
            arms.first { $0["message"] as? String == message }?["outcomes"] as? [String: Int]
        }
        func count(_ message: String, _ member: String) -> Int? {
            arms.first { $0["message"] as? String == message }?[member] as? Int
        }
        #expect(outcomes("half-price") == ["stayed": 120, "cancelled": 40, "offerRedeemed": 40, "switched": 0])
        #expect(outcomes("go-monthly") == ["stayed": 50, "cancelled": 25, "offerRedeemed": 0, "switched": 25])
        #expect(count("half-price", "subscribers") == 200 && count("go-monthly", "subscribers") == 100)
        #expect(count("half-price", "weight") == 2 && count("go-monthly", "weight") == 1)
        #expect(count("half-price", "markedExposures") == 20 && count("go-monthly", "markedExposures") == 10)
        #expect(arms.first { $0["message"] as? String == "half-price" }?["offerIdentifier"] as? String == Self.offer)
        #expect(arms.first { $0["message"] as? String == "go-monthly" }?["switchTo"] as? String == Self.monthly)

        // The same store gives the same bytes, with or without --until; --out writes them.
        let out = experiment.folder.appendingPathComponent("report.json")
        let written = try MsgcRunner.run(["realtime", "report", "--store", experiment.store, "--until", Self.until, "--format", "json", "--out", out.path])
        #expect(written.status == 0 && written.stdout.isEmpty)
        #expect(try String(contentsOf: out, encoding: .utf8) == report.stdout)
        let derived = try MsgcRunner.run(["realtime", "report", "--store", experiment.store, "--format", "json"])
        #expect(try MsgcRunner.run(["realtime", "report", "--store", experiment.store, "--format", "json"]).stdout == derived.stdout)
        #expect(derived.stdout != report.stdout)

        for format in ["table", "markdown", "html"] {
            let rendered = try MsgcRunner.run(["realtime", "report", "--store", experiment.store, "--until", Self.until, "--format", format])
            #expect(rendered.status == 0, "\(format): \(rendered.stderr)")
            #expect(rendered.stdout.contains("half-price") && rendered.stdout.contains("go-monthly"), "\(format)")
        }
        let html = try MsgcRunner.run(["realtime", "report", "--store", experiment.store, "--until", Self.until, "--format", "html"]).stdout
        #expect(html.lowercased().hasPrefix("<!doctype html>"))
        #expect(html.contains("<svg") && html.contains("</html>"))
        for fetched in ["<script", "src=", "href=\"http", "url(", "@import"] {
            #expect(!html.contains(fetched), "the page fetches or runs something: \(fetched)")
        }
        // --product of another product reports nothing.
        let none = try MsgcRunner.run(["realtime", "report", "--store", experiment.store, "--product", "com.example.none", "--format", "json"])
        #expect(none.status == 0 && none.stdout.contains("\"products\": []"), "\(none.stdout)")
    }

    @Test func usageAndStoreProblemsEndWithTwoAndOneLine() async throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("none.sqlite").path
        let cases: [([String], String)] = [
            (["realtime", "report", "--store", "sqlite:\(missing)"], "does not exist"),
            (["realtime", "report", "--store", "mysql://x"], "must start with sqlite:"),
            (["realtime", "report", "--store", "sqlite:\(missing)", "--window", "2w"], "--window '2w' is not a duration from 1m to 90d"),
            (["realtime", "report", "--store", "sqlite:\(missing)", "--window", "48"], "--window '48' is not a duration from 1m to 90d"),
            (["realtime", "report", "--store", "sqlite:\(missing)", "--since", "yesterday"], "--since 'yesterday' is not an ISO 8601 date"),
            (["realtime", "report", "--store", "sqlite:\(missing)", "--minimum-effect", "0"], "--minimum-effect 0"),
            (["realtime", "report", "--store", "sqlite:\(missing)", "--format", "pdf"], "pdf"),
            (["realtime", "outcomes", "import", "x.txt", "--store", "sqlite:\(missing)", "--subject-key", missing, "--bundle-id", "b",
              "--environment", "production"], "--app-apple-id"),
            (["realtime", "outcomes", "import", "x.txt", "--store", "sqlite:\(missing)", "--subject-key", missing, "--bundle-id", "b",
              "--environment", "sandbox"], "the subject key"),
        ]
        for (arguments, expected) in cases {
            let result = try MsgcRunner.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // A line far too long is refused without being kept whole; a file that is not there is a usage error.
        let key = folder.appendingPathComponent("k")
        try Data(repeating: 1, count: 32).write(to: key)
        _ = chmod(key.path, 0o600)
        let long = folder.appendingPathComponent("long.txt")
        try Data((String(repeating: "a", count: 200_000) + "\n\n").utf8).write(to: long)
        let store = "sqlite:" + folder.appendingPathComponent("s.sqlite").path
        let base = ["--store", store, "--subject-key", key.path, "--bundle-id", "b", "--environment", "sandbox"]
        let tooLong = try MsgcRunner.run(["realtime", "outcomes", "import", long.path] + base)
        #expect(tooLong.status == 1)
        #expect(tooLong.stderr.contains("\(long.path):1: error: the line has 200000 bytes; a notification has at most 65536 [line-too-long]"), "\(tooLong.stderr)")
        #expect(tooLong.stderr.hasSuffix(": 0 stored, 0 duplicates, 0 not relevant, 1 refused\n"), "\(tooLong.stderr)")
        let absent = try MsgcRunner.run(["realtime", "outcomes", "import", folder.appendingPathComponent("absent").path] + base)
        #expect(absent.status == 2 && absent.stderr.contains("cannot read"), "\(absent.stderr)")
        // A device is one endless line, refused before it is read (through a link too); a pipe is read.
        let link = folder.appendingPathComponent("zero")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/zero")
        for (path, kind) in [("/dev/zero", "a character device"), (link.path, "a character device"), (folder.path, "a folder")] {
            let refused = try MsgcRunner.run(["realtime", "outcomes", "import", path] + base)
            #expect(refused.status == 2 && refused.stderr == "msgc: '\(path)' is \(kind); give a file of notifications, one a line, or a pipe\n",
                    "\(refused.stderr)")
        }
        let piped = try MsgcRunner.run(
            ["-c", "printf 'x\\n' | \"$0\" \"$@\"", MsgcRunner.executable.path, "realtime", "outcomes", "import", "-"] + base,
            program: URL(fileURLWithPath: "/bin/sh"))
        #expect(piped.status == 1 && piped.stderr.contains("<stdin>:1: error:"), "\(piped.stderr)")
    }
}
