import Bundle
import ExperimentStore
import Foundation
import HTTPTypes
import HummingbirdCore
import Model
import NIOCore
import Realtime

/// Answers one HTTP request: routes it, reads its body within the limits (every route), asks
/// the served snapshot's responder, writes the reply, counts it and logs it.
struct RealtimeHandler: Sendable {
    let realtimePath: String
    let reader: RequestBodyReader
    /// With an experiment store: the decision log, sticky arms and the notifications endpoint,
    /// whose bodies are read by `notificationReader` (the verifier's larger cap).
    let experiments: ExperimentLog?
    let notificationReader: RequestBodyReader
    let slot: ResponderSlot
    let metrics: ServerMetrics
    let draining: Draining
    let requestLog: @Sendable ([UInt8]) -> Void
    /// The time of day: a request's log line is dated by it, and the responder checks the
    /// request's dates and signs offers against it. Latency is measured on a monotonic clock.
    let clock: WallClock

    /// Thrown after a response that must end its connection is written: HummingbirdCore then
    /// closes the connection instead of reading what is left of the request.
    struct CloseConnection: Error {}

    func handle(_ request: Request, writer: consuming ResponseWriter) async throws {
        let start = ContinuousClock.now
        let route = Route(
            method: request.method, path: request.uri.path, realtimePath: realtimePath,
            notificationsPath: experiments?.settings.notificationsPath)
        var line = RequestLogLine(
            time: clock.now(), method: request.method.rawValue, path: request.uri.path, status: 0, latencyMicroseconds: 0, outcome: "")
        switch route {
        case .methodNotAllowed, .notFound:
            // Answered at once without reading the body, and the connection closed: what is
            // left of the body is never read.
            line.status = route == .notFound ? 404 : 405
            line.outcome = "rejected"
            line.latencyMicroseconds = Self.nanoseconds(since: start) / 1000
            requestLog(line.bytes)
            var extra: HTTPFields = [:]
            if case .methodNotAllowed(let allow) = route { extra[.allow] = allow }
            try await Self.write(status: line.status, body: [], to: writer, closing: true, extra: extra)
            throw CloseConnection()
        case .realtime, .notifications, .health, .live, .ready, .metrics:
            break
        }
        // Every route reads its body whole within the cap and the deadline before answering, so
        // a GET with a body that never ends holds its connection no longer than a POST's; a
        // client that waits for `100 Continue` gets it once the body's declared size is known
        // to fit.
        let bodyReader = route == .notifications ? notificationReader : reader
        if bodyReader.waitsForContinue(request) {
            try await writer.writeInformationalHead(HTTPResponse(status: .continue))
        }
        let body: [UInt8]
        do {
            body = try await bodyReader.read(request)
        } catch {
            // Nothing of the body reached the responder; the connection is closed, since what
            // is left of the body would have to be read before another request.
            let elapsed = Self.nanoseconds(since: start)
            if route == .realtime { metrics.record(error, nanoseconds: elapsed) } else { metrics.recordRefusedBody(error) }
            line.status = error.status
            line.outcome = "refused"
            line.reason = error.rawValue
            line.latencyMicroseconds = elapsed / 1000
            requestLog(line.bytes)
            try await Self.write(status: error.status, body: [], to: writer, closing: true)
            throw CloseConnection()
        }
        // Once draining, every answer ends its connection, so a keep-alive client opens a new
        // one (to another instance) for its next request.
        let closing = draining.isDraining
        switch route {
        case .realtime:
            let served = slot.served
            let now = clock.now()
            let reply: RealtimeReply
            if let experiments {
                switch served.responder.verify(body: body, receivedAt: now) {
                case .refused(let refused):
                    reply = refused
                case .verified(let verified):
                    let answered = await experiments.answer(verified, served: served, at: now)
                    reply = answered.reply
                    if answered.assignment != .none { line.assignment = answered.assignment.rawValue }
                }
            } else {
                reply = served.responder.respond(to: body, receivedAt: now)
            }
            let elapsed = Self.nanoseconds(since: start)
            metrics.record(reply, nanoseconds: elapsed)
            line.status = reply.status
            line.latencyMicroseconds = elapsed / 1000
            line.generation = served.generation
            switch reply.outcome {
            case .answered(let kind):
                line.outcome = "answered"
                line.kind = kind.rawValue
            case .unanswered:
                line.outcome = "unanswered"
                line.reason = reply.unansweredReason?.rawValue
            case .refused(let refusal):
                line.outcome = "refused"
                line.reason = refusal.rawValue
            }
            line.requestIdentifier = reply.requestIdentifier
            line.productId = reply.productId
            line.userLocale = reply.userLocale
            line.locale = reply.locale
            line.messageKey = reply.messageKey
            line.messageIdentifier = reply.messageIdentifier
            // Logged before the answer is sent, so that the log's order is the order in which
            // a client that waits for each answer sent its requests.
            requestLog(line.bytes)
            try await Self.write(status: reply.status, body: reply.body, to: writer, closing: closing)
        case .notifications:
            guard let experiments else { preconditionFailure("routed only with an experiment store") }
            let receipt = await experiments.receive(body: body, at: clock.now())
            line.status = receipt.status
            line.outcome = receipt.outcome
            line.reason = receipt.reason
            line.latencyMicroseconds = Self.nanoseconds(since: start) / 1000
            requestLog(line.bytes)
            try await Self.write(status: receipt.status, body: [], to: writer, closing: closing)
        case .health:
            let served = slot.served
            let snapshot = served.responder.snapshot
            let body = JSONValue.object([
                "status": .string(closing ? "draining" : "serving"),
                "generation": .integer(served.generation),
                "snapshot": .string(served.fileDigest),
                "bundleId": .string(snapshot.bundleId),
                "environment": .string(snapshot.environment.rawValue),
                "bundleDigest": .string(snapshot.bundleDigest),
                "release": snapshot.release.map { .string($0) } ?? .null,
            ]).canonicalBytes
            try await Self.write(status: 200, body: body, to: writer, closing: closing)
        case .live:
            try await Self.write(status: 200, body: JSONValue.object(["status": .string("alive")]).canonicalBytes, to: writer, closing: closing)
        case .ready:
            let served = slot.served
            let (status, word): (Int, String) =
                closing ? (503, "draining") : served.responder.answersSomething ? (200, "ready") : (503, "answers-nothing")
            let body = JSONValue.object(["status": .string(word), "generation": .integer(served.generation)]).canonicalBytes
            try await Self.write(status: status, body: body, to: writer, closing: closing)
        case .metrics:
            try await Self.write(
                status: 200, body: metrics.exposition(), to: writer, closing: closing,
                contentType: "text/plain; version=0.0.4; charset=utf-8")
        case .methodNotAllowed, .notFound:
            preconditionFailure("answered above")
        }
        if closing { throw CloseConnection() }
    }

    static func write(
        status: Int, body: [UInt8], to writer: consuming ResponseWriter, closing: Bool,
        contentType: String = "application/json", extra: HTTPFields = [:]
    ) async throws {
        var fields = extra
        fields[.contentLength] = String(body.count)
        if !body.isEmpty { fields[.contentType] = contentType }
        if closing { fields[.connection] = "close" }
        let head = HTTPResponse(status: .init(code: status), headerFields: fields)
        if body.isEmpty {
            try await writer.writeResponse(head)
        } else {
            try await writer.write(response: head, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    static func nanoseconds(since start: ContinuousClock.Instant) -> Int64 {
        RealtimeServer.nanoseconds(ContinuousClock.now - start)
    }
}
