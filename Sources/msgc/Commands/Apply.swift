import Apply
import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Model
import Synchronization

/// The credentials of Apple's API, from options or the environment.
struct AppleCredentialOptions: ParsableArguments {
    @OptionGroup var key: InAppPurchaseKeyOptions

    @Option(name: .long, help: ArgumentHelp("Another base URL for Apple's API: a proxy or a test server (default: Apple's host for the environment).", valueName: "url"))
    var apiBase: String?

    /// The credentials for `bundleID`, or a usage error that names what is missing.
    func credentials(bundleID: String) throws -> Credentials {
        guard let (file, keyID, issuerID) = try key.resolved(required: true) else {
            throw ValidationError("give --key-file or set MSGC_KEY_FILE")
        }
        do {
            return try Credentials(keyFile: file, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
        } catch {
            throw ValidationError(error.description)
        }
    }

    @Option(name: .long, help: ArgumentHelp("The most time spent waiting on Apple's 429s before msgc stops with status 3 (run again to carry on): 90s, 10m, 1h30m or a number of seconds; at most 7d (default: 10m).", valueName: "duration"))
    var maxWait: String?

    /// Every duration msgc chooses itself, times this: for tests against a stand-in that runs
    /// Apple's pace faster. Not for Apple.
    @Option(name: .long, help: ArgumentHelp(visibility: .hidden))
    var timeScale: Double?

    func base() throws -> APIBase? {
        guard let apiBase else { return nil }
        do {
            return try APIBase(apiBase)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The pace of a run, on the machine's clock: the one place a command that talks to Apple
    /// takes the clock, which its run reads for every wait and date.
    func pace(uploadRate: Double? = nil) throws -> Pace {
        var pace = Pace(uploadRate: uploadRate, clock: .system)
        if let maxWait {
            do {
                pace.maxWait = Double(try DurationText.read(maxWait, option: "--max-wait", in: Pace.maxWaitRange, bareNumber: .seconds)) / 1000
            } catch {
                throw ValidationError(error.description)
            }
        }
        if let timeScale {
            guard timeScale > 0, timeScale <= 1 else { throw ValidationError("--time-scale must be above 0 and at most 1") }
            pace.timeScale = timeScale
        }
        return pace
    }
}

extension Msgc {
    struct ApplyCommand: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "apply",
            abstract: "Take a bundle to Apple: upload what Apple lacks, then configure approved defaults.",
            discussion: """
                Verifies the bundle against its manifest first (every file's SHA-256 and the digest) \
                and sends nothing if it fails; each body is read once more, hashed and sent as read, \
                and a file changed meanwhile stops the run. Reads Apple's message and image lists, \
                then uploads images and messages at once, each at its own endpoint's pace and only \
                what Apple does not hold (a message after its images; a second run, or one after a \
                kill, sends no upload twice), and configures each default once its message is held \
                (in production: once its message and images are approved). Requests are paced by \
                Apple's limits per endpoint (1 a second in production, a tenth of that in sandbox; \
                configurations ten times as many); a 429 waits as its Retry-After says but at least \
                a floor, and at most --max-wait in all; 500s and dropped connections are retried.

                Exit status: 0 everything applied; 1 Apple refused content (or a cap was reached); \
                2 usage, I/O, a bundle that fails its checks, credentials Apple refuses or a service \
                that does not answer; 3 applied what it could, the rest waits for Apple's review or \
                for a 429 beyond --max-wait: run again later.
                """)

        @Argument(help: ArgumentHelp("The bundle folder `msgc build` wrote.", valueName: "bundle"))
        var bundle: String

        @OptionGroup var apple: AppleCredentialOptions

        @Flag(name: .long, help: "Read Apple's lists and say what would be sent; change nothing at Apple.")
        var dryRun = false

        @Option(name: .long, help: ArgumentHelp("Uploads per second per endpoint (default: Apple's documented limit for the environment).", valueName: "n"))
        var rate: Double?

        @Flag(name: .long, help: "Print only the summary and what went wrong.")
        var quiet = false

        func validate() throws {
            if let rate, !(rate > 0 && rate <= 1000) { throw ValidationError("--rate must be a number of requests per second above 0") }
            _ = try apple.base()
            _ = try apple.pace()
        }

        func execute() throws -> Outcome {
            let folder = URL(fileURLWithPath: bundle)
            let contents: BundleContents
            do {
                contents = try BundleReader.readVerified(folder, displayPath: bundle)
            } catch {
                throw Refusal(.io, "\(error); nothing was sent")
            }
            let credentials = try apple.credentials(bundleID: contents.manifest.bundleId)
            let applier = Applier(
                contents: contents, folder: folder, credentials: credentials, base: try apple.base(), pace: try apple.pace(uploadRate: rate),
                dryRun: dryRun)
            let bar = ProgressOutput(quiet: quiet)
            let report = applier.run { done, total, entry, result in bar.show(done, total, entry, result) }
            bar.finish()
            try bar.lines.rethrowFailure()
            var summary = report.summary
            if dryRun { summary.insert("dry run: nothing was changed at Apple", at: 0) }
            summary.append(report.requests.summary)
            summary += report.warnings.map { "warning: \($0)" }
            for (entry, result) in report.results {
                switch result {
                case .refused(let why): summary.append("refused: \(Self.name(entry)): \(why)")
                case .waiting(let why): summary.append("waiting: \(Self.name(entry)): \(why)")
                default: continue
                }
            }
            if let failure = report.failure { summary.append("stopped: \(failure)") }
            if report.verdict.status == .waiting && report.failure == nil {
                summary.append("Apple reviews what was uploaded; run msgc apply again once it is approved")
            }
            try Output.write(summary.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n", to: .standardOutput)
            return Outcome(report.verdict)
        }

        static func name(_ entry: Manifest.Entry) -> String {
            switch entry.operation {
            case .uploadImage: "image \(entry.source) (\(entry.imageSize?.rawValue ?? ""))"
            case .uploadMessage: "message \(entry.product ?? "")/\(entry.key ?? "") in \(entry.locale ?? "")"
            case .configureDefault: "default of \(entry.product ?? "") in \(entry.locale ?? "")"
            }
        }
    }

    struct StateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "state", abstract: "What Apple holds, as the state file build and coverage read.",
            subcommands: [Fetch.self])

        struct Fetch: MsgcCommand {
            // Named outright, as every command is: without a name ArgumentParser derives one
            // from the type's with `String(describing:)`, a scan of every protocol conformance
            // in the binary (about a millisecond) on every run of any command.
            static let configuration = CommandConfiguration(
                commandName: "fetch",
                abstract: "Write Apple's message and image lists as a state file (`msgc build --state`).")

            @Option(name: .long, help: "The environment to read: sandbox or production.")
            var environment: Environment

            @OptionGroup var app: AppBundleIDOptions

            @Option(name: .long, help: ArgumentHelp("Where to write the state file.", valueName: "file"))
            var out: String

            @Option(name: .long, help: ArgumentHelp("Also record the default Apple serves for each product and locale this bundle configures.", valueName: "bundle"))
            var defaults: String?

            @OptionGroup var apple: AppleCredentialOptions

            func validate() throws {
                _ = try apple.base()
                _ = try apple.pace()
            }

            func execute() throws -> Outcome {
                // --defaults knows the app too; msgc.yaml is read only when nothing given does.
                let bundleId = try app.resolve(also: defaults.map { path in (option: "--defaults '\(path)'", bundleID: { try Self.bundleID(of: path) }) })
                let bundle = try defaults.map { try StateDefaultsOption.bundle($0, bundleID: bundleId, environment: environment) }
                let credentials = try apple.credentials(bundleID: bundleId)
                let base = try apple.base() ?? .apple(environment)
                let pace = try apple.pace()
                let bytes: [UInt8]
                let warnings: [String]
                do {
                    let document = try StateReader.document(
                        base: base, credentials: credentials, environment: environment, bundleId: bundleId,
                        fetchedAt: Self.timestamp(pace.clock.now()), pace: pace, defaultsOf: bundle)
                    bytes = document.bytes
                    warnings = document.warnings
                } catch {
                    return try .stop("\(error); nothing was written", Outcome(error.kind))
                }
                for warning in warnings { try Output.write("warning: " + TerminalText.escaped(warning) + "\n", to: .standardError) }
                do {
                    try FileOutput.write(bytes, to: URL(fileURLWithPath: out))
                } catch {
                    throw Refusal(.io, "\(error)")
                }
                try Output.write("wrote \(out): Apple's message and image lists for \(environment.rawValue)\n", to: .standardOutput)
                return .success
            }

            /// `2026-11-28T04:45:15Z`: RFC 3339 in UTC, whatever the machine's time zone and locale.
            static func timestamp(_ date: Date) -> String {
                let formatter = ISO8601DateFormatter()
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.formatOptions = [.withInternetDateTime]
                return formatter.string(from: date)
            }

            /// The app of the bundle at `path`, from its manifest (the bundle is verified after).
            static func bundleID(of path: String) throws -> String {
                do {
                    return try BundleReader.read(URL(fileURLWithPath: path), displayPath: path).manifest.bundleId
                } catch {
                    throw Refusal(.io, "\(error); nothing was written")
                }
            }
        }
    }
}

/// Progress of `msgc apply`: a bar redrawn in place on a terminal, a line per request elsewhere
/// (CI logs), both on standard error. The applier's lanes call it one at a time.
final class ProgressOutput: Sendable {
    private let isTerminal = isatty(2) == 1
    private let quiet: Bool
    private let drewBar = Mutex(false)
    let lines = ProgressLines()

    init(quiet: Bool) { self.quiet = quiet }

    func show(_ done: Int, _ total: Int, _ entry: Manifest.Entry, _ result: Applier.Result) {
        guard !quiet else { return }
        let what = switch result {
        case .uploaded: "uploaded"
        case .alreadyHeld: "already at Apple"
        case .configured: "configured"
        case .waiting: "waits for review"
        case .refused: "refused"
        case .planned: "would send"
        }
        let line = "[\(done)/\(total)] \(what): \(Msgc.ApplyCommand.name(entry))"
        if isTerminal {
            let width = 30
            let filled = total == 0 ? width : width * done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            lines.write("\r\u{1B}[K[\(bar)] \(done)/\(total) " + TerminalText.escaped(String(line.prefix(80))))
            drewBar.withLock { $0 = true }
        } else {
            lines.write(TerminalText.escaped(line) + "\n")
        }
    }

    func finish() {
        if drewBar.withLock({ $0 }) { lines.write("\n") }
    }
}

/// Lines that a run's callbacks write on standard error while its requests go on (`msgc apply`,
/// `msgc prune`), where a failure cannot be thrown: the first write that fails is kept and
/// nothing more is written, and the command ends with that failure once the run returns.
final class ProgressLines: Sendable {
    /// The first write that failed; held while writing, so lines never interleave.
    private let failure = Mutex<OutputFailure?>(nil)

    func write(_ text: String) {
        failure.withLock { failure in
            guard failure == nil else { return }
            do throws(OutputFailure) { try Output.write(text, to: .standardError) } catch { failure = error }
        }
    }

    /// Throws the failure of a write, if one failed.
    func rethrowFailure() throws(OutputFailure) {
        if let failure = self.failure.withLock({ $0 }) { throw failure }
    }
}
