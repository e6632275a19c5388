import ExperimentStore
import Foundation
import Testing
import TestSupport

/// The experiment end to end, as the issue asks: one throwaway PostgreSQL (`PostgreSQLServer`,
/// its password only in a libpq passfile), two `msgc realtime serve --store postgres://…` on it,
/// 240 subscribers whose signed requests (scripts/realtime-requests.py) go to either server,
/// some to both, notifications signed by scripts/realtime-notifications.py posted to either
/// server (some to both, some again) or imported with `msgc realtime outcomes import`, and
/// PostgreSQL stopped in the middle: every request is still answered, notifications get 503
/// and are stored once posted again, and the decisions of the outage reach the store through
/// the decision log's retries. Then `msgc realtime report --format json` counts exactly what
/// was planted.
@Suite(
    .ownThreads, .serialized,
    .enabled(if: StandIn.python != nil, "needs Python with cryptography (scripts/test.sh's venv)"),
    .enabled(if: PostgreSQLServer.binaries != nil, Comment(rawValue: PostgreSQLServer.absence)))
struct RealtimeExperimentPostgreSQLTests {
    static let experiment = RealtimeServeStoreTests.experiment
    static let offer = "plus.yearly.half_price"
    static let monthly = "com.example.parla.plus.monthly"
    /// Subscribers 150..<160 hold winback before their first request, as if settled long ago.
    static let seeded = 150..<160

    static func otid(_ index: Int) -> String { String(3_000_000_000_000_000 + index) }

    /// What subscriber `index` does after seeing `arm`, as notifications (type, subtype, what
    /// they name, milliseconds after the round's moment), and the outcome the report must give.
    static func plan(_ index: Int, arm: String) -> (events: [[String: Any]], outcome: String) {
        let disabled: [String: Any] = ["type": "DID_CHANGE_RENEWAL_STATUS", "subtype": "AUTO_RENEW_DISABLED", "autoRenewStatus": 0, "after": 0]
        switch (arm, index % 4) {
        case ("offer-half-price", 0):
            return ([["type": "OFFER_REDEEMED", "subtype": "UPGRADE", "offerIdentifier": offer, "after": 0]], "offerRedeemed")
        case ("switch-monthly", 0):
            return ([["type": "DID_CHANGE_RENEWAL_PREF", "subtype": "DOWNGRADE", "autoRenewProductId": monthly, "after": 0]], "switched")
        case (_, 1), ("winback", 0):
            return ([disabled], "cancelled")
        case ("offer-half-price", 2):
            // Cancelled and taken back a second later: stayed.
            return ([disabled, ["type": "DID_CHANGE_RENEWAL_STATUS", "subtype": "AUTO_RENEW_ENABLED", "autoRenewStatus": 1, "after": 1000]], "stayed")
        case ("switch-monthly", 2):
            return ([["type": "SUBSCRIBED", "subtype": "RESUBSCRIBE", "after": 0]], "stayed")
        case ("winback", 2):
            // Another offer than the arm's: not this arm's save.
            return ([["type": "OFFER_REDEEMED", "subtype": "UPGRADE", "offerIdentifier": "plus.yearly.other", "after": 0]], "stayed")
        default:
            return ([], "stayed")
        }
    }

    /// The world of one run: the database, the two servers, the folder, what was posted.
    final class World {
        let database: PostgreSQLServer
        let fixture: RealtimeServeStoreTests.Fixture
        let environment: [String: String]
        let password: String
        var servers: [ServeProcess] = []
        /// Requests posted to each server, all answered.
        var posted = [0, 0]
        /// Each subscriber's first answer (the arm), by index.
        var arms: [Int: String] = [:]
        var rounds = 0

        init() throws {
            password = (0..<24).map { _ in String("abcdefghijkmnpqrstuvwxyz23456789".randomElement() ?? "x") }.joined()
            database = try PostgreSQLServer(password: password)
            fixture = try RealtimeServeStoreTests.Fixture(count: 0)
            environment = ["PGPASSFILE": database.passfile?.path ?? ""]
        }

        var folder: URL { fixture.base.folder }

        func startServers() throws {
            let options = fixture.base.options + [
                "--store", database.uri, "--subject-key", fixture.key.path,
                // A generous deadline on the answer path: this test checks one arm per subscriber
                // across two servers, not the fallback (the SQLite suite's locked store does).
                "--assignment-deadline-ms", "2000",
            ]
            for _ in 0..<2 { servers.append(try ServeProcess(options, folder: folder, environment: environment)) }
        }

        /// Signs requests for subscribers `indexes` now (their age is checked), en-US only, where
        /// every arm answers.
        func requests(_ indexes: Range<Int>) throws -> [[UInt8]] {
            let out = folder.appendingPathComponent("requests-\(indexes.lowerBound)-\(UUID().uuidString)")
            let made = try MsgcRunner.run(
                [MsgcRunner.packageRoot.appendingPathComponent("scripts/realtime-requests.py").path, "--out", out.path,
                 "--count", String(indexes.count), "--first-index", String(indexes.lowerBound), "--locale", "en-US",
                 "--no-fixtures", "--no-apple"],
                program: URL(fileURLWithPath: StandIn.python ?? "python3"))
            guard made.status == 0 else { throw ServeProcess.Failure(description: "realtime-requests.py: \(made.stderr)") }
            return try String(contentsOf: out.appendingPathComponent("load/bodies.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { Array($0.utf8) }
        }

        /// Posts subscriber `index`'s request to `server`; every one must be answered 200, with a store or without.
        func post(_ body: [UInt8], index: Int, to server: Int) {
            let response = RealtimeServeTests.post(servers[server].port, body)
            #expect(response?.status == 200, "subscriber \(index) on server \(server): \(String(describing: response?.status))")
            posted[server] += 1
        }

        /// Signs the planned notifications of subscribers `indexes` at this moment (after their
        /// first exposure), one signedPayload a line, each with the subscriber it is for.
        func notifications(_ indexes: Range<Int>, otherApp: Bool = false) throws -> [(index: Int, line: String, isRelevant: Bool)] {
            rounds += 1
            let moment = Int64(Date().timeIntervalSince1970 * 1000)
            var entries: [[String: Any]] = []
            var owners: [(Int, Bool)] = []
            for index in indexes {
                guard let arm = arms[index] else { continue }
                for (number, event) in RealtimeExperimentPostgreSQLTests.plan(index, arm: arm).events.enumerated() {
                    var entry = event.filter { $0.key != "after" }
                    entry["originalTransactionId"] = RealtimeExperimentPostgreSQLTests.otid(index)
                    entry["signedDate"] = moment + Int64(event["after"] as? Int ?? 0)
                    entry["label"] = "round\(rounds)-\(index)-\(number)"
                    entries.append(entry)
                    owners.append((index, event["type"] as? String != "SUBSCRIBED"))
                }
            }
            if otherApp {
                entries.append(["originalTransactionId": RealtimeExperimentPostgreSQLTests.otid(1), "type": "DID_CHANGE_RENEWAL_STATUS",
                                "subtype": "AUTO_RENEW_DISABLED", "signedDate": moment, "label": "round\(rounds)-other-app",
                                "bundleId": "com.example.other"])
                owners.append((-1, false))
            }
            let plant = folder.appendingPathComponent("plant-\(rounds).json")
            try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys]).write(to: plant)
            let out = folder.appendingPathComponent("notifications-\(rounds)")
            let made = try MsgcRunner.run(
                [MsgcRunner.packageRoot.appendingPathComponent("scripts/realtime-notifications.py").path, "--out", out.path,
                 "--now", String(moment), "--plant", plant.path],
                program: URL(fileURLWithPath: StandIn.python ?? "python3"))
            guard made.status == 0 else { throw ServeProcess.Failure(description: "realtime-notifications.py: \(made.stderr)") }
            let lines = try String(contentsOf: out.appendingPathComponent("planted.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
            guard lines.count == owners.count else { throw ServeProcess.Failure(description: "\(lines.count) planted lines for \(owners.count) entries") }
            return zip(owners, lines).map { (index: $0.0.0, line: $0.1, isRelevant: $0.0.1) }
        }

        /// Posts one notification as Apple does; its HTTP status.
        func notify(_ line: String, to server: Int) -> Int? {
            let body = Array("{\"signedPayload\":\"\(line)\"}".utf8)
            return LoopbackHTTP.exchange(port: servers[server].port, LoopbackHTTP.request("POST", "/notifications", body: body))?.status
        }

        func metric(_ server: Int, _ series: String) -> Double {
            RealtimeServeStoreTests.metric(servers[server].port, series) ?? -1
        }

        /// Waits (up to `seconds`) until each server has written every decision it made.
        func waitForDecisions(seconds: Double) -> Bool {
            ServeProcess.wait(upTo: seconds) {
                (0..<2).allSatisfy { metric($0, "msgc_experiment_decisions_recorded_total") == Double(posted[$0]) }
            }
        }
    }

    @Test func twoServersOnOnePostgreSQLThroughAnOutageCountExactlyWhatWasPlanted() throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.folder) }
        try world.startServers()
        let key = try SubjectKey(bytes: [UInt8](Data(contentsOf: world.fixture.key)))
        // An hour ago: well inside --keep, which each server applies as it starts.
        let anHourAgo = Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000
        for index in Self.seeded {
            let subject = key.hash(originalTransactionId: Self.otid(index)).hex
            _ = try world.database.query(
                "INSERT INTO assignments (experiment_id, subject_hash, arm, first_time_ms) VALUES ('\(Self.experiment)', '\(subject)', 'winback', \(anHourAgo))")
        }

        // Before the outage: subscribers 0..<160 on either server, 0..<40 on the other one too.
        let early = try world.requests(0..<160)
        for (offset, body) in early.enumerated() { world.post(body, index: offset, to: offset % 2) }
        for (offset, body) in early.prefix(40).enumerated() { world.post(body, index: offset, to: 1 - offset % 2) }
        #expect(world.waitForDecisions(seconds: 30))
        let firstAnswers = try Self.firstAnswers(world)
        for (offset, body) in early.enumerated() {
            world.arms[offset] = firstAnswers[RealtimeServeStoreTests.ids(body).requestIdentifier]
        }
        #expect(Self.seeded.allSatisfy { world.arms[$0] == "winback" }, "\(Self.seeded.map { world.arms[$0] ?? "none" })")
        #expect(world.arms.count == 160 && Set(world.arms.values).count == 3, "\(world.arms.count) subscribers, arms \(Set(world.arms.values))")

        // Their notifications: the first half posted now (a few to both servers), another app's refused.
        let earlyNotes = try world.notifications(0..<160, otherApp: true)
        let otherApp = try #require(earlyNotes.last)
        let notes = earlyNotes.dropLast()
        let half = notes.count / 2
        for (number, note) in notes.prefix(half).enumerated() {
            #expect(world.notify(note.line, to: number % 2) == 200)
            if number % 10 == 0 { #expect(world.notify(note.line, to: 1 - number % 2) == 200, "the other server's copy") }
        }
        let refused = world.notify(otherApp.line, to: 0)
        #expect(refused.map { (400..<500).contains($0) } == true, "another app's: \(String(describing: refused))")

        // The outage: every request answered, notifications 503. The newcomers' arms come from
        // the hash; the returning subscribers, each sent to a server that answered them before,
        // get the arm that server keeps, without the store. (Their requests are signed again with
        // the same requestIdentifiers: the outage's sticky decisions are counted from here.)
        let returning = try world.requests(0..<20)
        let returningRequests = returning.map { "'\(RealtimeServeStoreTests.ids($0).requestIdentifier)'" }.joined(separator: ", ")
        let returningSticky = "SELECT COUNT(*) FROM decisions WHERE assignment = 'sticky' AND request_id IN (\(returningRequests))"
        let stickyBefore = try world.database.query(returningSticky).first.flatMap { Int($0) } ?? -1
        try world.database.stop()
        let outage = try world.requests(160..<200)
        for (offset, body) in outage.enumerated() { world.post(body, index: 160 + offset, to: offset % 2) }
        for (offset, body) in returning.enumerated() { world.post(body, index: offset, to: offset % 2) }
        let during = notes.dropFirst(half).prefix(20)
        for note in during { #expect(world.notify(note.line, to: 0) == 503) }
        #expect(ServeProcess.wait(upTo: 20) { (0..<2).allSatisfy { world.metric($0, "msgc_experiment_decision_retries_total") >= 1 } },
                "the decision log tries again")
        #expect(world.metric(0, #"msgc_experiment_notifications_total{outcome="store-unavailable"}"#) == 20)

        // Back: Apple's retries are stored, the rest arrives, the outage's decisions are written.
        try world.database.start()
        for (number, note) in notes.dropFirst(half).enumerated() { #expect(world.notify(note.line, to: number % 2) == 200) }
        let outageAnswers = try Self.firstAnswers(world)
        for (offset, body) in outage.enumerated() {
            world.arms[160 + offset] = outageAnswers[RealtimeServeStoreTests.ids(body).requestIdentifier]
        }
        let late = try world.requests(200..<240)
        for (offset, body) in late.enumerated() { world.post(body, index: 200 + offset, to: offset % 2) }
        for (offset, body) in try world.requests(40..<60).enumerated() { world.post(body, index: 40 + offset, to: 1 - offset % 2) }
        let lateAnswers = try Self.firstAnswers(world)
        for (offset, body) in late.enumerated() { world.arms[200 + offset] = lateAnswers[RealtimeServeStoreTests.ids(body).requestIdentifier] }
        #expect(world.arms.count == 240)

        // Their notifications: odd subscribers' posted, even ones' imported with three of the posted.
        let lateNotes = try world.notifications(160..<240)
        let postedLate = lateNotes.filter { $0.index % 2 == 1 }
        for (number, note) in postedLate.enumerated() { #expect(world.notify(note.line, to: number % 2) == 200) }
        let importedLate = lateNotes.filter { $0.index % 2 == 0 }
        let again = postedLate.filter(\.isRelevant).prefix(3)
        let importFile = world.folder.appendingPathComponent("import.txt")
        try Data(((importedLate + again).map(\.line).joined(separator: "\n") + "\n").utf8).write(to: importFile)
        let imported = try MsgcRunner.run(
            ["realtime", "outcomes", "import", importFile.path, "--store", world.database.uri, "--subject-key", world.fixture.key.path,
             "--bundle-id", "com.example.parla", "--environment", "production", "--app-apple-id", RealtimeServeTests.appAppleId,
             "--root-certificate", world.fixture.base.requests.appendingPathComponent("pki/root.der").path],
            environment: world.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let relevant = importedLate.filter(\.isRelevant).count
        #expect(imported.stderr.hasSuffix(
            ": \(relevant) stored, \(again.count) duplicates, \(importedLate.count - relevant) not relevant, 0 refused\n"), "\(imported.stderr)")

        // Server 0 writes every decision of the outage through its retries; server 1 gets
        // SIGTERM at once, its last batches perhaps still queued or waiting for a retry, which
        // its shutdown writes. Neither loses one, and the password was only in the passfile.
        #expect(ServeProcess.wait(upTo: 60) { world.metric(0, "msgc_experiment_decisions_recorded_total") == Double(world.posted[0]) },
                "server 0 recorded \(world.metric(0, "msgc_experiment_decisions_recorded_total")) of \(world.posted[0])")
        for server in [1, 0] {
            #expect(world.metric(server, #"msgc_experiment_decisions_lost_total{reason="store"}"#) == 0)
            let commandLine = (try? String(contentsOfFile: "/proc/\(world.servers[server].process.processIdentifier)/cmdline", encoding: .utf8)) ?? ""
            #expect(commandLine.contains("--store") && !commandLine.contains(world.password))
            #expect(world.servers[server].stop() == 0)
            let said = world.servers[server].stderr
            #expect(!said.contains("the decision log lost"), "\(said)")
            #expect(said.components(separatedBy: "are tried again").count == 2, "the retries are said once: \(said)")
        }
        let total = world.posted.reduce(0, +)
        #expect(try world.database.query("SELECT COUNT(*) FROM decisions") == [String(total)])
        #expect(try world.database.query("SELECT COUNT(*) FROM decisions WHERE assignment = 'hashed'") == ["40"])
        #expect(try world.database.query(returningSticky) == [String(stickyBefore + 20)])
        #expect(try world.database.query(
            "SELECT COUNT(*) FROM (SELECT subject_hash FROM decisions GROUP BY subject_hash HAVING COUNT(DISTINCT arm) > 1) AS split") == ["0"])
        #expect(try world.database.query(
            "SELECT COUNT(*) FROM decisions d JOIN assignments a ON a.subject_hash = d.subject_hash AND a.experiment_id = d.experiment_id WHERE d.arm <> a.arm") == ["0"])
        // Everyone but the outage's newcomers who never came back has a recorded arm.
        #expect(try world.database.query("SELECT COUNT(*) FROM assignments") == ["200"])
        let planted = notes.count + lateNotes.count
        #expect(try world.database.query("SELECT COUNT(*) FROM notifications") == [String(planted)])

        // The report counts exactly what was planted.
        let until = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3 * 86_400))
        let report = try MsgcRunner.run(
            ["realtime", "report", "--store", world.database.uri, "--until", until, "--format", "json"], environment: world.environment)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let products = try #require(json["products"] as? [[String: Any]])
        #expect(products.count == 1 && products.first?["experiment"] as? String == Self.experiment, "\(report.stdout)")
        let arms = try #require(products.first?["arms"] as? [[String: Any]])
        for message in ["offer-half-price", "switch-monthly", "winback"] {
            let mine = world.arms.filter { $0.value == message }.map(\.key)
            var expected = ["stayed": 0, "cancelled": 0, "offerRedeemed": 0, "switched": 0]
            for index in mine { expected[Self.plan(index, arm: message).outcome, default: 0] += 1 }
            let arm = arms.first { $0["message"] as? String == message }
            #expect(arm?["subscribers"] as? Int == mine.count, "\(message)")
            #expect(arm?["pending"] as? Int == 0, "\(message)")
            #expect(arm?["outcomes"] as? [String: Int] == expected, "\(message)")
        }
    }

    /// Each requestIdentifier's message in the two servers' request logs, as first answered.
    static func firstAnswers(_ world: World) throws -> [String: String] {
        var answers: [String: String] = [:]
        for server in world.servers {
            for line in try server.logLines() {
                guard let request = line["requestIdentifier"] as? String, let message = line["message"] as? String else { continue }
                if answers[request] == nil { answers[request] = message }
            }
        }
        return answers
    }
}
