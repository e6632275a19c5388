import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What an attacker (or a rollout) does to `msgc realtime serve` next: bodies that never end
/// on every route, `Expect: 100-continue`, pipelining, half-closed sockets, header floods,
/// more connections than descriptors, a reload of a large snapshot or of one that answers
/// nothing, and SIGTERM under keep-alive clients. Every wait is bounded; nothing races a fixed
/// sleep against the server.
extension RealtimeServeTests {
    /// The bytes of one response head (up to its blank line), read a byte at a time so that
    /// nothing after it is consumed; nil when none came before the socket's receive timeout.
    static func readHead(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.suffix(4) != [13, 10, 13, 10] {
            let count = recv(fd, &byte, 1, 0)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, bytes.count < 16 << 10 else { return nil }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A body that never ends, on the server's own GET routes: cut by the same deadline as a
    /// realtime body (408, connection closed), however steadily its bytes trickle; one too
    /// large for the cap refused at once (413). Meanwhile valid requests are answered.
    @Test func bodiesOnEveryRouteAreCutByTheDeadlineAndTheCap() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        let valid = try fixture.body("com.example.parla.plus.yearly--de-DE")
        var trickled: [(Int32, Thread)] = []
        for (path, head) in [
            ("/healthz", "Content-Length: 30000"), ("/metrics", "Transfer-Encoding: chunked"), ("/livez", "Content-Length: 20000"),
            ("/readyz", "Content-Length: 5000"),
        ] {
            let fd = try #require(LoopbackHTTP.connect(port: server.port, timeout: 20))
            #expect(LoopbackHTTP.send(fd, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(head)\r\n\r\n".utf8)))
            // A byte every 100 ms, each one activity the idle timer would have counted; at
            // most 20 s of it, ended early once the server closes.
            let chunked = head.hasPrefix("Transfer")
            let thread = Thread {
                for _ in 0..<200 {
                    let piece: [UInt8] = chunked ? Array("1\r\na\r\n".utf8) : [UInt8(ascii: "a")]
                    guard LoopbackHTTP.send(fd, piece) else { return }
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            thread.start()
            trickled.append((fd, thread))
        }
        for _ in 0..<5 {
            #expect(Self.post(server.port, valid)?.status == 200)
        }
        for (fd, _) in trickled {
            let cut = LoopbackHTTP.readResponse(fd)
            #expect(cut?.status == 408, "\(String(describing: cut))")
            #expect(cut?.headers["connection"] == "close")
            #expect(LoopbackHTTP.isClosed(fd))
            close(fd)
        }
        #expect(ServeProcess.wait(upTo: 30) { trickled.allSatisfy { $0.1.isFinished } })
        // Declared larger than the cap: refused before a byte of it is read.
        let large = LoopbackHTTP.exchange(
            port: server.port, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000000\r\n\r\n".utf8))
        #expect(large?.status == 413 && large?.headers["connection"] == "close")
        // A GET with a small whole body is read and answered, on a connection kept open.
        let fd = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(fd) }
        #expect(LoopbackHTTP.send(fd, LoopbackHTTP.request("GET", "/livez", body: Array("{}".utf8))))
        let live = LoopbackHTTP.readResponse(fd)
        #expect(live?.status == 200 && live?.headers["connection"] == nil)
        #expect(LoopbackHTTP.send(fd, LoopbackHTTP.request("POST", "/", body: valid)))
        #expect(LoopbackHTTP.readResponse(fd)?.status == 200)
        #expect(server.stop() == 0)
        let reasons = try server.logLines().compactMap { $0["reason"] as? String }
        #expect(reasons == ["body-too-slow", "body-too-slow", "body-too-slow", "body-too-slow", "body-too-large"], "\(reasons)")
    }

    /// `Expect: 100-continue` (curl's, for bodies over 1 KB) gets `100 Continue` before the
    /// body is sent, then the answer; a body declared too large gets 413 at once instead.
    /// Pipelined requests are answered in order; a client that half-closes after its request
    /// still gets the answer; a flood of headers is refused, not held.
    @Test func expectContinuePipeliningHalfCloseAndHeaderFloods() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        let valid = try fixture.body("com.example.parla.plus.yearly--de-DE")

        let waiting = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(waiting) }
        let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(valid.count)\r\nExpect: 100-continue\r\n\r\n"
        #expect(LoopbackHTTP.send(waiting, Array(head.utf8)))
        let interim = try #require(Self.readHead(waiting))
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim)")
        #expect(LoopbackHTTP.send(waiting, valid))
        #expect(LoopbackHTTP.readResponse(waiting)?.status == 200)

        let refused = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(refused) }
        #expect(LoopbackHTTP.send(refused, Array("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\nExpect: 100-continue\r\n\r\n".utf8)))
        let refusal = LoopbackHTTP.readResponse(refused)
        #expect(refusal?.status == 413, "\(String(describing: refusal))")
        #expect(LoopbackHTTP.isClosed(refused))

        // Three requests in one write, answered in order on the one connection.
        let pipelined = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(pipelined) }
        let requests = LoopbackHTTP.request("POST", "/", body: valid) + LoopbackHTTP.request("GET", "/livez")
            + LoopbackHTTP.request("POST", "/", body: try fixture.body("unknown-product"))
        #expect(LoopbackHTTP.send(pipelined, requests))
        var statuses: [Int?] = []
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while statuses.count < 3 {
            if let response = LoopbackHTTP.parse(buffer, ended: false) {
                statuses.append(response.status)
                let end = buffer.firstRange(of: [13, 10, 13, 10])!.upperBound + response.body.count
                buffer.removeFirst(end)
                continue
            }
            let count = chunk.withUnsafeMutableBytes { recv(pipelined, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            buffer += chunk[0..<count]
        }
        #expect(statuses == [200, 200, 404])

        // Half-closed after the request: the answer still comes.
        let half = try #require(LoopbackHTTP.connect(port: server.port))
        defer { close(half) }
        #expect(LoopbackHTTP.send(half, LoopbackHTTP.request("POST", "/", body: valid)))
        shutdown(half, Int32(SHUT_WR))
        #expect(LoopbackHTTP.readResponse(half)?.status == 200)

        // A thousand headers, or one huge one: refused and closed.
        var flood = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for index in 0..<1000 { flood += "X-Flood-\(index): \(String(repeating: "f", count: 40))\r\n" }
        let flooded = LoopbackHTTP.exchange(port: server.port, Array((flood + "\r\n").utf8))
        #expect(flooded?.status == 400, "\(String(describing: flooded))")
        let long = LoopbackHTTP.exchange(
            port: server.port, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: \(String(repeating: "l", count: 20000))\r\n\r\n".utf8))
        #expect(long?.status == 400)
        #expect(Self.post(server.port, valid)?.status == 200)
        #expect(server.stop() == 0)
    }

    /// Under a descriptor limit of 64, connections are capped below it (the limit less what is
    /// open at start less 16): the cap is said at start and once when reached (closing the
    /// idle connections lets the backlog's in, which may reach the cap again: a minute has not
    /// passed, so that is not said again), the server
    /// survives a dozen idle connections more than the cap (before the cap, it died of SIGILL
    /// when libdispatch could not open a descriptor), and a request past the cap waits in the
    /// backlog until a connection closes, then is answered.
    @Test func connectionsAreCappedBelowTheDescriptorLimit() throws {
        let fixture = try Fixture()
        let server = try ServeProcess(fixture.options + ["--idle-timeout", "120"], folder: fixture.folder, descriptorLimit: 64)
        // The cap is said just after the address, which is what the start waits for.
        let capLine = /holds at most (\d+) connections at once \(descriptor limit 64\)/
        ServeProcess.wait(upTo: 30) { server.stderr.firstMatch(of: capLine) != nil }
        let said = try #require(server.stderr.firstMatch(of: capLine), "\(server.stderr)")
        let cap = try #require(Int(said.output.1))
        #expect(cap >= 16 && cap <= 64 - 16 - 10, "\(cap)")
        var idle: [Int32] = []
        defer { for fd in idle { close(fd) } }
        for _ in 0..<(cap + 12) {
            if let fd = LoopbackHTTP.connect(port: server.port, timeout: 30) { idle.append(fd) }
        }
        #expect(idle.count == cap + 12, "the backlog takes what the server does not accept")
        #expect(ServeProcess.wait(upTo: 30) { server.stderr.contains("\(cap) connections are open, the most this server holds") }, "\(server.stderr)")
        let valid = try fixture.body("com.example.parla.plus.yearly--de-DE")
        let waiting = try #require(LoopbackHTTP.connect(port: server.port, timeout: 30))
        defer { close(waiting) }
        #expect(LoopbackHTTP.send(waiting, LoopbackHTTP.request("POST", "/", body: valid)))
        // Past the cap the server still runs, and answers once connections close.
        #expect(server.process.isRunning, "\(server.stderr)")
        for fd in idle { close(fd) }
        idle = []
        #expect(LoopbackHTTP.readResponse(waiting)?.status == 200)
        #expect(server.process.isRunning, "\(server.stderr)")
        #expect(Self.post(server.port, valid)?.status == 200)
        #expect(server.stop() == 0)
        #expect(server.stderr.components(separatedBy: "connections are open, the most").count == 2, "said once: \(server.stderr)")
    }

    /// A snapshot that answers nothing (no product has a locale with a message) is not swapped
    /// in, by a file change or by SIGHUP: the served one stays, the reload is counted as
    /// rejected and said why. A server started on one is live, but not ready.
    @Test func aSnapshotThatAnswersNothingIsNotSwappedIn() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        var empty = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.snapshot)) as! [String: Any]
        var products = empty["products"] as! [[String: Any]]
        for index in products.indices { products[index]["locales"] = [] as [Any] }
        empty["products"] = products
        let emptyBytes = try JSONSerialization.data(withJSONObject: empty, options: [.sortedKeys])
        let staged = fixture.folder.appendingPathComponent("snapshot.json.new")
        try emptyBytes.write(to: staged)
        #expect(rename(staged.path, fixture.snapshot.path) == 0)
        #expect(ServeProcess.wait(upTo: 20) { server.stderr.contains("answers nothing") }, "\(server.stderr)")
        server.signal(SIGHUP)
        #expect(ServeProcess.wait(upTo: 20) { server.stderr.components(separatedBy: "answers nothing").count == 3 }, "\(server.stderr)")
        #expect(server.stderr.contains("kept generation 1"))
        let health = Self.json(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/healthz")))
        #expect(health?["generation"] as? Int == 1)
        #expect(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/readyz"))?.status == 200)
        #expect(Self.post(server.port, try fixture.body("com.example.parla.plus.yearly--de-DE"))?.status == 200)
        let metrics = LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/metrics"))?.text ?? ""
        #expect(metrics.contains(#"msgc_realtime_reloads_total{result="rejected"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"msgc_realtime_reloads_total{result="applied"} 0"#))
        #expect(server.stop() == 0)

        // Started on it: alive, not ready.
        let idle = try fixture.start()
        #expect(LoopbackHTTP.exchange(port: idle.port, LoopbackHTTP.request("GET", "/livez"))?.status == 200)
        let ready = LoopbackHTTP.exchange(port: idle.port, LoopbackHTTP.request("GET", "/readyz"))
        #expect(ready?.status == 503 && Self.json(ready)?["status"] as? String == "answers-nothing")
        #expect(idle.stop() == 0)
    }

    /// A SIGHUP reload of a large snapshot keeps answering: requests sent while it is read and
    /// checked are answered from the snapshot served, not held until it is done.
    @Test func aReloadOfALargeSnapshotStallsNoAnswer() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        var large = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.snapshot)) as! [String: Any]
        let products = large["products"] as! [[String: Any]]
        var copies: [[String: Any]] = []
        // About 10 MB: seconds of decoding on a loaded machine.
        for index in 0..<600 {
            for var product in products {
                product["id"] = "\(product["id"] as! String).copy\(index)"
                copies.append(product)
            }
        }
        large["products"] = products + copies.sorted { ($0["id"] as! String) < ($1["id"] as! String) }
        let staged = fixture.folder.appendingPathComponent("large.json")
        try JSONSerialization.data(withJSONObject: large, options: [.sortedKeys]).write(to: staged)
        let valid = LoopbackHTTP.request("POST", "/", body: try fixture.body("com.example.parla.plus.yearly--de-DE"))
        #expect(rename(staged.path, fixture.snapshot.path) == 0)
        let signalled = Date()
        server.signal(SIGHUP)
        var sent: [Date] = []
        var answered: [Int?] = []
        var waited: [Double] = []
        var reloaded: Date?
        // Bounded: at most 5,000 requests (paced at one per 20 ms) or 180 s.
        while reloaded == nil && sent.count < 5000 && Date().timeIntervalSince(signalled) < 180 {
            sent.append(Date())
            answered.append(LoopbackHTTP.exchange(port: server.port, valid, timeout: 30)?.status)
            waited.append(Date().timeIntervalSince(sent[sent.count - 1]))
            if server.stderr.contains("reloaded the snapshot") { reloaded = Date() }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let done = try #require(reloaded, "\(sent.count) requests: \(server.stderr)")
        #expect(server.stop() == 0)
        let logged = try server.logLines()
        // Each request that got no 200, with the time it was sent and what the server logged.
        let missed = answered.indices.filter { answered[$0] != 200 }.map { index in
            "#\(index) at +\(sent[index].timeIntervalSince(signalled)) s: \(answered[index].map(String.init) ?? "no answer") after \(waited[index]) s"
        }
        #expect(missed.isEmpty, "\(missed.count) of \(sent.count) requests: \(missed.prefix(5)); not 200 in the log: \(logged.filter { $0["status"] as? Int != 200 }.prefix(5)); \(server.stderr)")
        // A request sent in the second half of the reload was answered from the snapshot
        // served before it: the reload held nothing.
        let halfway = signalled.addingTimeInterval(done.timeIntervalSince(signalled) / 2)
        let generations = logged.map { $0["generation"] as? Int }
        #expect(generations.count == sent.count)
        let answeredMeanwhile = zip(sent, generations).filter { $0.0 > halfway && $0.1 == 1 }.count
        #expect(answeredMeanwhile > 0, "\(sent.count) requests over \(done.timeIntervalSince(signalled)) s, generations \(generations)")
    }

    /// SIGTERM with `--shutdown-delay`: `/readyz` turns 503 at once, the server keeps
    /// answering for the delay, every answer after SIGTERM closes its connection, and a
    /// keep-alive client that goes on until it sees `/readyz` fail (as a load balancer does)
    /// loses no request; then the server stops taking connections and ends with 0.
    @Test func sigtermWithAShutdownDelayLosesNoKeepAliveRequest() throws {
        let fixture = try Fixture()
        let server = try fixture.start(["--shutdown-delay", "4s"])
        let request = LoopbackHTTP.request("POST", "/", body: try fixture.body("com.example.parla.plus.yearly--de-DE"))
        #expect(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/readyz"))?.status == 200)
        var connection = try #require(LoopbackHTTP.connect(port: server.port))
        // Two answers on the one keep-alive connection before SIGTERM.
        for _ in 0..<2 {
            #expect(LoopbackHTTP.send(connection, request))
            let answer = LoopbackHTTP.readResponse(connection)
            #expect(answer?.status == 200 && answer?.headers["connection"] == nil)
        }
        server.signal(SIGTERM)
        var lost = 0
        var closing = 0
        var afterNotReady = 0
        var notReady = false
        // Bounded: 500 requests at most; the delay ends it far sooner.
        for _ in 0..<500 where afterNotReady < 3 {
            if connection < 0, let fresh = LoopbackHTTP.connect(port: server.port) { connection = fresh }
            guard connection >= 0 else { break }
            guard LoopbackHTTP.send(connection, request), let answer = LoopbackHTTP.readResponse(connection) else {
                lost += 1
                close(connection)
                connection = -1
                continue
            }
            #expect(answer.status == 200)
            if answer.headers["connection"] == "close" {
                closing += 1
                close(connection)
                connection = -1
            }
            if notReady {
                afterNotReady += 1
            } else {
                let ready = LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/readyz"), timeout: 5)
                notReady = ready?.status == 503 && Self.json(ready)?["status"] as? String == "draining"
            }
        }
        if connection >= 0 { close(connection) }
        #expect(lost == 0)
        #expect(notReady)
        #expect(afterNotReady == 3, "answered while draining")
        #expect(closing >= 3, "every answer after SIGTERM closes its connection")
        #expect(server.process.isRunning, "still within the delay")
        #expect(ServeProcess.wait(upTo: 30) { !server.process.isRunning })
        #expect(server.process.terminationStatus == 0 && server.process.terminationReason == .exit)
        #expect(server.stderr.contains("draining: /readyz answers 503"))
        #expect(LoopbackHTTP.connect(port: server.port, timeout: 1).map { close($0); return true } != true)
    }

    /// Operators can see why: an unanswered request says why in its log line and in
    /// `msgc_realtime_unanswered_total{reason}`; answers are counted per product and message;
    /// `msgc_build_info` names the version; `/healthz` the snapshot's release.
    @Test func unansweredRequestsSayWhyAndAnswersAreCountedPerMessage() throws {
        let fixture = try Fixture()
        let server = try fixture.start()
        #expect(Self.post(server.port, try fixture.body("unknown-product"))?.status == 404)
        #expect(Self.post(server.port, try fixture.body("unknown-locale"))?.status == 404)
        #expect(Self.post(server.port, try fixture.body("com.example.parla.plus.yearly--de-DE"))?.status == 200)
        let metrics = LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/metrics"))?.text ?? ""
        #expect(metrics.contains(#"msgc_realtime_unanswered_total{reason="unknown-product"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"msgc_realtime_unanswered_total{reason="no-locale"} 1"#))
        #expect(metrics.contains(#"msgc_realtime_unanswered_total{reason="nothing-usable"} 0"#))
        #expect(metrics.contains(#"msgc_build_info{version="#))
        let lines = try server.logLines()
        #expect(lines.map { $0["reason"] as? String } == ["unknown-product", "no-locale", nil])
        let answered = try #require(lines.last)
        let product = try #require(answered["productId"] as? String)
        let message = try #require(answered["message"] as? String)
        #expect(metrics.contains("msgc_realtime_message_answers_total{message=\"\(message)\",product=\"\(product)\"} 1")
            || metrics.contains("msgc_realtime_message_answers_total{product=\"\(product)\",message=\"\(message)\"} 1"), "\(metrics)")
        let series = metrics.split(separator: "\n").filter { $0.hasPrefix("msgc_realtime_message_answers_total{") }
        #expect(series.count > 1 && series.count < 100, "one series per message of the snapshot: \(series.count)")
        let snapshot = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.snapshot)) as! [String: Any]
        let health = try #require(Self.json(LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/healthz"))))
        #expect((health["release"] as? String) == (snapshot["release"] as? String))
        #expect(health.keys.contains("release"))
        #expect(server.stop() == 0)
    }
}
