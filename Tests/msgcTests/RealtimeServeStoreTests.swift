import Foundation
import Testing
import TestSupport

/// `msgc realtime serve --store sqlite:…`, run as built: the decision log, sticky arms, the
/// notifications endpoint and a store that stops answering. The store is read back with the
/// sqlite3 command-line tool, an opinion other than msgc's own.
@Suite(
    .ownThreads, .serialized,
    .enabled(if: StandIn.python != nil, "needs Python with cryptography (scripts/test.sh's venv)"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 command-line tool"))
struct RealtimeServeStoreTests {
    static let product = "com.example.parla.plus.yearly"
    static let experiment = "offer-half-price=1,switch-monthly=1,winback=1"

    /// The served fixture with its plus.yearly product split by weight over its three arms, a
    /// subject key and a store path.
    struct Fixture {
        var base: RealtimeServeTests.Fixture
        var store: String
        var key: URL

        init(count: Int) throws {
            base = try RealtimeServeTests.Fixture(count: count)
            var snapshot = try JSONSerialization.jsonObject(with: Data(contentsOf: base.snapshot)) as! [String: Any]
            var products = snapshot["products"] as! [[String: Any]]
            for index in products.indices where products[index]["id"] as? String == RealtimeServeStoreTests.product {
                products[index]["choice"] = "weighted"
                products[index]["realtime"] = ["offer-half-price", "switch-monthly", "winback"].map { ["message": $0, "weight": 1] }
            }
            snapshot["products"] = products
            try JSONSerialization.data(withJSONObject: snapshot, options: [.sortedKeys]).write(to: base.snapshot)
            store = base.folder.appendingPathComponent("store/experiments.sqlite").path
            try FileManager.default.createDirectory(
                at: base.folder.appendingPathComponent("store"), withIntermediateDirectories: true)
            key = base.folder.appendingPathComponent("subject.key")
            try Data((0..<32).map { UInt8(($0 * 37 + 11) % 256) }).write(to: key)
            chmod(key.path, 0o600)
        }

        /// A generous deadline for settling arms: on a loaded test machine 5 ms passes often, and
        /// this suite checks stickiness, not the fallback (which the locked store's test does).
        var options: [String] {
            base.options + ["--store", "sqlite:" + store, "--subject-key", key.path, "--assignment-deadline-ms", "2000"]
        }

        func start(_ extra: [String] = []) throws -> ServeProcess {
            try ServeProcess(options + extra, folder: base.folder)
        }

        /// The first column of each row `sql` selects.
        func query(_ sql: String) throws -> [String] {
            let result = try RealtimeServeStoreTests.run("/usr/bin/sqlite3", [store, sql])
            return result.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }

        /// Every byte of the store (the database and its WAL).
        func storeBytes() throws -> Data {
            var bytes = Data()
            for suffix in ["", "-wal", "-journal"] where FileManager.default.fileExists(atPath: store + suffix) {
                bytes += try Data(contentsOf: URL(fileURLWithPath: store + suffix))
            }
            return bytes
        }

        /// The subject hash the server keeps for `originalTransactionId` (Python's HMAC).
        func subjectHash(_ originalTransactionId: String) throws -> String {
            try RealtimeServeStoreTests.run(StandIn.python!, [
                "-c", "import hmac,hashlib,sys; print(hmac.new(open(sys.argv[1],'rb').read(), sys.argv[2].encode(), hashlib.sha256).hexdigest())",
                key.path, originalTransactionId,
            ]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ServeProcess.Failure(description: "\(executable) \(arguments) failed") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The originalTransactionId and requestIdentifier of a request body.
    static func ids(_ body: [UInt8]) -> (originalTransactionId: String, requestIdentifier: String) {
        let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        let claims = (object?["signedPayload"] as? String).flatMap(RealtimeServeTests.claims) ?? [:]
        return (claims["originalTransactionId"] as? String ?? "", claims["requestIdentifier"] as? String ?? "")
    }

    static func metric(_ port: Int, _ series: String) -> Double? {
        guard let response = LoopbackHTTP.exchange(port: port, LoopbackHTTP.request("GET", "/metrics")) else { return nil }
        let text = String(decoding: response.body, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// Many subscribers through the server: every decision is in the store when SIGTERM's exit
    /// comes, each subscriber keeps their first arm after a restart (and an arm recorded
    /// beforehand wins over the hash), and no originalTransactionId is in the store's bytes.
    @Test func decisionsAreRecordedAndArmsStickAcrossARestart() throws {
        let fixture = try Fixture(count: 60)
        let bodies = try fixture.base.loadBodies()
        let ids = bodies.map(Self.ids)
        // Five subscribers hold an arm before their first request, as another server would have
        // settled it: they must get it wherever it is usable.
        let server = try fixture.start()
        let seeded = ids.prefix(5).map(\.originalTransactionId)
        for otid in seeded {
            _ = try fixture.query(
                "INSERT INTO assignments (experiment_id, subject_hash, arm, first_time_ms) VALUES ('\(Self.experiment)', '\(try fixture.subjectHash(otid))', 'winback', 1)")
        }
        for body in bodies {
            let response = RealtimeServeTests.post(server.port, body)
            #expect(response?.status == 200 || response?.status == 404, "\(String(describing: response?.status))")
        }
        #expect(server.stop() == 0)
        // SIGTERM lost nothing queued.
        #expect(try fixture.query("SELECT COUNT(*) FROM decisions") == ["60"])
        #expect(try fixture.query("SELECT COUNT(DISTINCT subject_hash) FROM decisions") == ["60"])
        let lines = try server.logLines()
        var first: [String: String] = [:]
        for line in lines {
            if let request = line["requestIdentifier"] as? String { first[request] = line["message"] as? String ?? "none" }
        }
        // The seeded subscribers got winback where it is usable, else a marked answer.
        let seededRequests = Set(ids.prefix(5).map(\.requestIdentifier))
        for line in lines where seededRequests.contains(line["requestIdentifier"] as? String ?? "") {
            // No assignment: none of the arms is usable in the request's locale.
            guard let assignment = line["assignment"] as? String else { continue }
            #expect((line["message"] as? String == "winback" && assignment == "sticky") || assignment == "marked", "\(line)")
        }
        let assignmentsFirst = try fixture.query("SELECT COUNT(*) FROM decisions WHERE assignment = 'first'")
        #expect(assignmentsFirst.first.flatMap { Int($0) }.map { $0 > 0 } == true)

        // Again, after a restart: the same arms, now all sticky or marked.
        let again = try fixture.start()
        for body in bodies { _ = RealtimeServeTests.post(again.port, body) }
        #expect(again.stop() == 0)
        let answeredAgain = try again.logLines()
        #expect(answeredAgain.count == ids.count)
        for line in answeredAgain {
            let request = line["requestIdentifier"] as? String ?? ""
            #expect(first[request] == line["message"] as? String ?? "none", "\(line)")
        }
        #expect(try fixture.query("SELECT COUNT(*) FROM decisions") == ["120"])
        #expect(try fixture.query("SELECT COUNT(*) FROM decisions WHERE time_ms > 1 AND assignment IN ('first', 'hashed') AND rowid > 60") == ["0"])
        let armsByDecision = try fixture.query(
            "SELECT COUNT(*) FROM decisions d JOIN assignments a ON a.subject_hash = d.subject_hash AND a.experiment_id = d.experiment_id WHERE d.arm <> a.arm")
        #expect(armsByDecision == ["0"])

        // No originalTransactionId in clear, anywhere in the store's bytes; nor in the log.
        let bytes = try fixture.storeBytes()
        let log = try Data(contentsOf: server.logFile) + Data(contentsOf: again.logFile)
        for id in ids {
            #expect(bytes.range(of: Data(id.originalTransactionId.utf8)) == nil, "\(id.originalTransactionId) is in the store")
            #expect(log.range(of: Data(id.originalTransactionId.utf8)) == nil, "\(id.originalTransactionId) is in the log")
        }
    }

    /// Apple's notifications (scripts/realtime-notifications.py): each valid one answered 200 and
    /// stored once, even when posted twice; another app's refused with a 4xx and not stored; the
    /// path is unknown without a store.
    @Test func notificationsAreStoredOnceAndAnotherAppsRefused() throws {
        let fixture = try Fixture(count: 0)
        let folder = fixture.base.folder.appendingPathComponent("notifications")
        _ = try Self.run(StandIn.python!, [
            MsgcRunner.packageRoot.appendingPathComponent("scripts/realtime-notifications.py").path,
            "--out", folder.path, "--now", String(Int64(Date().timeIntervalSince1970 * 1000)), "--no-apple",
        ])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json"))) as! [String: Any]
        let entries = manifest["notifications"] as! [[String: Any]]
        let server = try fixture.start(["--root-certificate", folder.appendingPathComponent("pki/root.pem").path])
        func post(_ name: String) throws -> Int? {
            let entry = entries.first { $0["name"] as? String == name }!
            let body = try [UInt8](Data(contentsOf: folder.appendingPathComponent(entry["file"] as! String)))
            return LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("POST", "/notifications", body: body))?.status
        }
        let subscriptions = ["offer-redeemed", "auto-renew-disabled", "renewal-pref-downgrade", "expired-voluntary"]
        for name in subscriptions {
            #expect(try post(name) == 200, "\(name)")
            #expect(try post(name) == 200, "\(name), again")
        }
        #expect(try post("test") == 200)
        for name in ["other-bundle-id", "other-environment", "bad-signature"] {
            let status = try post(name)
            #expect(status.map { (400..<500).contains($0) } == true, "\(name): \(String(describing: status))")
        }
        #expect(Self.metric(server.port, #"msgc_experiment_notifications_total{outcome="duplicate"}"#) == 4)
        #expect(server.stop() == 0)
        #expect(try fixture.query("SELECT COUNT(*) FROM notifications") == ["4"])
        #expect(try fixture.query("SELECT COUNT(*) FROM notifications WHERE is_relevant = 1") == ["3"])
        let bytes = try fixture.storeBytes()
        #expect(bytes.range(of: Data("com.example.other".utf8)) == nil)
        #expect(bytes.range(of: Data("eyJ".utf8)) == nil, "a signed payload is in the store")

        // Without --store the path is any unknown path.
        let plain = try fixture.base.start()
        #expect(LoopbackHTTP.exchange(port: plain.port, LoopbackHTTP.request("POST", "/notifications", body: [0x7B, 0x7D]))?.status == 404)
        #expect(plain.stop() == 0)
    }

    /// A store that stops taking writes (another process holds SQLite's write lock): every
    /// request is still answered as without a store, arms come from the hash, decisions are
    /// counted as lost and said once, notifications get 503 so that Apple retries.
    @Test func aLockedStoreNeverFailsAnAnswerAndCountsTheLoss() throws {
        let fixture = try Fixture(count: 20)
        let bodies = try fixture.base.loadBodies()
        // No retries: this test is about the loss (PostgreSQLOutageTests shows the retries).
        let server = try fixture.start(["--assignment-deadline-ms", "50", "--decision-retries", "0"])
        // The store exists once the server listens (migrated at start).
        let lock = try SQLiteLock(fixture.store)
        for body in bodies {
            let status = RealtimeServeTests.post(server.port, body)?.status
            #expect(status == 200 || status == 404, "\(String(describing: status))")
        }
        #expect(ServeProcess.wait(upTo: 30) {
            (Self.metric(server.port, #"msgc_experiment_decisions_lost_total{reason="store"}"#) ?? 0) > 0
        })
        #expect((Self.metric(server.port, #"msgc_experiment_exposures_total{assignment="hashed"}"#) ?? 0) > 0)
        let stderr = server.stderr
        #expect(stderr.components(separatedBy: "the decision log lost").count == 2, "\(stderr)")
        // Released: the server goes on recording.
        lock.release()
        for body in bodies.prefix(3) { _ = RealtimeServeTests.post(server.port, body) }
        #expect(server.stop() == 0)
        let recorded = try fixture.query("SELECT COUNT(*) FROM decisions").first.flatMap { Int($0) } ?? 0
        #expect(recorded >= 3)
    }

    /// An outage longer than the decision log's retries (`--decision-retries 2`: tried again
    /// after 0.5 s and 1 s, each attempt waiting 2 s for SQLite's lock): every request is still
    /// answered, the batch the store never took is lost, counted in
    /// msgc_experiment_decisions_lost_total{reason="store"} and said once (the retries too), and
    /// once the store is back recording resumes: each decision is then in the store once or
    /// counted lost, and every one made after the outage is in the store.
    @Test func anOutageLongerThanTheRetriesCountsTheLossOnceAndRecordingResumes() throws {
        let fixture = try Fixture(count: 30)
        let bodies = try fixture.base.loadBodies()
        let server = try fixture.start(["--assignment-deadline-ms", "50", "--decision-retries", "2"])
        func answer(_ wave: ArraySlice<[UInt8]>) {
            for body in wave {
                let status = RealtimeServeTests.post(server.port, body)?.status
                #expect(status == 200 || status == 404, "\(String(describing: status))")
            }
        }
        let lost = #"msgc_experiment_decisions_lost_total{reason="store"}"#
        let lock = try SQLiteLock(fixture.store)
        answer(bodies[0..<10])
        #expect(ServeProcess.wait(upTo: 40) { (Self.metric(server.port, lost) ?? 0) > 0 }, "\(server.stderr)")
        #expect((Self.metric(server.port, "msgc_experiment_decision_retries_total") ?? 0) >= 2)
        // Still down: still answered.
        answer(bodies[10..<20])
        #expect((Self.metric(server.port, #"msgc_experiment_exposures_total{assignment="hashed"}"#) ?? 0) > 0)
        lock.release()
        answer(bodies[20..<30])
        // Every decision written or counted lost (the second wave's batch may have been either).
        #expect(ServeProcess.wait(upTo: 40) {
            (Self.metric(server.port, "msgc_experiment_decisions_recorded_total") ?? 0) + (Self.metric(server.port, lost) ?? 0) == 30
        })
        let lostCount = Int(Self.metric(server.port, lost) ?? -1)
        #expect(lostCount >= 1 && lostCount <= 20)
        #expect(server.stop() == 0)
        let stderr = server.stderr
        #expect(stderr.components(separatedBy: "the decision log lost").count == 2, "\(stderr)")
        #expect(stderr.components(separatedBy: "are tried again").count == 2, "\(stderr)")
        #expect(try fixture.query("SELECT COUNT(*) FROM decisions") == [String(30 - lostCount)])
        #expect(try fixture.query("SELECT COUNT(DISTINCT decision_id) FROM decisions") == [String(30 - lostCount)])
        let after = bodies[20..<30].map { "'\(Self.ids($0).requestIdentifier)'" }.joined(separator: ", ")
        #expect(try fixture.query("SELECT COUNT(*) FROM decisions WHERE request_id IN (\(after))") == ["10"])
    }

    /// Another process holding SQLite's write lock on the store (the sqlite3 tool, in an
    /// exclusive transaction): the SQLite store's "down", until `release`.
    final class SQLiteLock {
        let process = Process()
        let input = Pipe()

        init(_ store: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [store]
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nINSERT INTO schema_version (version) VALUES (999);\nSELECT 'locked';\n".utf8))
            let said = Locked("")
            output.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil } else { said.withLock { $0 += String(decoding: data, as: UTF8.self) } }
            }
            guard ServeProcess.wait(upTo: 10, for: { said.withLock { $0.contains("locked") } }) else {
                process.terminate()
                throw ServeProcess.Failure(description: "sqlite3 did not take the lock")
            }
        }

        func release() {
            guard process.isRunning else { return }
            input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        deinit { release() }
    }

    /// --store without --subject-key, and a store that cannot be opened, exit 2 before listening.
    @Test func aStoreWithoutItsKeyOrThatCannotBeOpenedExitsTwo() throws {
        let fixture = try Fixture(count: 0)
        let withoutKey = try MsgcRunner.run(["realtime", "serve", "--port", "0"] + fixture.base.options + ["--store", "sqlite:" + fixture.store])
        #expect(withoutKey.status == 2)
        #expect(withoutKey.stderr.contains("--subject-key"), "\(withoutKey.stderr)")
        let nowhere = try MsgcRunner.run(
            ["realtime", "serve", "--port", "0"] + fixture.base.options
                + ["--store", "sqlite:/nonexistent/folder/store.sqlite", "--subject-key", fixture.key.path])
        #expect(nowhere.status == 2)
        #expect(!nowhere.stderr.contains("listening"), "\(nowhere.stderr)")
    }
}
