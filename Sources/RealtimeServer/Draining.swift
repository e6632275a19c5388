import ServiceLifecycle
import Synchronization

/// Whether the server has been told to stop (SIGTERM, SIGINT) and is draining: `/readyz`
/// answers 503 so a load balancer sends no new requests, and every answer carries
/// `Connection: close` so no keep-alive client sends its next request into a closing socket.
final class Draining: Sendable {
    private let flag = Atomic<Bool>(false)

    var isDraining: Bool { flag.load(ordering: .acquiring) }

    func start() { flag.store(true, ordering: .releasing) }
}

/// The first service told to shut down: it marks the server draining and keeps it serving for
/// `delay` (the time a load balancer takes to see `/readyz` fail), then returns, and the
/// server stops taking connections and finishes the requests in flight.
struct ShutdownDelay: Service {
    let draining: Draining
    let delay: Duration
    let notice: @Sendable (String) -> Void

    func run() async throws {
        // Returns when the group shuts down; throws only when cancelled, and then there is
        // nothing to drain.
        do {
            try await gracefulShutdown()
        } catch {
            return
        }
        draining.start()
        guard delay > .zero else { return }
        let (seconds, attoseconds) = delay.components
        let shown = attoseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(attoseconds) / 1e18) s"
        notice("draining: /readyz answers 503 and every answer closes its connection; serving \(shown) more before closing")
        try? await Task.sleep(for: delay)
    }
}
