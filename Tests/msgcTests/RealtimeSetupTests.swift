import Foundation
import TestSupport
import Testing

/// `msgc realtime url set|get|delete`, `msgc realtime perftest` and `msgc state fetch`'s bundle id
/// against the stand-in of Apple's service (AppleStandIn/standin.py), whose performance test
/// sends real signed requests (scripts/realtime-requests.py's test PKI) over HTTPS to
/// `msgc realtime serve` on loopback.
@Suite(.ownThreads, .serialized, .enabled(if: StandIn.python != nil, "needs Python with PyJWT and cryptography (scripts/test.sh makes .build-venv)"))
struct RealtimeSetupTests {
    /// Runs msgc with the stand-in's credentials and base, Apple's pace a hundred times faster.
    static func run(_ arguments: [String], _ standIn: StandIn, in directory: URL = MsgcRunner.packageRoot) throws -> MsgcRunner.Result {
        try MsgcRunner.run(arguments + ["--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID, "--issuer-id", StandIn.issuerID,
                                        "--api-base", standIn.base, "--time-scale", "0.01"], in: directory)
    }

    /// Requests to `endpoint` in the busiest second of the stand-in's log.
    static func busiestSecond(_ log: StandIn.Log, _ endpoint: String) -> Int {
        let times = log.entries.filter { $0.endpoint == endpoint }.map(\.time).sorted()
        return times.indices.map { start in times[start...].prefix { $0 < times[start] + 1 }.count }.max() ?? 0
    }

    /// A file of `count` realtime bodies that no server needs to read (the hostile tests send
    /// them to a closed port).
    static func bodies(in folder: URL, count: Int = 3) throws -> String {
        let file = folder.appendingPathComponent("bodies.jsonl")
        try String(repeating: "{\"signedPayload\":\"x.y.z\"}\n", count: count).write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func urlIsSetReadAndDeletedAsApplesLibrarySendsItWithTheAppFromMsgcYaml() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        // No --bundle-id: the package root's ./content/msgc.yaml names com.example.parla, the app
        // the stand-in's tokens must carry.
        let none = try Self.run(["realtime", "url", "get", "--environment", "sandbox"], standIn)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout == "no realtime URL is set for com.example.parla in sandbox\n")
        let noneJSON = try Self.run(["realtime", "url", "get", "--environment", "sandbox", "--format", "json"], standIn)
        #expect(noneJSON.status == 0)
        #expect(noneJSON.stdout == "{\n  \"realtimeURL\": null\n}\n", "\(noneJSON.stdout)")

        let url = "https://realtime.example.com:8443/apple/retention"
        let set = try Self.run(["realtime", "url", "set", url, "--environment", "sandbox"], standIn)
        #expect(set.status == 0, "\(set.stderr)")
        let got = try Self.run(["realtime", "url", "get", "--environment", "sandbox"], standIn)
        #expect(got.stdout == url + "\n")
        let gotJSON = try Self.run(["realtime", "url", "get", "--environment", "sandbox", "--format", "json"], standIn)
        #expect(try JSONSerialization.jsonObject(with: Data(gotJSON.stdout.utf8)) as? [String: String] == ["realtimeURL": url])
        let deleted = try Self.run(["realtime", "url", "delete", "--environment", "sandbox"], standIn)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Self.run(["realtime", "url", "get", "--environment", "sandbox"], standIn).stdout.hasPrefix("no realtime URL is set"))

        // The paths and methods of Apple's library (configure_realtime_url, get_realtime_url,
        // delete_realtime_url), each body read by its model RealtimeUrlRequest in the stand-in.
        let log = try standIn.log()
        #expect(log.entries.map { "\($0.method) \($0.path) \($0.status)" } == [
            "GET /inApps/v1/messaging/realtime/url 404", "GET /inApps/v1/messaging/realtime/url 404",
            "PUT /inApps/v1/messaging/realtime/url 200", "GET /inApps/v1/messaging/realtime/url 200",
            "GET /inApps/v1/messaging/realtime/url 200", "DELETE /inApps/v1/messaging/realtime/url 200",
            "GET /inApps/v1/messaging/realtime/url 404",
        ])
    }

    @Test func aURLAppleWouldRefuseOrThatGivesSecretsAwayIsRefusedBeforeAnythingIsSent() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        let cases = [
            ("http://realtime.example.com/apple", "https"),
            ("https://user:secret@realtime.example.com/apple", "user name or password"),
            ("https://realtime.example.com/" + String(repeating: "a", count: 228), "257 characters, 1 over Apple's limit of 256"),
            ("https:///apple", "no host"),
            ("https://realtime.example.com/a b", "space"),
            ("https://realtime.example.com/\u{1B}[2J", "control"),
            ("https://realtime.example.com:99999/", "port"),
        ]
        for (url, why) in cases {
            let result = try Self.run(["realtime", "url", "set", url, "--environment", "sandbox"], standIn)
            #expect(result.status == 2, "\(url): \(result.status)")
            #expect(result.stderr.contains(why), "\(url): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"), "an escape reached the terminal")
            #expect(!result.stderr.contains("secret"), "a password was echoed")
        }
        #expect(try standIn.log().entries.isEmpty, "a refused URL was sent")
    }

    @Test func productionRefusesAURLWithoutAPassedTestAndSaysWhichCommandRunsOne() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "production", extra: ["passedTest": false])
        defer { standIn.stop() }
        let result = try Self.run(["realtime", "url", "set", "https://realtime.example.com/apple", "--environment", "production"], standIn)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("4030026"), "\(result.stderr)")
        #expect(result.stderr.contains("msgc realtime perftest"), "\(result.stderr)")
    }

    @Test func theAppComesFromBundleIdOrTheContentTreeAndTwoThatDisagreeAreRefused() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        // state fetch without --bundle-id: the content tree's msgc.yaml names the app.
        let state = folder.appendingPathComponent("state.json").path
        let fetched = try Self.run(["state", "fetch", "--environment", "sandbox", "--out", state], standIn)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let explicit = try Self.run(["state", "fetch", "--environment", "sandbox", "--out", state, "--content", "content"], standIn)
        #expect(explicit.status == 0, "\(explicit.stderr)")

        // --bundle-id and msgc.yaml name different apps: exit 2 naming both, nothing sent.
        let before = try standIn.log().entries.count
        let clash = try Self.run(["state", "fetch", "--environment", "sandbox", "--out", state, "--content", "content",
                                  "--bundle-id", "com.example.other"], standIn)
        #expect(clash.status == 2)
        #expect(clash.stderr.contains("com.example.other") && clash.stderr.contains("com.example.parla"), "\(clash.stderr)")
        let urlClash = try Self.run(["realtime", "url", "get", "--environment", "sandbox", "--content", "content",
                                     "--bundle-id", "com.example.other"], standIn)
        #expect(urlClash.status == 2)
        #expect(urlClash.stderr.contains("com.example.other") && urlClash.stderr.contains("com.example.parla"), "\(urlClash.stderr)")
        #expect(try standIn.log().entries.count == before)

        // Outside a content tree and without --bundle-id: which app is a usage error.
        let nowhere = try Self.run(["realtime", "url", "get", "--environment", "sandbox"], standIn, in: folder)
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("--bundle-id"), "\(nowhere.stderr)")
        // A broken msgc.yaml is named with its location.
        let tree = folder.appendingPathComponent("broken")
        try MsgcRunner.write(["msgc.yaml": "bundleId: [com.example.parla\n"], into: tree)
        let broken = try Self.run(["realtime", "url", "get", "--environment", "sandbox", "--content", tree.path], standIn)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("msgc.yaml:"), "\(broken.stderr)")
    }

    @Test func stateFetchTakesTheAppFromTheDefaultsBundle() throws {
        let (folder, bundle) = try ApplyTests.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        let state = folder.appendingPathComponent("state.json").path
        // Run outside any content tree: the bundle alone names the app.
        let fetched = try Self.run(["state", "fetch", "--environment", "sandbox", "--out", state, "--defaults", bundle.path], standIn, in: folder)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let clash = try Self.run(["state", "fetch", "--environment", "sandbox", "--out", state, "--defaults", bundle.path,
                                  "--bundle-id", "com.example.other"], standIn, in: folder)
        #expect(clash.status == 2)
        #expect(clash.stderr.contains("com.example.other") && clash.stderr.contains("com.example.parla"), "\(clash.stderr)")
    }

    @Test func perftestRunsApplesBurstAgainstRealtimeServeAndPrintsWhatWasMeasured() throws {
        let fixture = try RealtimeServeTests.Fixture(count: 24)
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let tls = try LoopbackTLS.make(in: fixture.folder)
        let server = try fixture.start(["--tls-certificate", tls.certificate, "--tls-key", tls.key])
        let standIn = try StandIn(folder: fixture.folder, environment: "sandbox", extra: [
            "perftest": ["bodies": fixture.requests.appendingPathComponent("load/bodies.jsonl").path, "ca": tls.certificate, "concurrency": 4],
        ])
        defer { standIn.stop() }
        let url = "https://127.0.0.1:\(server.port)/"
        #expect(try Self.run(["realtime", "url", "set", url, "--environment", "sandbox"], standIn).status == 0)

        let run = try Self.run(["realtime", "perftest", "--environment", "sandbox", "--original-transaction-id", "2000000123456789"], standIn)
        let id = try #require(run.stderr.firstMatch(of: /performance test ([0-9a-f-]{36});/)?.1, "\(run.stderr)")
        #expect(run.stderr.contains("--request-id \(id)"))
        // The load set holds requests the example's snapshot has no answer for (its 404): Apple
        // counts those as failures, and the verdict and the exit status follow Apple's result.
        let passed = run.stdout.hasPrefix("performance test \(id): PASS\n")
        #expect(passed || run.stdout.hasPrefix("performance test \(id): FAIL\n"), "\(run.stdout)")
        #expect(run.status == (passed ? 0 : 1), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("target: \(url)\n"), "\(run.stdout)")
        #expect(run.stdout.contains("configuration: maxConcurrentRequests 4, totalRequests 24,"), "\(run.stdout)")
        #expect(run.stdout.contains(/success rate: \d+ %/), "\(run.stdout)")
        #expect(run.stdout.contains(/response times: average \d+ ms, p50 \d+ ms, p90 \d+ ms, p95 \d+ ms, p99 \d+ ms/), "\(run.stdout)")

        // The server saw each of the burst's 24 signed requests, and verified every one.
        #expect(server.stop() == 0)
        let lines = try server.logLines()
        #expect(lines.count == 24, "\(lines.count) requests")
        #expect(!lines.contains { $0["outcome"] as? String == "refused" }, "a signed request was refused")
        let answered = lines.filter { $0["status"] as? Int == 200 }.count
        #expect(run.stdout.contains("success rate: \(answered * 100 / 24) %"), "\(answered) answered\n\(run.stdout)")

        // Resumed by its id, in JSON: the same result, Apple's members under Apple's names.
        let resumed = try Self.run(["realtime", "perftest", "--environment", "sandbox", "--request-id", String(id), "--format", "json"], standIn)
        #expect(resumed.status == run.status, "\(resumed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [String: Any])
        #expect(json["result"] as? String == (passed ? "PASS" : "FAIL") && json["passed"] as? Bool == passed)
        #expect((json["config"] as? [String: Any])?["totalRequests"] as? Int == 24)
        #expect(json["successRate"] as? Int == answered * 100 / 24)

        // Polled at the sandbox pace (a tenth of a second here, at --time-scale 0.01), never faster.
        let log = try standIn.log()
        #expect(Self.busiestSecond(log, "getPerformanceTestResult") <= 11)
        #expect(log.entries.filter { $0.endpoint == "startPerformanceTest" }.count == 1)
    }

    @Test func aResultThatNeverFinishesStopsAtMaxWaitWithTheIdToResume() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: [
            "realtimeURL": "https://127.0.0.1:9/", "perftest": ["bodies": try Self.bodies(in: folder), "hostile": "neverFinish"],
        ])
        defer { standIn.stop() }
        let run = try Self.run(["realtime", "perftest", "--environment", "sandbox", "--original-transaction-id", "2000000123456789",
                                "--max-wait", "2s"], standIn)
        #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("within --max-wait (2 s)"), "\(run.stderr)")
        #expect(run.stderr.contains("msgc realtime perftest --request-id"), "\(run.stderr)")
        // Bounded: at the pace of a tenth of a second, two seconds hold at most about 20 polls.
        let polls = try standIn.log().entries.filter { $0.endpoint == "getPerformanceTestResult" }
        #expect(polls.count >= 2 && polls.count <= 21, "\(polls.count) polls")
        // A second start while one runs: Apple's ExistingPerformanceTestRunError, said plainly.
        let again = try Self.run(["realtime", "perftest", "--environment", "sandbox", "--original-transaction-id", "2000000123456789"], standIn)
        #expect(again.status == 1)
        #expect(again.stderr.contains("a test is already running"), "\(again.stderr)")
    }

    @Test func resultsWithMissingMembersGarbageOrUnknownStatesAreNeverAPass() throws {
        let expectations: [(String, Int32, [String])] = [
            ("missing", 1, ["FAIL", "target: missing", "configuration: missing", "response times: missing", "success rate: missing",
                            "failures: missing"]),
            ("empty", 3, ["within --max-wait"]),
            ("garbage", 2, ["not a JSON object"]),
            ("unknown", 1, ["'ABANDONED', a result msgc does not know (not a pass)"]),
            ("badTypes", 1, ["successRate is a string, not a number; left out", "responseTimes is an array", "failures.TIMED_OUT is a string",
                             "config.totalRequests is 12.5, not a whole number"]),
        ]
        for (mode, status, phrases) in expectations {
            let folder = try MsgcRunner.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let standIn = try StandIn(folder: folder, environment: "sandbox", extra: [
                "realtimeURL": "https://127.0.0.1:9/", "perftest": ["bodies": try Self.bodies(in: folder), "hostile": mode],
            ])
            defer { standIn.stop() }
            let run = try Self.run(["realtime", "perftest", "--environment", "sandbox", "--original-transaction-id", "2000000123456789",
                                    "--max-wait", "1s"], standIn)
            #expect(run.status == status, "\(mode): \(run.status) \(run.stdout)\(run.stderr)")
            for phrase in phrases {
                #expect((run.stdout + run.stderr).contains(phrase), "\(mode): \(phrase)\n\(run.stdout)\(run.stderr)")
            }
            #expect(!run.stdout.contains("PASS"), "\(mode): \(run.stdout)")
        }
    }

    @Test func resultPollsThrough429sAndStopsOnOneBeyondMaxWait() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 429s with a Retry-After a moment on: waited, then the result.
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: [
            "realtimeURL": "https://127.0.0.1:9/", "perftest": ["bodies": try Self.bodies(in: folder)],
            "rateLimit": ["getPerformanceTestResult": [3, "in:0.05"], "startPerformanceTest": [1, "past"]],
        ])
        defer { standIn.stop() }
        let run = try Self.run(["realtime", "perftest", "--environment", "sandbox", "--original-transaction-id", "2000000123456789"], standIn)
        // Nothing listens at the URL: every request failed, and the test says FAIL.
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("FAIL") && run.stdout.contains("success rate: 0 %") && run.stdout.contains("SOCKET_ISSUE 3"), "\(run.stdout)")
        #expect(run.stdout.contains("answered 429"), "\(run.stdout)")
        let log = try standIn.log()
        #expect(log.early == 0, "a request came before the Retry-After it was given")
        #expect(log.entries.filter { $0.status == "429" }.count == 4)

        // A 429 that asks for an hour, beyond --max-wait: exit 3 with the id to resume.
        let far = try StandIn(folder: folder, environment: "sandbox", extra: [
            "realtimeURL": "https://127.0.0.1:9/", "perftest": ["bodies": try Self.bodies(in: folder)],
            "rateLimit": ["getPerformanceTestResult": [5, "in:3600"]],
        ])
        defer { far.stop() }
        let stopped = try Self.run(["realtime", "perftest", "--environment", "sandbox", "--original-transaction-id", "2000000123456789",
                                    "--max-wait", "5s"], far)
        #expect(stopped.status == 3, "\(stopped.stdout)\(stopped.stderr)")
        #expect(stopped.stderr.contains("--request-id"), "\(stopped.stderr)")
        #expect(try far.log().entries.filter { $0.endpoint == "getPerformanceTestResult" }.count == 1)
    }

    @Test func perftestRefusesProductionAndIdsThatCannotBeSent() throws {
        for (arguments, phrase) in [
            (["--environment", "production", "--original-transaction-id", "1"], "sandbox only"),
            (["--environment", "sandbox"], "--original-transaction-id ID to start"),
            (["--environment", "sandbox", "--original-transaction-id", "1", "--request-id", "a"], "not both"),
            (["--environment", "sandbox", "--original-transaction-id", "12ab"], "digits"),
            (["--environment", "sandbox", "--request-id", "../../message/list"], "a request id is"),
        ] {
            let result = try MsgcRunner.run(["realtime", "perftest", "--bundle-id", "com.example.parla"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(phrase), "\(arguments): \(result.stderr)")
        }
    }

    @Test func billingPlanTypeGoesFromTheSourcesThroughTheManifestToTheSnapshotAndIsChecked() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appendingPathComponent("content")
        try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: tree)
        let source = tree.appendingPathComponent("messages/plus/monthly.yaml")
        let original = try String(contentsOf: source, encoding: .utf8)
        func write(_ line: String) throws {
            try original.replacingOccurrences(of: "    switchTo: com.example.parla.plus.yearly\n", with: "    switchTo: com.example.parla.plus.yearly\n" + line)
                .write(to: source, atomically: true, encoding: .utf8)
        }
        // A value Apple does not have: PRS006 with the allowed ones.
        try write("    billingPlanType: yearly\n")
        let wrong = try MsgcRunner.run(["lint", "--content", tree.path])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("'billingPlanType' must be one of monthly, billed-upfront, not 'yearly'") && wrong.stdout.contains("[PRS006]"),
                "\(wrong.stdout)")

        try write("    billingPlanType: billed-upfront\n")
        let bundle = folder.appendingPathComponent("bundle").path
        let build = try MsgcRunner.run(["build", "--content", tree.path, "--environment", "sandbox", "--out", bundle, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundle + "/manifest.json"))) as! [String: Any]
        let uploads = (manifest["operations"] as! [[String: Any]]).filter { $0["op"] as? String == "uploadMessage" }
        let planned = uploads.filter { $0["billingPlanType"] != nil }
        #expect(!planned.isEmpty && planned.allSatisfy {
            $0["billingPlanType"] as? String == "BILLED_UPFRONT" && $0["switchTo"] as? String == "com.example.parla.plus.yearly"
        })
        // Sandbox approves by itself: every upload held.
        let state = folder.appendingPathComponent("state.json")
        let held = uploads.map { ["messageIdentifier": $0["identifier"] as! String, "messageState": "APPROVED"] }
        let images = (manifest["operations"] as! [[String: Any]]).filter { $0["op"] as? String == "uploadImage" }
            .map { ["imageIdentifier": $0["identifier"] as! String, "imageState": "APPROVED"] }
        try JSONSerialization.data(withJSONObject: ["messages": ["messageIdentifiers": held], "images": ["imageIdentifiers": images]]).write(to: state)
        let snapshot = folder.appendingPathComponent("snapshot.json").path
        let made = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state.path, "--out", snapshot])
        #expect(made.status == 0, "\(made.stderr)")
        let text = try String(contentsOfFile: snapshot, encoding: .utf8)
        #expect(text.contains("\"billingPlanType\": \"BILLED_UPFRONT\""), "the snapshot lost the plan")

        // On a text message it belongs nowhere: PRJ011.
        try original.replacingOccurrences(of: "    type: text\n", with: "    type: text\n    billingPlanType: monthly\n")
            .write(to: source, atomically: true, encoding: .utf8)
        let misplaced = try MsgcRunner.run(["lint", "--content", tree.path])
        #expect(misplaced.status == 1)
        #expect(misplaced.stdout.contains("[PRJ011]"), "\(misplaced.stdout)")
    }
}
