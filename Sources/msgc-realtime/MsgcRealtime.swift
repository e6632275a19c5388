import ArgumentParser
import CommandLineSupport
import Diagnostics
import Foundation
import Model

/// `msgc-realtime`, the realtime server's own executable: what needs the server stack (SwiftNIO,
/// HummingbirdCore, libssl for HTTPS) lives here, so `msgc` links none of it and this links none of
/// the compiler's readers (YAML, XLIFF, PNG) nor libcurl. `msgc realtime serve …` runs
/// `msgc-realtime serve …` in its own place (execv), the way git runs its external subcommands,
/// naming it `msgc realtime` in argv[0]: its help then reads as msgc's own.
@main
struct MsgcRealtime: ParsableCommand {
    /// msgc's version: the two executables are built from one package and released together.
    static let version = "0.1.0"

    /// How the server is typed: `msgc realtime` when msgc ran it, else its own name.
    static let name = CommandLine.arguments.first == "msgc realtime" ? "msgc realtime" : "msgc-realtime"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "The realtime server of msgc: answers Apple's realtime requests from a snapshot.",
        discussion: """
            Built on its own (`swift build -c release --product msgc-realtime`, or \
            `scripts/build-release.sh msgc-realtime`); `msgc realtime serve` runs it when it is \
            beside msgc or on PATH (docs/realtime.md, "Serving").
            """,
        version: version,
        subcommands: [Serve.self, Report.self, Outcomes.self])

    static func main() {
        // As in msgc: a file-size limit on the request log's redirect makes a line that cannot
        // be written (dropped, the request still answered), not a kill by SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            fail(error, fullMessage(for: error))
        }
        do {
            if let command = command as? any ServerCommand {
                try command.execute()
            } else {
                try command.run()
            }
        } catch let refused as RefusedLines {
            Foundation.exit(Verdict(failingFindings: refused.count).status.rawValue)
        } catch let refusal as Refusal {
            do throws(OutputFailure) { try Output.error(refusal.message) } catch { error.report() }
            Foundation.exit(Verdict(refusal.failure).status.rawValue)
        } catch let failure as OutputFailure {
            failure.report()
            Foundation.exit(Verdict(.io).status.rawValue)
        } catch {
            let typed = type(of: command) == MsgcRealtime.self ? name : "\(name) \(type(of: command).configuration.commandName ?? "")"
            fail(error, "Error: \(message(for: error))\n  See '\(typed) --help' for more information.")
        }
    }

    private static func fail(_ error: Error, _ message: String) -> Never {
        exitForUsage(Self.self, error, message)
    }
}

/// A subcommand of the server: `main` alone turns what it threw into an exit status, through
/// `Verdict.status` as msgc's `main` does.
protocol ServerCommand: ParsableCommand {
    func execute() throws
}

/// The server cannot start: `main` says `msgc: MESSAGE` on standard error and ends as
/// `Verdict` decides for a usage failure (2). The server reports no findings.
struct Refusal: Error {
    var message: String
    /// Every reason the server cannot start is in what it was given: a key, a snapshot, a port.
    var failure: CommandFailure { .usage }

    init(_ message: String) {
        self.message = message
    }
}
