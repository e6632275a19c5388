import Bundle
import Foundation
import HTTPTypes
import HummingbirdCore
import Model
import NIOCore
import Realtime

/// Answers one HTTP request: routes it, reads a realtime body, asks the served snapshot's
/// responder, writes the reply, counts it and logs it.
struct RealtimeHandler: Sendable {
    let realtimePath: String
    let reader: RequestBodyReader
    let slot: ResponderSlot
    let metrics: ServerMetrics
    let requestLog: @Sendable ([UInt8]) -> Void

    /// Thrown after a response that must end its connection is written: HummingbirdCore then
    /// closes the connection instead of reading what is left of the request.
    struct CloseConnection: Error {}

    func handle(_ request: Request, writer: consuming ResponseWriter) async throws {
        let start = ContinuousClock.now
        let route = Route(method: request.method, path: request.uri.path, realtimePath: realtimePath)
        var line = RequestLogLine(
            time: Date(), method: request.method.rawValue, path: request.uri.path, status: 0, latencyMicroseconds: 0, outcome: "")
        switch route {
        case .realtime:
            let body: [UInt8]
            do {
                body = try await reader.read(request)
            } catch {
                // Nothing of the body reached the responder; the connection is closed, since
                // what is left of the body would have to be read before another request.
                let elapsed = Self.nanoseconds(since: start)
                metrics.record(error, nanoseconds: elapsed)
                line.status = error.status
                line.outcome = "refused"
                line.reason = error.rawValue
                line.latencyMicroseconds = elapsed / 1000
                requestLog(line.bytes)
                try await Self.write(status: error.status, body: [], to: writer, closing: true)
                throw CloseConnection()
            }
            let served = slot.served
            let reply = served.responder.respond(to: body, receivedAt: Date())
            let elapsed = Self.nanoseconds(since: start)
            metrics.record(reply.outcome, nanoseconds: elapsed)
            line.status = reply.status
            line.latencyMicroseconds = elapsed / 1000
            line.generation = served.generation
            switch reply.outcome {
            case .answered(let kind):
                line.outcome = "answered"
                line.kind = kind.rawValue
            case .unanswered: line.outcome = "unanswered"
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
            try await Self.write(status: reply.status, body: reply.body, to: writer, closing: false)
        case .health:
            let served = slot.served
            let snapshot = served.responder.snapshot
            let body = JSONValue.object([
                "status": .string("serving"),
                "generation": .integer(served.generation),
                "snapshot": .string(served.fileDigest),
                "bundleId": .string(snapshot.bundleId),
                "environment": .string(snapshot.environment.rawValue),
                "bundleDigest": .string(snapshot.bundleDigest),
            ]).canonicalBytes
            try await Self.write(status: 200, body: body, to: writer, closing: false)
        case .metrics:
            try await Self.write(
                status: 200, body: metrics.exposition(), to: writer, closing: false,
                contentType: "text/plain; version=0.0.4; charset=utf-8")
        case .methodNotAllowed(let allow):
            line.status = 405
            line.outcome = "rejected"
            line.latencyMicroseconds = Self.nanoseconds(since: start) / 1000
            requestLog(line.bytes)
            try await Self.write(status: 405, body: [], to: writer, closing: true, extra: [.allow: allow])
            throw CloseConnection()
        case .notFound:
            line.status = 404
            line.outcome = "rejected"
            line.latencyMicroseconds = Self.nanoseconds(since: start) / 1000
            requestLog(line.bytes)
            try await Self.write(status: 404, body: [], to: writer, closing: true)
            throw CloseConnection()
        }
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
