import Foundation
import Testing
import TestSupport

/// `msgc realtime serve`, run as built on loopback with a port the system picks, answering
/// requests signed by a test PKI (scripts/realtime-requests.py) from the example's snapshot.
@Suite(.ownThreads, .serialized, .enabled(if: StandIn.python != nil, "needs Python with cryptography (scripts/test.sh's venv)"))
struct RealtimeServeTests {
    static let appAppleId = "1234567890"

    /// A production snapshot of the example with everything approved: built once, since no test
    /// changes it (a test that swaps it writes its own copies).
    static let snapshot: Result<Data, any Error> = Result {
        let (folder, bundle, state) = try RealtimeCommandTests().releasedExample(everythingApproved: true)
        let out = folder.appendingPathComponent("snapshot.json").path
        let made = try MsgcRunner.run(["realtime", "snapshot", bundle, "--state", state, "--out", out])
        guard made.status == 0 else { throw ServeProcess.Failure(description: made.stderr) }
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// A folder with the snapshot, and requests signed now (their age is checked).
    struct Fixture {
        var folder: URL
        var snapshot: URL
        var requests: URL
        var manifest: [String: Any]

        init(count: Int = 0) throws {
            folder = try MsgcRunner.temporaryFolder()
            snapshot = folder.appendingPathComponent("snapshot.json")
            try RealtimeServeTests.snapshot.get().write(to: snapshot)
            requests = folder.appendingPathComponent("requests")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: StandIn.python!)
            process.arguments = [MsgcRunner.packageRoot.appendingPathComponent("scripts/realtime-requests.py").path,
                                 "--out", requests.path, "--count", String(count), "--no-apple"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw ServeProcess.Failure(description: "realtime-requests.py failed") }
            manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: requests.appendingPathComponent("manifest.json"))) as! [String: Any]
        }

        var entries: [[String: Any]] { manifest["requests"] as! [[String: Any]] }

        func body(_ name: String) throws -> [UInt8] {
            let entry = entries.first { $0["name"] as? String == name }!
            return try [UInt8](Data(contentsOf: requests.appendingPathComponent(entry["file"] as! String)))
        }

        func loadBodies() throws -> [[UInt8]] {
            try String(contentsOf: requests.appendingPathComponent("load/bodies.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { Array($0.utf8) }
        }

        /// The load bodies as whole HTTP requests.
        func loadRequests() throws -> [[UInt8]] {
            try loadBodies().map { LoopbackHTTP.request("POST", "/", body: $0) }
        }

        /// The server's options: this PKI's root, the app, the offer key.
        var options: [String] {
            ["--snapshot", snapshot.path, "--app-apple-id", RealtimeServeTests.appAppleId,
             "--root-certificate", requests.appendingPathComponent("pki/root.pem").path,
             "--key-file", requests.appendingPathComponent("pki/offer-key.p8").path, "--key-id", "OFFERKEY01", "--issuer-id", StandIn.issuerID]
        }

        func start(_ extra: [String] = []) throws -> ServeProcess {
            try ServeProcess(options + extra, folder: folder)
        }
    }

    static func post(_ port: Int, _ body: [UInt8]) -> LoopbackHTTP.Response? {
        LoopbackHTTP.exchange(port: port, LoopbackHTTP.request("POST", "/", body: body))
    }

    static func json(_ response: LoopbackHTTP.Response?) -> [String: Any]? {
        response.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }
    }

    /// coreutils' digest of a file, an opinion other than msgc's own.
    static func sha256(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    /// The claims of a compact JWS, unverified.
    static func claims(_ jws: String) -> [String: Any]? {
        let parts = jws.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    @Test func validRequestsGetAnswersAppleShowsAndHostileOnesAFourHundred() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        for entry in fixture.entries {
            let name = entry["name"] as! String
            let payload = entry["payload"] as? [String: Any]
            let response = try #require(Self.post(server.port, try fixture.body(name)), "\(name): no answer")
            if entry["msgc"] as? String == "accept" {
                #expect(response.status == 200 || response.status == 404, "\(name): \(response.status)")
                guard response.status == 200 else { continue }
                #expect(response.headers["content-type"] == "application/json")
                // Apple shows it: msgc's own judge of an answer agrees, for this product and locale.
                let file = fixture.folder.appendingPathComponent("answer-\(name).json")
                try Data(response.body).write(to: file)
                let check = try MsgcRunner.run(["realtime", "check", file.path, "--snapshot", fixture.snapshot.path,
                                                "--product", payload!["productId"] as! String, "--locale", payload!["userLocale"] as! String])
                #expect(check.status == 0, "\(name): \(response.text)\n\(check.stdout)")
                if let offer = Self.json(response)?["promotionalOffer"] as? [String: Any] {
                    let claims = try #require(Self.claims(offer["promotionalOfferSignatureV2"] as! String))
                    #expect(claims["transactionId"] as? String == payload!["originalTransactionId"] as? String)
                    #expect(claims["aud"] as? String == "promotional-offer")
                }
            } else {
                #expect((400..<500).contains(response.status), "\(name): \(response.status)")
                // Nothing but the status: no answer Apple could show.
                #expect(Self.json(response)?["message"] == nil && Self.json(response)?["promotionalOffer"] == nil)
                // ...and the next request is answered as before.
                #expect(Self.post(server.port, try fixture.body("com.example.parla.plus.yearly--en-US"))?.status == 200, "after \(name)")
            }
        }
        // The example's yearly product offers half price first: en-US gets the offer.
        let english = try #require(Self.json(Self.post(server.port, try fixture.body("com.example.parla.plus.yearly--en-US"))))
        #expect(english["promotionalOffer"] != nil, "\(english)")
        #expect(server.stop() == 0)

        // Each refusal is logged under the reason the fixtures name.
        let refused = try server.logLines().filter { $0["outcome"] as? String == "refused" }
        let expected = fixture.entries.filter { $0["msgc"] as? String == "refuse" }.map { $0["refusal"] as! String }
        #expect(refused.map { $0["reason"] as? String ?? "" } == expected)
    }

    /// A connection that never completes its request head, silent or trickling header bytes,
    /// is closed after `--idle-timeout` while other requests are answered.
    @Test func slowOrSilentHeadsAreClosedAfterTheIdleTimeout() throws {
        let fixture = try Fixture()
        let server = try fixture.start(["--idle-timeout", "1"])
        let valid = try fixture.body("com.example.parla.plus.yearly--de-DE")
        let silent = try #require(LoopbackHTTP.connect(port: server.port, timeout: 10))
        defer { close(silent) }
        let slow = try #require(LoopbackHTTP.connect(port: server.port, timeout: 10))
        defer { close(slow) }
        #expect(LoopbackHTTP.send(slow, Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)))
        let started = Date()
        // One header byte every 0.2 s, for at most 8 s: each byte is activity, yet the head
        // never completes, so the timeout must still cut it.
        let trickle = Thread {
            for byte in Array("X-Slow: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 32) {
                guard LoopbackHTTP.send(slow, [byte]), Date().timeIntervalSince(started) < 8 else { return }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        trickle.start()
        for _ in 0..<5 {
            #expect(Self.post(server.port, valid)?.status == 200)
        }
        #expect(LoopbackHTTP.isClosed(silent))
        #expect(LoopbackHTTP.isClosed(slow))
        #expect(Date().timeIntervalSince(started) < 8)
        #expect(Self.post(server.port, valid)?.status == 200)
    }

    @Test func slowAndOversizedBodiesAreCutOffWhileOthersAreAnswered() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        let valid = try fixture.body("com.example.parla.plus.yearly--de-DE")

        // A client that sends its head, then the body a byte at a time.
        let slow = try #require(LoopbackHTTP.connect(port: server.port, timeout: 15))
        defer { close(slow) }
        let head = Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(valid.count)\r\n\r\n".utf8)
        #expect(LoopbackHTTP.send(slow, head))
        let trickle = Thread {
            for byte in valid.prefix(60) {
                guard LoopbackHTTP.send(slow, [byte]) else { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        trickle.start()
        // Meanwhile every other request is answered.
        for _ in 0..<10 {
            #expect(Self.post(server.port, valid)?.status == 200)
        }
        let cut = try #require(LoopbackHTTP.readResponse(slow))
        #expect(cut.status == 408)
        #expect(cut.headers["connection"] == "close")
        #expect(LoopbackHTTP.isClosed(slow))

        // A body larger than the cap, declared: refused before it is read, connection closed.
        let huge = try fixture.body("huge-body")
        let declared = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(declared) }
        LoopbackHTTP.send(declared, Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(huge.count)\r\n\r\n".utf8) + huge.prefix(4096))
        #expect(LoopbackHTTP.readResponse(declared)?.status == 413)
        #expect(LoopbackHTTP.isClosed(declared))
        // The same, chunked, with no length to go by: refused once the cap is passed.
        let chunked = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(chunked) }
        var stream = Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for _ in 0..<12 {
            stream += Array("1000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 4096) + Array("\r\n".utf8)
        }
        LoopbackHTTP.send(chunked, stream)
        #expect(LoopbackHTTP.readResponse(chunked)?.status == 413)

        // Other methods and paths: answered at once.
        #expect(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/"))?.status == 405)
        #expect(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/"))?.headers["allow"] == "POST")
        #expect(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("POST", "/elsewhere", body: valid))?.status == 404)
        #expect(Self.post(server.port, valid)?.status == 200)
        #expect(server.stop() == 0)
        let reasons = try server.logLines().compactMap { $0["reason"] as? String }
        #expect(reasons == ["body-too-slow", "body-too-large", "body-too-large"])
    }

    @Test func healthMetricsAndTheLogSayWhatHappenedAndNeverThePayload() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        let health = try #require(Self.json(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/healthz"))))
        let digest = try Self.sha256(fixture.snapshot.path)
        #expect(health["snapshot"] as? String == "sha256:" + digest)
        #expect(health["generation"] as? Int == 1)
        #expect(health["environment"] as? String == "production")

        let english = try fixture.body("com.example.parla.plus.yearly--en-US")
        let answer = try #require(Self.json(Self.post(server.port, english)))
        #expect(Self.post(server.port, try fixture.body("bad-signature"))?.status == 401)
        #expect(Self.post(server.port, try fixture.body("wrong-app-apple-id"))?.status == 403)
        #expect(Self.post(server.port, try fixture.body("stale-signed-date"))?.status == 401)
        let metrics = try #require(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/metrics")))
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        let text = metrics.text
        #expect(text.contains(#"msgc_realtime_answers_total{kind="promotionalOffer"} 1"#), "\(text)")
        #expect(text.contains(#"msgc_realtime_answers_total{kind="message"} 0"#))
        #expect(text.contains(#"msgc_realtime_refusals_total{reason="bad-signature"} 1"#))
        #expect(text.contains(#"msgc_realtime_refusals_total{reason="wrong-app"} 1"#))
        #expect(text.contains(#"msgc_realtime_refusals_total{reason="stale"} 1"#))
        #expect(text.contains(#"msgc_realtime_request_duration_seconds_count 4"#))
        #expect(text.contains(#"msgc_realtime_reloads_total{result="applied"} 0"#))
        #expect(server.stop() == 0)

        let lines = try server.logLines()
        #expect(lines.count == 4, "\(lines)")
        let first = try #require(lines.first)
        let payload = fixture.entries.first { $0["name"] as? String == "com.example.parla.plus.yearly--en-US" }!["payload"] as! [String: Any]
        #expect(first["requestIdentifier"] as? String == payload["requestIdentifier"] as? String)
        #expect(first["productId"] as? String == "com.example.parla.plus.yearly")
        #expect(first["userLocale"] as? String == "en-US")
        #expect(first["locale"] as? String == "en-US")
        #expect(first["message"] as? String == "offer-half-price")
        #expect(first["messageIdentifier"] as? String == (answer["promotionalOffer"] as? [String: Any])?["messageIdentifier"] as? String)
        #expect(first["outcome"] as? String == "answered" && first["kind"] as? String == "promotionalOffer")
        #expect(first["status"] as? Int == 200 && first["latencyMicroseconds"] is Int && first["time"] is String)
        #expect(lines[1]["reason"] as? String == "bad-signature" && lines[1]["status"] as? Int == 401)
        // Never the signed payload, the offer's signature or the key.
        let log = try String(contentsOf: server.logFile, encoding: .utf8)
        let signedPayload = try JSONSerialization.jsonObject(with: Data(english)) as! [String: String]
        for part in signedPayload["signedPayload"]!.split(separator: ".") {
            #expect(!log.contains(part.suffix(40)))
        }
        let signature = (answer["promotionalOffer"] as! [String: Any])["promotionalOfferSignatureV2"] as! String
        #expect(!log.contains(signature.split(separator: ".").last!))
        let key = try String(contentsOf: fixture.requests.appendingPathComponent("pki/offer-key.p8"), encoding: .utf8)
        #expect(!log.contains(key.split(separator: "\n")[1]))
        #expect(!log.contains(payload["originalTransactionId"] as! String))
    }

    /// The snapshot is swapped three ways (a new file renamed over it, the file rewritten in
    /// place, SIGHUP) while requests keep coming: none fails, and each is answered from one
    /// snapshot or the other, never a mix. A file that cannot be served (not a snapshot, or
    /// another app's) keeps the one served.
    @Test func reloadsUnderLoadAnswerFromOneWholeSnapshot() throws {
        let fixture = try Fixture(count: 40)
        let server = try fixture.start()
        let bodies = try fixture.loadBodies()
        let requests = try fixture.loadRequests()
        // The other snapshot: the yearly product answers with its switch-plan message first.
        var other = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.snapshot)) as! [String: Any]
        var products = other["products"] as! [[String: Any]]
        let yearly = products.firstIndex { $0["id"] as? String == "com.example.parla.plus.yearly" }!
        products[yearly]["realtime"] = [["message": "switch-monthly", "weight": 1]]
        other["products"] = products
        let otherBytes = try JSONSerialization.data(withJSONObject: other, options: [.sortedKeys])
        let firstBytes = try Data(contentsOf: fixture.snapshot)

        func generation() -> Int? {
            Self.json(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/healthz")))?["generation"] as? Int
        }
        let results = Locked<[LoopbackHTTP.Response?]>([])
        let loading = Locked(true)
        let load = Thread {
            // Bounded: at most 60 bursts, stopped as soon as the swaps are done.
            for _ in 0..<60 where loading.withLock({ $0 }) {
                let answers = LoopbackHTTP.burst(port: server.port, requests, deadline: 30)
                results.withLock { $0 += answers }
            }
            loading.withLock { $0 = false }
        }
        load.start()
        Thread.sleep(forTimeInterval: 0.3)
        // 1. Renamed over.
        let staged = fixture.folder.appendingPathComponent("snapshot.json.new")
        try otherBytes.write(to: staged)
        #expect(rename(staged.path, fixture.snapshot.path) == 0)
        #expect(ServeProcess.wait(upTo: 20) { generation() == 2 })
        // 2. Rewritten in place.
        try firstBytes.write(to: fixture.snapshot)
        #expect(ServeProcess.wait(upTo: 20) { generation() == 3 })
        // 3. SIGHUP.
        server.signal(SIGHUP)
        #expect(ServeProcess.wait(upTo: 20) { generation() == 4 })
        // 4. A file that is not a snapshot: the one served stays.
        try Data("{\"format\": \"msgc-realtime-snapshot\", \"schemaVersion\": 1".utf8).write(to: staged)
        #expect(rename(staged.path, fixture.snapshot.path) == 0)
        #expect(ServeProcess.wait(upTo: 20) { server.stderr.contains("kept generation 4") })
        server.signal(SIGHUP)
        #expect(ServeProcess.wait(upTo: 20) { server.stderr.components(separatedBy: "kept generation 4").count == 3 })
        // 5. A good snapshot of another app: the key and the app's id were given for this one.
        other["bundleId"] = "com.example.other"
        try JSONSerialization.data(withJSONObject: other, options: [.sortedKeys]).write(to: staged)
        #expect(rename(staged.path, fixture.snapshot.path) == 0)
        #expect(ServeProcess.wait(upTo: 20) { server.stderr.contains("is of com.example.other in production, but this server answers for com.example.parla") })
        loading.withLock { $0 = false }
        #expect(ServeProcess.wait(upTo: 60) { !load.isExecuting && load.isFinished })
        #expect(generation() == 4)
        #expect(Self.post(server.port, bodies[0])?.status == 200)
        let metrics = LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/metrics"))?.text ?? ""
        #expect(metrics.contains(#"msgc_realtime_reloads_total{result="applied"} 3"#), "\(metrics)")
        #expect(metrics.contains(#"msgc_realtime_reloads_total{result="rejected"} 3"#))
        #expect(server.stop() == 0)

        let answers = results.withLock { $0 }
        #expect(answers.count >= bodies.count)
        #expect(answers.allSatisfy { $0?.status == 200 || $0?.status == 404 }, "\(answers.filter { $0?.status != 200 && $0?.status != 404 }.count) of \(answers.count) failed")
        // Each answer is one snapshot's: the offer (first) or the switch-plan message (other).
        let kinds = Set(answers.compactMap { $0?.status == 200 ? Self.json($0)?.keys.sorted().joined(separator: ",") : nil })
        #expect(kinds.isSubset(of: ["promotionalOffer", "alternateProduct"]), "\(kinds)")
        #expect(kinds.count == 2, "both snapshots answered: \(kinds)")
        let logged = try server.logLines().filter { $0["outcome"] as? String == "answered" }
        for line in logged {
            let generation = line["generation"] as? Int ?? 0
            #expect((line["kind"] as? String == "alternateProduct") == (generation == 2), "\(line)")
        }
    }

    /// SIGTERM stops taking connections, but a request already being read is answered before
    /// the server ends with 0.
    @Test func sigtermAnswersTheRequestInFlightThenEndsWithZero() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        let body = try fixture.body("com.example.parla.plus.yearly--de-DE")
        let socket = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(socket) }
        let request = LoopbackHTTP.request("POST", "/", body: body)
        #expect(LoopbackHTTP.send(socket, Array(request.prefix(request.count - 100))))
        Thread.sleep(forTimeInterval: 0.2)
        server.signal(SIGTERM)
        // No new connection is taken once the server is shutting down.
        #expect(ServeProcess.wait(upTo: 10) { LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/healthz"), timeout: 1) == nil })
        #expect(LoopbackHTTP.send(socket, Array(request.suffix(100))))
        #expect(LoopbackHTTP.readResponse(socket)?.status == 200)
        #expect(ServeProcess.wait(upTo: 20) { !server.process.isRunning })
        #expect(server.process.terminationStatus == 0)
        #expect(server.process.terminationReason == .exit)
        #expect(try server.logLines().map { $0["status"] as? Int } == [200])
    }

    /// A burst like Apple's sandbox performance test: hundreds of signed requests at once.
    @Test func aBurstOfConcurrentRequestsIsAllAnswered() throws {
        let fixture = try Fixture(count: 300)
        let server = try fixture.start()
        let answers = LoopbackHTTP.burst(port: server.port, try fixture.loadRequests(), deadline: 60)
        #expect(answers.count == 300)
        // Every one answered: with a message (200), or, for a locale the snapshot has nothing
        // for (ko-KR), verified but unanswered (404, and Apple shows its default).
        #expect(answers.allSatisfy { $0?.status == 200 || $0?.status == 404 }, "\(answers.filter { $0?.status != 200 }.map { "\($0?.status ?? 0)" })")
        #expect(answers.filter { $0?.status == 200 }.count > 200)
        #expect(server.stop() == 0)
        let outcomes = try server.logLines().map { $0["outcome"] as? String ?? "" }
        #expect(outcomes.count == 300)
        #expect(Set(outcomes).isSubset(of: ["answered", "unanswered"]))
        #expect(outcomes.filter { $0 == "unanswered" }.count == answers.filter { $0?.status == 404 }.count)
    }

    /// HTTPS served directly, with a certificate for 127.0.0.1 made here; a client that trusts
    /// it (Python's ssl) gets the same answers as over HTTP.
    @Test func servesHTTPSWithItsOwnCertificate() throws {
        let fixture = try Fixture()
        let python = StandIn.python!
        func runPython(_ script: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", script] + arguments
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let (certificate, key) = try LoopbackTLS.make(in: fixture.folder)
        let server = try fixture.start(["--tls-certificate", certificate, "--tls-key", key, "--idle-timeout", "1"])
        #expect(server.stderr.contains("listening on https://127.0.0.1:"))
        // TLS 1.3 and 1.2 answer, 1.1 is refused; a client that opens a connection and never
        // starts its handshake is closed by the idle timeout.
        let said = try runPython("""
            import http.client, socket, ssl, sys, time
            port = int(sys.argv[2])
            def connect(version):
                context = ssl.create_default_context(cafile=sys.argv[1])
                context.minimum_version = context.maximum_version = version
                return http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
            connection = connect(ssl.TLSVersion.TLSv1_3)
            connection.request("GET", "/healthz")
            health = connection.getresponse()
            health.read()
            connection.request("POST", "/", body=open(sys.argv[3], "rb").read(), headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            body = answer.read().decode()
            older = connect(ssl.TLSVersion.TLSv1_2)
            older.request("GET", "/livez")
            live = older.getresponse()
            live.read()
            try:
                oldest = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                oldest.check_hostname = False
                oldest.verify_mode = ssl.CERT_NONE
                oldest.minimum_version = oldest.maximum_version = ssl.TLSVersion.TLSv1_1
                oldest.set_ciphers("ALL:@SECLEVEL=0")
                oldest.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10))
                refused = "accepted"
            except ssl.SSLError as error:
                # The server's alert, not a client that cannot offer TLS 1.1.
                refused = "refused" if "ALERT_PROTOCOL_VERSION" in str(error) else f"failed ({error})"
            silent = socket.create_connection(("127.0.0.1", port), timeout=30)
            closed = silent.recv(1) == b""
            print(health.status, answer.status, live.status, refused, "closed" if closed else "open", body)
            """, [certificate, String(server.port), fixture.requests.appendingPathComponent("valid/com.example.parla.plus.yearly--de-DE.json").path])
        #expect(said.hasPrefix("200 200 200 refused closed {"), "\(said)")
        #expect(said.contains("messageIdentifier"))
        // Plain HTTP on the HTTPS port gets no answer.
        #expect(Self.post(server.port, try fixture.body("com.example.parla.plus.yearly--de-DE"))?.status != 200)
        #expect(server.stop() == 0)

        let unreadable = try MsgcRunner.run(["realtime", "serve", "--port", "0"] + fixture.options + ["--tls-certificate", key, "--tls-key", key])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("TLS certificate"), "\(unreadable.stderr)")
        let alone = try MsgcRunner.run(["realtime", "serve", "--port", "0"] + fixture.options + ["--tls-certificate", certificate])
        #expect(alone.status == 2)
    }

    @Test func unusableSnapshotsAndOptionsExitTwoBeforeListening() throws {
        let fixture = try Fixture()
        func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> MsgcRunner.Result {
            try MsgcRunner.run(["realtime", "serve", "--port", "0"] + arguments, environment: environment)
        }
        let root = fixture.requests.appendingPathComponent("pki/root.pem").path
        let missing = try serve(["--snapshot", fixture.folder.appendingPathComponent("none.json").path, "--app-apple-id", "1"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("does not exist") && !missing.stderr.contains("listening"))
        let production = try serve(["--snapshot", fixture.snapshot.path, "--root-certificate", root])
        #expect(production.status == 2)
        #expect(production.stderr.contains("Apple ID"), "\(production.stderr)")
        let notSnapshot = try serve(["--snapshot", root, "--app-apple-id", "1"])
        #expect(notSnapshot.status == 2)
        let badRoot = try serve(["--snapshot", fixture.snapshot.path, "--app-apple-id", "1", "--root-certificate", fixture.snapshot.path])
        #expect(badRoot.status == 2)
        #expect(badRoot.stderr.contains("certificate"), "\(badRoot.stderr)")
        let port = try serve(["--snapshot", fixture.snapshot.path, "--app-apple-id", "1", "--port", "70000"])
        #expect(port.status == 2)
        for value in ["0", "3601", "soon"] {
            let idle = try serve(["--snapshot", fixture.snapshot.path, "--app-apple-id", "1", "--idle-timeout", value])
            #expect(idle.status == 2 && idle.stderr.contains("--idle-timeout"), "\(value): \(idle.stderr)")
        }
        for (option, value) in [("--shutdown-delay", "11m"), ("--shutdown-delay", "-1"), ("--shutdown-delay", "soon"), ("--keep", "3650"), ("--keep", "30m"), ("--max-connections", "0"), ("--path", "/readyz"), ("--path", "/livez")] {
            let refused = try serve(["--snapshot", fixture.snapshot.path, "--app-apple-id", "1", option, value])
            #expect(refused.status == 2 && refused.stderr.contains(option), "\(option) \(value): \(refused.stderr)")
        }
        let partialKey = try serve(["--snapshot", fixture.snapshot.path, "--app-apple-id", "1", "--key-id", "K"], environment: ["MSGC_KEY_FILE": "", "MSGC_ISSUER_ID": ""])
        #expect(partialKey.status == 2)
        #expect(partialKey.stderr.contains("--key-file"), "\(partialKey.stderr)")
        let badKey = try serve(["--snapshot", fixture.snapshot.path, "--app-apple-id", "1", "--key-file", root, "--key-id", "K", "--issuer-id", "I"])
        #expect(badKey.status == 2)
        // An address in use: said, status 2.
        let server = try fixture.start()
        let taken = try serve(fixture.options + ["--port", String(server.port)])
        #expect(taken.status == 2)
        #expect(taken.stderr.contains("cannot serve"), "\(taken.stderr)")
        #expect(server.stop() == 0)
    }
}
