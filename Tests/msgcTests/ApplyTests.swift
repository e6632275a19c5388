import Foundation
import Testing
import TestSupport

/// `msgc apply` and `msgc state fetch` against a stand-in of Apple's service on loopback
/// (AppleStandIn/standin.py), which the tests start and stop themselves: JWT verification,
/// per-endpoint rate limits with 429 and Retry-After, 409 on reuse, review states, and faults.
@Suite(.ownThreads, .serialized, .enabled(if: StandIn.python != nil, "needs Python with PyJWT and cryptography (scripts/test.sh makes .build-venv)"))
struct ApplyTests {
    static let bundleID = "com.example.parla"

    /// A bundle of the example content for `environment`, in a fresh folder.
    static func bundle(_ environment: String) throws -> (folder: URL, bundle: URL) {
        let folder = try MsgcRunner.temporaryFolder()
        let bundle = folder.appendingPathComponent("bundle")
        let build = try MsgcRunner.run(["build", "--content", "content", "--environment", environment, "--out", bundle.path, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        return (folder, bundle)
    }

    static func apply(_ bundle: URL, _ standIn: StandIn, keyID: String = StandIn.keyID, extra: [String] = []) throws -> MsgcRunner.Result {
        try MsgcRunner.run(["apply", bundle.path, "--key-file", standIn.keyFile.path, "--key-id", keyID, "--issuer-id", StandIn.issuerID,
                            "--api-base", standIn.base, "--rate", "200", "--time-scale", "0.1"] + extra)
    }

    @Test func sandboxAppliesEverythingThroughFaultsAndASecondRunSendsNoUpload() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["rate": 25, "fail500": ["uploadMessage": 2], "dropAfterStore": 5])
        defer { standIn.stop() }

        let first = try Self.apply(bundle, standIn)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.hasPrefix("images: 6 uploaded\nmessages: 71 uploaded, 1 already at Apple\ndefault configurations: 20 configured\n"), "\(first.stdout)")
        let log = try standIn.log()
        #expect(log.early == 0, "a request came before the Retry-After it was given")
        #expect(log.messages.count == 72)
        #expect(log.defaults.count == 20)
        #expect(log.entries.contains { $0.status == "429" }, "the rate limit was never reached: the test shows nothing")
        #expect(log.entries.filter { $0.endpoint == "uploadMessage" && $0.status == "500" }.count == 2)

        let second = try Self.apply(bundle, standIn)
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("images: 0 uploaded, 6 already at Apple\nmessages: 0 uploaded, 72 already at Apple\ndefault configurations: 20 configured\n"), "\(second.stdout)")
        let uploadsAfter = try standIn.log().entries.dropFirst(log.entries.count).filter { $0.endpoint == "uploadMessage" || $0.endpoint == "uploadImage" }
        #expect(uploadsAfter.isEmpty, "the second run uploaded again: \(uploadsAfter)")
    }

    @Test func aDryRunReadsTheListsAndChangesNothing() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn, extra: ["--dry-run"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("dry run: nothing was changed at Apple\nimages: 6 to upload\nmessages: 72 to upload\ndefault configurations: 20 to configure\n"), "\(result.stdout)")
        let log = try standIn.log()
        #expect(log.entries.map(\.method) == ["GET", "GET"])
        #expect(log.messages.isEmpty)
    }

    /// A server that counts requests in exact one-second windows (the stand-in without `burst`)
    /// answers 429 to a client spaced at exactly its limit whenever one request's latency is a
    /// little shorter than the one before it. The pacer's margin (PaceMarginTests proves it
    /// without a clock) leaves 30 ms of slack per window; on a loaded machine the stand-in's own
    /// scheduling can take more than that, so here a whole release at the server's own rate
    /// must finish, each 429 waited out and retried, whatever the machine's load.
    @Test func aReleaseAtAnExactWindowServersOwnRateFinishes() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["rate": 10, "rates": ["configureDefault": 100]])
        defer { standIn.stop() }
        let result = try MsgcRunner.run(["apply", bundle.path, "--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID,
                                         "--issuer-id", StandIn.issuerID, "--api-base", standIn.base, "--rate", "10"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let log = try standIn.log()
        #expect(log.messages.count == 72)
        // Every request refused with 429 was sent again and taken.
        for refused in log.entries where refused.status == "429" {
            #expect(log.entries.contains { $0.path == refused.path && $0.method == refused.method && $0.status.hasPrefix("2") }, "\(refused.path)")
        }
    }

    @Test func productionWaitsForReviewThenConfigures() throws {
        let (folder, bundle) = try Self.bundle("production")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "production")
        defer { standIn.stop() }

        let first = try Self.apply(bundle, standIn)
        #expect(first.status == 3, "\(first.stdout)")
        #expect(first.stdout.contains("default configurations: 0 configured, 20 waiting for review"), "\(first.stdout)")
        #expect(first.stdout.contains("run msgc apply again once it is approved"))
        #expect(try standIn.log().defaults.isEmpty)

        try standIn.approve()
        let second = try Self.apply(bundle, standIn)
        #expect(second.status == 0, "\(second.stdout)")
        #expect(second.stdout.contains("messages: 0 uploaded, 72 already at Apple\ndefault configurations: 20 configured"), "\(second.stdout)")
        #expect(try standIn.log().defaults.count == 20)
    }

    @Test func aCapReachedEarlyStopsThatEndpoint() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["messageCap": 10])
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("messages: 10 uploaded, 62 refused"), "\(result.stdout)")
        let refusals = try standIn.log().entries.filter { $0.endpoint == "uploadMessage" && $0.status == "403" }
        #expect(refusals.count == 1, "after the cap, msgc kept sending: \(refusals.count) refusals")
    }

    @Test func aKeyTheServerDoesNotKnowStopsAtOnce() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn, keyID: "OTHERKEY1")
        #expect(result.status == 2)
        #expect(result.stdout.contains("Apple refused the credentials (401)"))
        #expect(try standIn.log().entries.count == 1, "a refused key must not be retried")
        #expect(!result.stdout.contains("BEGIN") && !result.stderr.contains("Bearer"))
    }

    /// HTTPS is verified: a server whose certificate nobody vouches for gets no request, and
    /// msgc stops at its first refusal instead of retrying what cannot change.
    @Test func anUntrustedCertificateStopsAtOnce() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox", extra: ["untrustedTLS": true])
        let result = try Self.apply(bundle, standIn)
        let connections = standIn.stopCountingConnections()
        #expect(standIn.base.hasPrefix("https://"))
        #expect(result.status == 2)
        #expect(result.stdout.contains("Get Message List: SSL peer certificate"), "\(result.stdout)")
        #expect(connections == 1, "a refused certificate must not be retried")
    }

    @Test func aTamperedBundleSendsNothing() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = try #require(try FileManager.default.contentsOfDirectory(atPath: bundle.appendingPathComponent("messages").path).first)
        let url = bundle.appendingPathComponent("messages/\(message)")
        try Data(try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"header\": \"", with: "\"header\": \"Now ").utf8).write(to: url)
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        let result = try Self.apply(bundle, standIn)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is damaged"), "\(result.stderr)")
        #expect(try standIn.log().entries.isEmpty)
    }

    /// A kill -9 in the middle, then a run to the end: every upload reached Apple once.
    @Test func aKilledRunResumesWithoutUploadingTwice() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        let process = Process()
        process.executableURL = MsgcRunner.executable
        process.arguments = ["apply", bundle.path, "--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID, "--issuer-id", StandIn.issuerID,
                             "--api-base", standIn.base, "--rate", "20"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try standIn.log().messages.count
        #expect(partial > 0 && partial < 72, "the kill came at \(partial) messages")

        let rest = try Self.apply(bundle, standIn)
        #expect(rest.status == 0, "\(rest.stdout)")
        let log = try standIn.log()
        #expect(log.messages.count == 72)
        let stored = log.entries.filter { $0.endpoint == "uploadMessage" && $0.status == "200" }.map(\.path)
        #expect(Set(stored).count == stored.count, "a message was uploaded twice")
    }

    @Test func stateFetchWritesWhatBuildReads() throws {
        let (folder, bundle) = try Self.bundle("sandbox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let standIn = try StandIn(folder: folder, environment: "sandbox")
        defer { standIn.stop() }
        #expect(try Self.apply(bundle, standIn).status == 0)
        let state = folder.appendingPathComponent("state.json")
        let fetch = try MsgcRunner.run(["state", "fetch", "--environment", "sandbox", "--bundle-id", Self.bundleID, "--out", state.path,
                                        "--key-file", standIn.keyFile.path, "--key-id", StandIn.keyID, "--issuer-id", StandIn.issuerID,
                                        "--api-base", standIn.base])
        #expect(fetch.status == 0, "\(fetch.stderr)")
        let next = folder.appendingPathComponent("next")
        let build = try MsgcRunner.run(["build", "--content", "content", "--environment", "sandbox", "--state", state.path, "--out", next.path])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains("Apple already holds 78 of its uploads (present)"), "\(build.stdout)")
        #expect(!build.stderr.contains("[STA011]"), "\(build.stderr)")
        // The fetched file names sandbox: a production build refuses it (issue 43, case 4).
        let production = try MsgcRunner.run(["build", "--content", "content", "--environment", "production", "--state", state.path,
                                             "--out", folder.appendingPathComponent("production").path])
        #expect(production.status == 2, "\(production.stderr)")
        #expect(production.stderr.contains("describes sandbox of \(Self.bundleID), fetched at "), "\(production.stderr)")
        #expect(production.stderr.contains("but this is production of \(Self.bundleID)"), "\(production.stderr)")
    }
}

/// The stand-in server, started on loopback for one test and stopped after it.
final class StandIn {
    static let keyID = "TESTKEY42"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"

    /// Python with PyJWT and cryptography: scripts/test.sh's venv, else python3 if it has them.
    static let python: String? = {
        var candidates: [String] = []
        if let venv = ProcessInfo.processInfo.environment["MSGC_APPLE_LIBRARY_PYTHON"] { candidates.append(venv) }
        candidates.append(MsgcRunner.packageRoot.appendingPathComponent(".build-venv/bin/python").path)
        candidates.append("/usr/bin/python3")
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: candidate)
            check.arguments = ["-c", "import jwt, cryptography"]
            check.standardError = FileHandle.nullDevice
            if (try? check.run()) != nil {
                check.waitUntilExit()
                if check.terminationStatus == 0 { return candidate }
            }
        }
        return nil
    }()

    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let keyFile: URL
    let base: String
    let port: Int

    init(folder: URL, environment: String, extra: [String: Any] = [:]) throws {
        keyFile = folder.appendingPathComponent("AuthKey_\(Self.keyID).p8")
        var config: [String: Any] = [
            "keyOut": keyFile.path, "keyId": Self.keyID, "issuerId": Self.issuerID, "bundleId": ApplyTests.bundleID,
            "environment": environment,
        ]
        config.merge(extra) { $1 }
        let configFile = folder.appendingPathComponent("standin.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configFile)
        process.executableURL = URL(fileURLWithPath: Self.python!)
        process.arguments = [MsgcRunner.packageRoot.appendingPathComponent("Tests/msgcTests/AppleStandIn/standin.py").path, configFile.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line += chunk
        }
        let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last!
        self.port = Int(port) ?? 0
        base = (extra["untrustedTLS"] as? Bool == true ? "https" : "http") + "://127.0.0.1:\(port)"
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Stops a stand-in started with `untrustedTLS` and returns how many connections it accepted.
    func stopCountingConnections() -> Int? {
        stop()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").last.flatMap { $0.hasPrefix("CONNECTIONS ") ? Int($0.dropFirst(12)) : nil }
    }

    struct Entry {
        var method: String
        var path: String
        var endpoint: String?
        var status: String
        /// When the stand-in received it (its clock, seconds).
        var time: Double
    }

    struct Log {
        var entries: [Entry]
        var messages: [String: String]
        var defaults: [String: String]
        var early: Int
        /// Message uploads before their images, default configurations before their message.
        var outOfOrder: Int
        /// Messages deleted while a default pointed at them.
        var servedDeleted = 0
    }

    func log() throws -> Log {
        let object = try JSONSerialization.jsonObject(with: try fetch("/_standin/log", method: "GET")) as! [String: Any]
        let entries = (object["log"] as! [[String: Any]]).map {
            Entry(method: $0["method"] as! String, path: $0["path"] as! String, endpoint: $0["endpoint"] as? String,
                  status: $0["status"].map { "\($0)" } ?? "", time: $0["time"] as! Double)
        }
        return Log(entries: entries, messages: object["messages"] as! [String: String], defaults: object["defaults"] as! [String: String],
                   early: object["early"] as! Int, outOfOrder: object["outOfOrder"] as! Int,
                   servedDeleted: object["servedDeleted"] as? Int ?? 0)
    }

    func approve() throws {
        _ = try fetch("/_standin/approve", method: "POST")
    }

    /// Lets the requests `holdAfter` keeps waiting go on, and holds no more.
    func release() throws {
        _ = try fetch("/_standin/release", method: "POST")
    }

    /// Drops the `rateLimit` faults: Apple's budget is back.
    func calm() throws {
        _ = try fetch("/_standin/calm", method: "POST")
    }

    /// One request to the stand-in's own control routes (`/_standin/…`, plain HTTP), over
    /// LoopbackHTTP (a python process a request cost a tenth of a second of CPU each). A release
    /// answers once the held requests are done, within 30 s.
    private func fetch(_ path: String, method: String) throws -> Data {
        guard let response = LoopbackHTTP.exchange(port: port, LoopbackHTTP.request(method, path), timeout: 60), response.status == 200 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the stand-in did not answer \(method) \(path) with 200"])
        }
        return Data(response.body)
    }
}
