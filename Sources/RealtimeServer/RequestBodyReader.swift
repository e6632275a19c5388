import HTTPTypes
import HummingbirdCore
import NIOCore

/// Reads a request's body whole (any route's), within a byte cap and a deadline.
///
/// A `Content-Length` above the cap is refused before a byte is read. Otherwise the body is
/// read while a timer runs beside it; whichever ends first wins, and the other is cancelled.
/// The connection's idle timeout cannot do this job: every byte a trickling client sends
/// counts as activity, so only a deadline on the whole body bounds it.
struct RequestBodyReader: Sendable {
    var maxByteCount: Int
    var deadline: Duration

    /// Whether the client sent `Expect: 100-continue` and waits for `100 Continue` before
    /// sending a body the cap allows (curl does for bodies over 1 KB). A body declared too
    /// large gets no `100 Continue`: `read` refuses it at once.
    func waitsForContinue(_ request: Request) -> Bool {
        guard let expect = request.headers[.expect], expect.lowercased() == "100-continue" else { return false }
        return !declaresTooMuch(request)
    }

    func declaresTooMuch(_ request: Request) -> Bool {
        guard let declared = request.headers[.contentLength] else { return false }
        // A length too long to be a number is too large too.
        return Int(declared).map { $0 > maxByteCount } ?? (declared.utf8.count > 18)
    }

    func read(_ request: Request) async throws(BodyRefusal) -> [UInt8] {
        if declaresTooMuch(request) { throw .tooLarge }
        let body = request.body
        let limit = maxByteCount
        let deadline = deadline
        let result: Result<[UInt8], BodyRefusal> = await withTaskGroup(of: Result<[UInt8], BodyRefusal>?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                do {
                    for try await buffer in body {
                        guard bytes.count + buffer.readableBytes <= limit else { return .failure(.tooLarge) }
                        bytes += buffer.readableBytesView
                    }
                } catch {
                    // The connection ended or was cancelled mid-body: the timer's verdict, or
                    // nothing to answer.
                    return nil
                }
                return .success(bytes)
            }
            group.addTask {
                try? await Task.sleep(for: deadline)
                return Task.isCancelled ? nil : .failure(.tooSlow)
            }
            var outcome: Result<[UInt8], BodyRefusal> = .failure(.tooSlow)
            for await finished in group {
                if let finished {
                    outcome = finished
                    break
                }
            }
            group.cancelAll()
            return outcome
        }
        return try result.get()
    }
}
