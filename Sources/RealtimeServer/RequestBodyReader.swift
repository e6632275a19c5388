import HTTPTypes
import HummingbirdCore
import NIOCore

/// Reads a realtime request's body whole, within a byte cap and a deadline.
///
/// A `Content-Length` above the cap is refused before a byte is read. Otherwise the body is
/// read while a timer runs beside it; whichever ends first wins, and the other is cancelled.
/// The connection's idle timeout cannot do this job: every byte a trickling client sends
/// counts as activity, so only a deadline on the whole body bounds it.
struct RequestBodyReader: Sendable {
    var maxByteCount: Int
    var deadline: Duration

    func read(_ request: Request) async throws(BodyRefusal) -> [UInt8] {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxByteCount {
            throw .tooLarge
        }
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
