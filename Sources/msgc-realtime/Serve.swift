import ArgumentParser
import CommandLineSupport
import Dispatch
import ExperimentStore
import Foundation
import Model
import Realtime
import RealtimeServer
import Synchronization

extension MsgcRealtime {
    struct Serve: ServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Answer Apple's realtime requests from a snapshot, over HTTP.",
            discussion: """
                Takes Apple's POST {"signedPayload": …} on --path, verifies it (a chain to Apple's \
                root, or to --root-certificate; the app's Apple ID, the snapshot's environment, a \
                recent signedDate), and answers with the message the snapshot gives for the product \
                and the device's locale (an offer with a signature made by the In-App Purchase key). GET /healthz \
                says which snapshot (and release) is served; GET /livez answers while the process runs; \
                GET /readyz answers 200 while the snapshot answers something and the server is not \
                draining, 503 otherwise; GET /metrics gives Prometheus metrics. One JSON line per request \
                goes to standard output (a request without an answer says why); standard error says \
                where it listens.

                The snapshot is swapped whole on SIGHUP and when its file changes (write the new \
                one beside it and rename it over); a file that cannot be served, or that answers \
                nothing, keeps the one served. SIGTERM or SIGINT turns /readyz to 503 and closes \
                every connection after its answer; after --shutdown-delay the server stops taking \
                connections, answers those in flight and ends with 0. Connections are capped below \
                the descriptor limit (docs/realtime.md, "Serving").

                With --store (and --subject-key), every verified request answered or declined is \
                kept in the experiment store's decision log (written in batches, never on the \
                answer's path), a weighted product's subscriber keeps their first arm, and App \
                Store Server Notifications V2 posted to --notifications-path are verified and stored \
                once each (docs/experiments.md). Subscribers are stored only as a keyed hash of \
                their originalTransactionId; what is older than --keep is deleted.

                Exit status: 0 stopped by SIGTERM or SIGINT; 2 a snapshot, key, store or option \
                that cannot be used, or an address it cannot listen on.
                """)

        @Option(name: .long, help: ArgumentHelp("The snapshot `msgc realtime snapshot` wrote.", valueName: "file"))
        var snapshot: String

        @Option(name: .long, help: ArgumentHelp("The address to listen on (0.0.0.0: every IPv4 interface).", valueName: "address"))
        var host = "127.0.0.1"

        @Option(name: .long, help: ArgumentHelp("The port to listen on (0: one the system picks; standard error says which).", valueName: "port"))
        var port = 8080

        @Option(name: .long, help: ArgumentHelp("The path of the realtime URL given to Apple.", valueName: "path"))
        var path = "/"

        @Option(name: .long, help: ArgumentHelp(
            "Seconds a connection may go without a complete request head (idle keep-alive, or headers trickled) before it is closed; behind a load balancer, longer than the balancer's own idle timeout.",
            valueName: "seconds"))
        var idleTimeout = 15

        @Option(name: .long, help: ArgumentHelp(
            "After SIGTERM or SIGINT, how long to keep serving with /readyz at 503 before closing: longer than the load balancer takes to see it (15s, 1m30s or a number of seconds; at most 10m; default 0).",
            valueName: "duration"))
        var shutdownDelay: String?

        @Option(name: .long, help: ArgumentHelp(
            "The most connections open at once (default and ceiling: the descriptor limit less what is open at start and an eighth); more wait in the listen backlog.",
            valueName: "count"))
        var maxConnections: Int?

        @Option(name: .long, help: ArgumentHelp("The app's Apple ID, which every request must name (needed for a production snapshot).", valueName: "id"))
        var appAppleId: Int64?

        @Option(name: .long, help: ArgumentHelp("A root certificate (PEM or DER) requests must chain to, instead of Apple Root CA - G3; may be repeated.", valueName: "file"))
        var rootCertificate: [String] = []

        @Option(name: .long, help: ArgumentHelp("Serve HTTPS with this certificate chain (PEM; with --tls-key). Without it, plain HTTP for a proxy that terminates TLS.", valueName: "file"))
        var tlsCertificate: String?

        @Option(name: .long, help: ArgumentHelp("The private key (PEM) of --tls-certificate.", valueName: "file"))
        var tlsKey: String?

        @Option(name: .long, help: ArgumentHelp(
            "The experiment store: sqlite:PATH (one server) or postgres://user@host/db (several; the password in PGPASSWORD or a passfile, never here). Needs --subject-key.",
            valueName: "url"))
        var store: String?

        @Option(name: .long, help: ArgumentHelp(
            "A file of at least 32 random bytes (head -c 32 /dev/urandom > FILE; chmod 600): the key of the hash the store keeps subscribers as. The same on every server of one store.",
            valueName: "file"))
        var subjectKey: String?

        @Option(name: .long, help: ArgumentHelp("With --store: the path Apple's App Store Server Notifications are posted to.", valueName: "path"))
        var notificationsPath = "/notifications"

        @Option(name: .long, help: ArgumentHelp(
            "With --store: how long decisions, assignments and notifications are kept (90d, 36h, 1d12h; from 1h to 3650d; default 90d).",
            valueName: "duration"))
        var keep = "90d"

        @Option(name: .long, help: ArgumentHelp(
            "With --store: how long an answer waits for the store to settle a weighted product's subscriber's arm before it answers from the hash and marks the exposure (milliseconds; default 5).",
            valueName: "ms"))
        var assignmentDeadlineMs = 5

        @Option(name: .long, help: ArgumentHelp(
            "With --store: how many times a batch of the decision log the store cannot take now (down, restarting, locked) is tried again, after 0.5 s, then twice as long each time (0 to 10; default 6, about half a minute).",
            valueName: "count"))
        var decisionRetries = ExperimentSettings.defaultDecisionRetries

        @OptionGroup(title: "In-App Purchase key, for promotional offers (without it, offers are not answered)")
        var key: InAppPurchaseKeyOptions

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port: give 0 to 65535") }
            guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw ValidationError("--path '\(path)' is not a URL path: it starts with / and has no spaces, query or fragment")
            }
            guard !RealtimeServer.reservedPaths.contains(path) else {
                throw ValidationError("--path '\(path)' is the server's own; choose another")
            }
            if (tlsCertificate == nil) != (tlsKey == nil) {
                throw ValidationError("give --tls-certificate and --tls-key together, or neither (plain HTTP behind a proxy that terminates TLS)")
            }
            guard (1...3600).contains(idleTimeout) else {
                throw ValidationError("--idle-timeout \(idleTimeout) is out of range: give 1 to 3600 seconds")
            }
            if let shutdownDelay {
                do { _ = try Self.shutdownDelayMilliseconds(shutdownDelay) } catch { throw ValidationError(error.description) }
            }
            if let maxConnections, maxConnections < 1 {
                throw ValidationError("--max-connections \(maxConnections) is out of range: give at least 1")
            }
            if let appAppleId, appAppleId <= 0 { throw ValidationError("--app-apple-id \(appAppleId) is not an Apple ID") }
            if store != nil, subjectKey == nil {
                throw ValidationError("--store needs --subject-key FILE: subscribers are stored only as a keyed hash of their originalTransactionId (head -c 32 /dev/urandom > subject.key)")
            }
            if store == nil, subjectKey != nil { throw ValidationError("--subject-key is the key of --store's hashes: give --store too") }
            guard notificationsPath.hasPrefix("/"), !notificationsPath.contains("?"), !notificationsPath.contains("#"),
                notificationsPath.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else {
                throw ValidationError("--notifications-path '\(notificationsPath)' is not a URL path: it starts with / and has no spaces, query or fragment")
            }
            guard notificationsPath != path, !RealtimeServer.reservedPaths.contains(notificationsPath) else {
                throw ValidationError("--notifications-path '\(notificationsPath)' is --path or the server's own; choose another")
            }
            guard (1...10_000).contains(assignmentDeadlineMs) else {
                throw ValidationError("--assignment-deadline-ms \(assignmentDeadlineMs) is out of range: give 1 to 10000 milliseconds")
            }
            guard (0...10).contains(decisionRetries) else {
                throw ValidationError("--decision-retries \(decisionRetries) is out of range: give 0 to 10")
            }
            do { _ = try Self.keepMilliseconds(keep) } catch { throw ValidationError(error.description) }
        }

        /// `--shutdown-delay`: up to ten minutes, or a number of seconds as it has always taken.
        static func shutdownDelayMilliseconds(_ text: String) throws(DurationText.Problem) -> Int64 {
            try DurationText.read(text, option: "--shutdown-delay", in: 0...600_000, bareNumber: .seconds)
        }

        /// `--keep`: from one hour to ten years, always with a unit (`--keep 3650` is no hour).
        static func keepMilliseconds(_ text: String) throws(DurationText.Problem) -> Int64 {
            try DurationText.read(text, option: "--keep", in: 3_600_000...3_650 * 86_400_000, bareNumber: .refused)
        }

        /// The store opened and migrated, before anything listens: a store that cannot be is a
        /// usage error (exit 2) said now, not a log that silently stays empty.
        func openStore(_ text: String, keyFile: String) throws -> ExperimentSettings {
            let key: SubjectKey
            let opened: ExperimentStore
            do {
                let read = try SubjectKey.read(file: keyFile)
                key = read.key
                if let warning = read.warning { try Output.error(warning) }
                opened = try ExperimentStore(url: StoreURL(parsing: text))
            } catch let error as StoreError {
                throw Refusal("\(error)")
            }
            let outcome = Mutex<Result<ExperimentStore.Migration, StoreError>?>(nil)
            let finished = DispatchSemaphore(value: 0)
            Task {
                do throws(StoreError) {
                    let migration = try await opened.migrate(deadline: .now + .seconds(30))
                    outcome.withLock { $0 = .success(migration) }
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                }
                finished.signal()
            }
            finished.wait()
            switch outcome.withLock({ $0 }) {
            case .success(let migration)?:
                if migration.fromVersion != migration.toVersion {
                    try Output.error("the experiment store is at schema version \(migration.toVersion) (was \(migration.fromVersion))")
                }
            case .failure(let error)?:
                throw Refusal("the experiment store cannot be opened or migrated: \(error)")
            case nil:
                throw Refusal("the experiment store cannot be opened or migrated")
            }
            var settings = ExperimentSettings(
                store: opened, subjectKey: key, notificationsPath: notificationsPath, keep: .milliseconds((try? Self.keepMilliseconds(keep)) ?? 90 * 86_400_000))
            settings.settleDeadline = .milliseconds(assignmentDeadlineMs)
            settings.decisionRetries = decisionRetries
            return settings
        }

        func execute() throws {
            var roots: [[UInt8]] = []
            for file in rootCertificate {
                do {
                    roots += try CertificateFile.derCertificates(at: file)
                } catch {
                    throw Refusal("\(error)")
                }
            }
            // The snapshot first: the offer signer signs for the snapshot's app.
            let file: ServedSnapshot.File
            do {
                file = try ServedSnapshot.read(path: snapshot)
            } catch {
                throw Refusal("\(error)")
            }
            var responderConfiguration = RealtimeResponder.Configuration(
                trustedRoots: roots.isEmpty ? [RealtimeResponder.Configuration.appleRootCAG3] : roots,
                appAppleId: appAppleId, offerSigner: nil)
            if let (keyFile, keyID, issuerID) = try key.resolved(required: false) {
                do {
                    responderConfiguration.offerSigner = try OfferSigner(
                        keyFile: keyFile, keyId: keyID, issuerId: issuerID, bundleId: file.snapshot.bundleId)
                } catch {
                    throw Refusal("the In-App Purchase key '\(keyFile)' cannot sign offers: \(error)")
                }
            }
            let served: ServedSnapshot
            do {
                served = try ServedSnapshot(file: file, path: snapshot, configuration: responderConfiguration, generation: 1)
            } catch {
                throw Refusal("\(error)")
            }
            var configuration = RealtimeServer.Configuration(host: host, port: port)
            configuration.realtimePath = path
            configuration.idleTimeout = .seconds(idleTimeout)
            configuration.shutdownDelay = .milliseconds(shutdownDelay.flatMap { try? Self.shutdownDelayMilliseconds($0) } ?? 0)
            configuration.maxConnections = maxConnections
            configuration.version = MsgcRealtime.version
            if let tlsCertificate, let tlsKey {
                do {
                    configuration.tls = try TLSFiles(certificateChainPath: tlsCertificate, privateKeyPath: tlsKey)
                } catch {
                    throw Refusal("\(error)")
                }
            }
            if let store, let subjectKey {
                configuration.experiments = try openStore(store, keyFile: subjectKey)
            }
            let lines = Mutex(())
            let server = RealtimeServer(
                configuration: configuration, snapshotPath: snapshot, initial: served, responderConfiguration: responderConfiguration,
                output: .init(
                    // A log that can no longer be written must not stop the answers Apple waits
                    // for: the line is dropped, the request is still answered.
                    requestLog: { line in lines.withLock { _ in try? Output.write(line, to: .standardOutput) } },
                    notice: { text in lines.withLock { _ in try? Output.error(text) } }),
                clock: .system)
            if responderConfiguration.offerSigner == nil {
                try Output.error("no In-App Purchase key (--key-file, --key-id, --issuer-id): promotional offers are not answered")
            }
            let failure = Mutex<(any Error)?>(nil)
            let finished = DispatchSemaphore(value: 0)
            let snapshotPath = snapshot
            Task {
                do {
                    try await server.run { address in
                        lines.withLock { _ in
                            try? Output.error("listening on \(address) (\(snapshotPath), generation \(served.generation), \(served.fileDigest))")
                        }
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
                finished.signal()
            }
            finished.wait()
            if let error = failure.withLock({ $0 }) {
                throw Refusal("cannot serve on \(host):\(port): \(error)")
            }
        }
    }
}
