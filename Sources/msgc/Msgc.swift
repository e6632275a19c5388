import ArgumentParser
import CommandLineSupport
import Compiler
import Bundle
import Diagnostics
import Foundation
import Model

/// The msgc command line. Subcommands live in Commands/, each a `MsgcCommand` that returns
/// its outcome; only `main` maps an outcome to an exit status.
///
/// Every command names itself in its configuration: ArgumentParser otherwise derives each
/// name from the type's name through reflection, for every subcommand on every run, which
/// was a millisecond of `msgc lint`'s start-up.
@main
struct Msgc: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "msgc",
        abstract: "A compiler for App Store retention messages.",
        discussion: """
            msgc reads a content tree (msgc.yaml, messages/**/*.yaml, images/, translations/), \
            checks everything Apple's Retention Messaging API would reject and much it would accept \
            but users would regret, and builds a versioned, reproducible bundle of upload requests.

            Start with `msgc init`, then `msgc lint` while writing and `msgc build` to release.

            Exit status: 0 success; 1 error diagnostics (with --strict, warnings too); \
            2 usage or I/O failure (a file that cannot be read, an output that cannot be written); \
            3 (msgc apply) applied what it could, the rest waits for Apple's review.
            """,
        version: version,
        subcommands: [Init.self, Lint.self, Extract.self, Pseudo.self, PreviewCommand.self, CoverageCommand.self, Build.self, Diff.self, Explain.self, Schema.self, LSP.self, ApplyCommand.self, Prune.self, StateCommand.self, RealtimeCommand.self]
    )

    static func main() {
        // `msgc realtime serve` becomes the server's own executable, before msgc handles any
        // signal: an ignored signal would stay ignored in the program that replaces msgc.
        if let arguments = ServerExecutable.arguments(from: CommandLine.arguments) {
            let reason = ServerExecutable.run(arguments)
            do throws(OutputFailure) { try Output.error(reason) } catch { error.report() }
            Foundation.exit(Verdict(.io).status.rawValue)
        }
        // A file-size limit (`ulimit -f`) must be an I/O failure like a full disk, exit status 2
        // with the previous bundle intact, not a kill by SIGXFSZ midway through writing.
        signal(SIGXFSZ, SIG_IGN)
        // Ctrl-C or SIGTERM in the middle of writing leaves no temporary file or folder behind.
        TemporaryFiles.removeOnInterrupt()
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            // What was typed is wrong: the message, then the usage of the command it was for.
            fail(error, fullMessage(for: error))
        }
        let verdict: Verdict
        do {
            if let command = command as? any MsgcCommand {
                verdict = try command.execute().verdict
            } else {
                // The root and `state` only print their help.
                try command.run()
                verdict = .success
            }
        } catch let refusal as Refusal {
            do throws(OutputFailure) {
                try Output.error(refusal.message)
                verdict = Verdict(refusal.kind.failure)
            } catch {
                error.report()
                verdict = Verdict(.io)
            }
        } catch let failure as OutputFailure {
            // Standard output or standard error could not be written.
            failure.report()
            verdict = Verdict(.io)
        } catch {
            // What was asked for cannot be done (no content tree, a locale the project lacks): the
            // command line was read, so the usage is no help, only where to read about the command.
            fail(error, "Error: \(message(for: error))\n  See '\(commandLine(of: type(of: command))) --help' for more information.")
        }
        // The one place an outcome becomes an exit status: `Verdict.status` decides it.
        let status = verdict.status
        if status != .success { Foundation.exit(status.rawValue) }
    }

    private static func fail(_ error: Error, _ message: String) -> Never {
        exitForUsage(Self.self, error, message)
    }

    /// How the command `type` is typed: `msgc lint`, `msgc state fetch`.
    static func commandLine(of type: ParsableCommand.Type) -> String {
        func path(to type: ParsableCommand.Type, from command: ParsableCommand.Type) -> [String]? {
            let name = command.configuration.commandName ?? ""
            if command == type { return [name] }
            for subcommand in command.configuration.subcommands {
                if let rest = path(to: type, from: subcommand) { return [name] + rest }
            }
            return nil
        }
        return (path(to: type, from: Msgc.self) ?? ["msgc"]).joined(separator: " ")
    }
}
