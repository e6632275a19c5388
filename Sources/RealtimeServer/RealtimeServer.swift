import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import Model
import NIOCore
import NIOPosix
import Realtime
import ServiceLifecycle
import UnixSignals

/// `msgc realtime serve`: Apple's realtime requests answered over HTTP/1.1 from a snapshot file.
///
/// The server is HummingbirdCore's HTTP/1.1 server (SwiftNIO) with one handler of its own, in
/// a swift-service-lifecycle group with the snapshot reloader: SIGTERM or SIGINT stops taking
/// connections, lets every request in flight finish, and returns. Each request is handled in
/// its own task; nothing a request does (a slow body, a large one) holds another. A realtime
/// request's body is read whole within `maxBodyByteCount` and `bodyDeadline`
/// (`RequestBodyReader`), handed to the snapshot's `RealtimeResponder`, and its reply sent as
/// it is. The server keeps no state between requests but the snapshot, so any number of
/// instances behind a load balancer answer alike from the same file.
public struct RealtimeServer: Sendable {
    public struct Configuration: Sendable {
        /// The address to listen on: `127.0.0.1`, `::1`, `0.0.0.0` (every IPv4 interface).
        public var host: String
        /// 0: a port the system picks (the listening notice says which).
        public var port: Int
        /// The path Apple's requests are posted to, as in the realtime URL given to Apple.
        public var realtimePath: String = "/"
        /// Apple's request bodies are a few kilobytes (a JWS with three certificates); the
        /// responder's own cap by default, so both refuse the same bodies.
        public var maxBodyByteCount: Int = RealtimeResponder.maxBodySize
        /// How long the whole body of a realtime request may take to arrive (408 after).
        public var bodyDeadline: Duration = .seconds(2)
        /// How long a connection may sit without a complete request head (a keep-alive
        /// connection between requests, or a client trickling its headers) before it is closed.
        public var idleTimeout: Duration = .seconds(15)
        /// After SIGTERM or SIGINT, how long the server keeps serving with `/readyz` at 503
        /// (and every answer closing its connection) before it stops taking connections: the
        /// time a load balancer takes to stop sending it requests.
        public var shutdownDelay: Duration = .zero
        /// The most connections held open at once; nil: the descriptor limit less headroom
        /// (`ConnectionCap`). Never more than that.
        public var maxConnections: Int?
        /// msgc's version, for `msgc_build_info`.
        public var version: String = "unknown"
        /// How often the snapshot file is looked at for a new version.
        public var pollInterval: Duration = .milliseconds(250)
        /// A certificate chain and its key, both PEM, to serve HTTPS directly; nil: plain HTTP
        /// (behind a proxy that terminates TLS).
        public var tls: TLSFiles?
        /// An experiment store: the decision log, sticky arms, notifications (nil: none of them,
        /// and the notifications path is unknown).
        public var experiments: ExperimentSettings?

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// Where the server's words go. `requestLog` gets one JSON line per request
    /// (`RequestLogLine`); `notice` the few lines an operator reads: listening, a reload, its
    /// failure, the end.
    public struct Output: Sendable {
        public var requestLog: @Sendable ([UInt8]) -> Void
        public var notice: @Sendable (String) -> Void

        public init(requestLog: @escaping @Sendable ([UInt8]) -> Void, notice: @escaping @Sendable (String) -> Void) {
            self.requestLog = requestLog
            self.notice = notice
        }
    }

    let configuration: Configuration
    let snapshotPath: String
    let responderConfiguration: RealtimeResponder.Configuration
    let slot: ResponderSlot
    let metrics: ServerMetrics
    let draining = Draining()
    let output: Output
    /// The time each request is received at and logged with.
    let clock: WallClock

    /// The paths the server answers itself, which the realtime path cannot be.
    public static let reservedPaths = Route.reservedPaths

    /// A server for the snapshot `initial`, loaded from `snapshotPath` (which it watches).
    public init(
        configuration: Configuration, snapshotPath: String, initial: ServedSnapshot,
        responderConfiguration: RealtimeResponder.Configuration, output: Output, clock: WallClock
    ) {
        self.configuration = configuration
        self.clock = clock
        self.snapshotPath = snapshotPath
        self.responderConfiguration = responderConfiguration
        self.slot = ResponderSlot(initial)
        self.output = output
        metrics = ServerMetrics(version: configuration.version)
        metrics.serve(initial.responder.snapshot)
    }

    /// Listens, calls `onListening` with the bound address (`http://127.0.0.1:8080`), and
    /// serves until SIGTERM or SIGINT, then returns once the requests in flight are answered.
    /// Throws when it cannot listen (an address in use, a TLS file that cannot be used).
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        // SIGHUP is trapped before anything listens, so that a reload asked for as soon as the
        // address is known is never lost.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        var logger = Logger(label: "msgc.realtime") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let reader = RequestBodyReader(maxByteCount: configuration.maxBodyByteCount, deadline: configuration.bodyDeadline)
        var recorder: DecisionRecorder?
        var experiments: ExperimentLog?
        if let settings = configuration.experiments {
            let snapshot = slot.served.responder.snapshot
            let verifier = try NotificationVerifier(configuration: .init(
                trustedRoots: responderConfiguration.trustedRoots, bundleId: snapshot.bundleId,
                environment: snapshot.environment, appAppleId: responderConfiguration.appAppleId))
            let clock = clock
            let keepMilliseconds = Self.nanoseconds(settings.keep) / 1_000_000
            var recording = DecisionRecorder.Settings(keepMilliseconds: keepMilliseconds)
            recording.retryDelays = DecisionRecorder.Settings.doublingDelays(retries: settings.decisionRetries)
            let assignmentCache = AssignmentCache(keepMilliseconds: keepMilliseconds)
            let made = DecisionRecorder(
                store: settings.store,
                settings: recording, assignmentCache: assignmentCache,
                metrics: metrics, notice: output.notice, now: { clock.now() })
            recorder = made
            experiments = ExperimentLog(
                settings: settings, recorder: made, assignmentCache: assignmentCache, notificationVerifier: verifier, metrics: metrics)
        }
        let notificationReader = RequestBodyReader(maxByteCount: NotificationVerifier.maxBodySize, deadline: configuration.bodyDeadline)
        let handler = RealtimeHandler(
            realtimePath: configuration.realtimePath, reader: reader, experiments: experiments,
            notificationReader: notificationReader, slot: slot, metrics: metrics, draining: draining,
            requestLog: output.requestLog, clock: clock)
        // Apple's request heads are a few hundred bytes; a proxy adds a few headers. The
        // decoder's own limits (80 KB) would let each connection hold far more.
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: .nanoseconds(Self.nanoseconds(configuration.idleTimeout)),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 << 10, maxHeaderListSize: 16 << 10, maxHeaderFieldCount: 100))
        // The event loops open their descriptors when first used: counted in the cap's base.
        let eventLoops = MultiThreadedEventLoopGroup.singleton
        _ = eventLoops.next()
        let (descriptorCap, descriptorLimit) = ConnectionCap.fromDescriptorLimit()
        let connectionCap = min(configuration.maxConnections ?? descriptorCap, descriptorCap)
        let notice = output.notice
        let builder = configuration.tls.map { $0.builder(http1) } ?? .http1(configuration: http1)
        let scheme = configuration.tls == nil ? "http" : "https"
        let host = configuration.host
        let server = try builder.buildServer(
            configuration: ServerConfiguration(
                address: .hostname(host, port: configuration.port), backlog: 1024,
                availableConnectionsDelegate: ConnectionCap(maximum: connectionCap, notice: output.notice)),
            eventLoopGroup: eventLoops, logger: logger,
            responder: { request, writer, _ in try await handler.handle(request, writer: writer) },
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("\(scheme)://\(shown):\(port)")
                notice("holds at most \(connectionCap) connections at once (descriptor limit \(descriptorLimit))")
            })
        let reloader = SnapshotReloader(
            path: snapshotPath, configuration: responderConfiguration, slot: slot, metrics: metrics, hangups: hangups,
            pollInterval: configuration.pollInterval, notice: output.notice)
        // Shut down in reverse order: the delay first (draining, still serving), then the
        // server stops taking connections and answers the requests in flight, then the
        // reloader stops, and last the decision log writes what the requests queued.
        let delay = ShutdownDelay(draining: draining, delay: configuration.shutdownDelay, notice: output.notice)
        let group = ServiceGroup(configuration: .init(
            services: (recorder.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? [])
                + [.init(service: reloader), .init(service: server), .init(service: delay)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
