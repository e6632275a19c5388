import ArgumentParser
import Bundle
import CommandLineSupport
import Diagnostics
import ExperimentStore
import Foundation
import Model
import Realtime
import RealtimeServer

extension MsgcRealtime {
    struct Outcomes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "outcomes",
            abstract: "Bring App Store Server Notifications into the experiment store.",
            subcommands: [Import.self])
    }
}

/// Lines of `outcomes import` were refused: `main` ends with status 1, as for findings.
struct RefusedLines: Error {
    var count: Int
}

extension MsgcRealtime.Outcomes {
    struct Import: ServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Store notifications another receiver kept: one signedPayload a line.",
            discussion: """
                Each line of FILE (- for standard input) is a notification's signedPayload, or a \
                JSON object {"signedPayload": …} as Apple posts it; blank lines are skipped. Each is \
                verified as `msgc realtime serve` verifies notifications (a chain to Apple's root, \
                or to --root-certificate; the app and environment given; no bound on its age, as \
                Apple's retries keep their signedDate) and stored once per notificationUUID: a \
                copy already there is a duplicate, not an error. The subscriber is stored as the \
                keyed hash of the originalTransactionId (--subject-key), never the payload. Types \
                the report does not read are counted as not relevant. A refused line is said as \
                FILE:LINE: error: … [reason]; standard error ends with the counts. The file is read \
                a line at a time; a line longer than \(Self.maxLineBytes) bytes is refused.

                Exit status: 0 every line was stored, a duplicate or not relevant; 1 some lines \
                were refused (the others are stored); 2 an option, file or store that cannot be \
                used (what was stored before stays: importing again counts it as duplicates).
                """)

        /// A line's cap: the largest body a notification may have.
        static let maxLineBytes = NotificationVerifier.maxBodySize

        /// Opens FILE, or takes standard input for `-`. A file of notifications is a regular
        /// file or a pipe (`<(zcat notifications.gz)`, a FIFO, which is read as it is written);
        /// a device (/dev/zero would be one endless line), a socket or a folder is refused before
        /// anything is read, and so is a standard input that is a device but not a terminal. The
        /// kind is checked before `open`, which could wait on a device, and again on what was
        /// opened.
        static func openNotifications(_ file: String) throws -> Int32 {
            func refuse(_ kind: mode_t) -> Refusal {
                let what = file == "-" ? "standard input" : "'\(file)'"
                return Refusal("\(what) is \(FileKind.described(kind)); give a file of notifications, one a line, or a pipe")
            }
            var status = stat()
            if file == "-" {
                guard fstat(STDIN_FILENO, &status) == 0 else {
                    throw Refusal("cannot read standard input: \(String(cString: strerror(errno)))")
                }
                let kind = status.st_mode & S_IFMT
                guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFSOCK || (kind == S_IFCHR && isatty(STDIN_FILENO) == 1) else {
                    throw refuse(kind)
                }
                return STDIN_FILENO
            }
            guard stat(file, &status) == 0 else { throw Refusal("cannot read '\(file)': \(String(cString: strerror(errno)))") }
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFIFO else { throw refuse(kind) }
            // A regular file is opened without blocking, so one swapped for a FIFO meanwhile is
            // refused below rather than waited on; a FIFO waits for its writer, as `cat` does.
            let descriptor = open(file, O_RDONLY | O_CLOEXEC | (kind == S_IFIFO ? 0 : O_NONBLOCK | O_NOCTTY))
            guard descriptor >= 0 else { throw Refusal("cannot read '\(file)': \(String(cString: strerror(errno)))") }
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == kind else {
                close(descriptor)
                throw refuse(status.st_mode & S_IFMT)
            }
            return descriptor
        }

        @Argument(help: ArgumentHelp("The notifications, one signedPayload a line (- for standard input).", valueName: "file"))
        var file: String

        @Option(name: .long, help: ArgumentHelp("The experiment store: sqlite:PATH or postgres://… (no password in it).", valueName: "url"))
        var store: String

        @Option(name: .long, help: ArgumentHelp("The secret (at least 32 bytes) subscribers are hashed with: the server's.", valueName: "file"))
        var subjectKey: String

        @Option(name: .long, help: ArgumentHelp("The app's bundle id, which every notification must name.", valueName: "id"))
        var bundleId: String

        @Option(name: .long, help: ArgumentHelp("production or sandbox: the notifications' environment.", valueName: "environment"))
        var environment: String

        @Option(name: .long, help: ArgumentHelp("The app's Apple ID (needed in production).", valueName: "id"))
        var appAppleId: Int64?

        @Option(name: .long, help: ArgumentHelp("A root certificate (PEM or DER) notifications must chain to, instead of Apple Root CA - G3; may be repeated.", valueName: "file"))
        var rootCertificate: [String] = []

        func validate() throws {
            guard environment == "production" || environment == "sandbox" else {
                throw ValidationError("--environment '\(environment)' is not production or sandbox")
            }
            if let appAppleId, appAppleId <= 0 { throw ValidationError("--app-apple-id \(appAppleId) is not an Apple ID") }
            if environment == "production", appAppleId == nil {
                throw ValidationError("production notifications need --app-apple-id: one for another app must be refused")
            }
            guard !bundleId.isEmpty else { throw ValidationError("--bundle-id is empty") }
        }

        func execute() throws {
            var roots: [[UInt8]] = []
            for file in rootCertificate {
                do { roots += try CertificateFile.derCertificates(at: file) } catch { throw Refusal("\(error)") }
            }
            let environment: Environment = self.environment == "production" ? .production : .sandbox
            let verifier: NotificationVerifier
            do {
                verifier = try NotificationVerifier(configuration: .init(
                    trustedRoots: roots.isEmpty ? [RealtimeResponder.Configuration.appleRootCAG3] : roots, bundleId: bundleId,
                    environment: environment, appAppleId: appAppleId))
            } catch {
                throw Refusal(error.description)
            }
            let key: SubjectKey
            let experimentStore: ExperimentStore
            do {
                let read = try SubjectKey.read(file: subjectKey)
                key = read.key
                if let warning = read.warning { try Output.error(warning) }
                experimentStore = try ExperimentStore(url: try StoreURL(parsing: store))
            } catch let error as StoreError {
                throw Refusal(error.description)
            }
            let descriptor = try Self.openNotifications(file)
            defer { if descriptor != STDIN_FILENO { close(descriptor) } }
            do {
                _ = try Blocking.run { try await experimentStore.migrate() }
            } catch let error as StoreError {
                throw Refusal("cannot prepare the store '\(experimentStore.url)': \(error)")
            }

            let name = file == "-" ? "<stdin>" : file
            var counts = ImportCounts()
            var lines = LineReader(descriptor: descriptor, maxLineBytes: Self.maxLineBytes)
            let environmentName = environment == .production ? "Production" : "Sandbox"
            while true {
                let line: LineReader.Line
                do {
                    guard let next = try lines.next() else { break }
                    line = next
                } catch {
                    try report(counts, of: name)
                    throw Refusal("cannot read '\(name)' after line \(lines.lineNumber): \(error)")
                }
                let number = lines.lineNumber
                let now = Date()
                let verified: Result<DecodedNotification, NotificationRefusal>
                switch line {
                case .tooLong(let byteCount):
                    counts.refused += 1
                    try say(name, number, "the line has \(byteCount) bytes; a notification has at most \(Self.maxLineBytes)", code: "line-too-long")
                    continue
                case .text(let bytes):
                    let text = Self.trimmed(bytes)
                    if text.isEmpty { continue }
                    if text.first == UInt8(ascii: "{") {
                        verified = verifier.verify(body: Array(text), now: now)
                    } else {
                        verified = verifier.verify(signedPayload: String(decoding: text, as: UTF8.self), now: now)
                    }
                }
                switch verified {
                case .failure(let refusal):
                    counts.refused += 1
                    try say(name, number, Self.sentence(refusal), code: refusal.reason.rawValue)
                case .success(let notification):
                    let receivedMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded())
                    switch NotificationRecord.make(notification, key: key, environment: environmentName, receivedMilliseconds: receivedMilliseconds) {
                    case .failure(.notRelevant):
                        counts.notRelevant += 1
                    case .failure(.unlinked):
                        counts.refused += 1
                        try say(name, number, "the notification names no notificationUUID, originalTransactionId or signedDate: it cannot be tied to a subscriber", code: "unlinked")
                    case .success(let record):
                        let receipt: ExperimentStore.NotificationReceipt
                        do {
                            receipt = try Blocking.run { try await experimentStore.store(notification: record) }
                        } catch {
                            try report(counts, of: name)
                            throw Refusal("cannot store line \(number) of '\(name)' in '\(experimentStore.url)': \(error)")
                        }
                        switch (receipt, record.isRelevant) {
                        case (.duplicate, _): counts.duplicates += 1
                        case (.inserted, true): counts.stored += 1
                        case (.inserted, false): counts.notRelevant += 1
                        }
                    }
                }
            }
            _ = try? Blocking.run { await experimentStore.close() }
            try report(counts, of: name)
            if counts.refused > 0 { throw RefusedLines(count: counts.refused) }
        }

        /// `FILE:LINE: error: MESSAGE [CODE]` on standard error, as msgc's diagnostics.
        private func say(_ name: String, _ line: Int, _ message: String, code: String) throws(OutputFailure) {
            try Output.write(TerminalText.escaped("\(name):\(line): error: \(message) [\(code)]") + "\n", to: .standardError)
        }

        private func report(_ counts: ImportCounts, of name: String) throws(OutputFailure) {
            try Output.error(
                "\(name): \(counts.stored) stored, \(counts.duplicates) \(counts.duplicates == 1 ? "duplicate" : "duplicates"), \(counts.notRelevant) not relevant, \(counts.refused) refused")
        }

        /// The line without the spaces, tabs and carriage return around it.
        static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
            let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
            return bytes[first...last]
        }

        /// A refusal in words: which part, and why.
        static func sentence(_ refusal: NotificationRefusal) -> String {
            let part = switch refusal.part {
            case .body: "the line"
            case .notification: "the notification"
            case .transaction: "its signedTransactionInfo"
            case .renewalInfo: "its signedRenewalInfo"
            }
            let why = switch refusal.reason {
            case .bodyTooLarge: "is too large"
            case .malformedBody: "is neither a signedPayload nor a JSON object with a string signedPayload"
            case .malformedJWS, .unsupportedAlgorithm, .chainLength: "is not a JWS as Apple signs them"
            case .untrustedChain: "is not signed by a chain to the trusted root"
            case .certificateExpired: "was signed by a certificate that was not valid at its signedDate"
            case .missingOID: "is signed by a certificate without Apple's OIDs"
            case .badSignature: "has a signature that does not verify"
            case .malformedPayload: "has a payload that cannot be read"
            case .wrongApp: "is for another app"
            case .wrongEnvironment: "is for another environment"
            case .stale, .future: "has a signedDate that cannot be accepted"
            }
            return "\(part) \(why)" + (refusal.detail.map { ": \($0)" } ?? "")
        }
    }
}

/// What `outcomes import` did with the lines of its file.
struct ImportCounts: Equatable {
    var stored = 0
    var duplicates = 0
    var notRelevant = 0
    var refused = 0
}
