import ArgumentParser
import Compiler
import Foundation
import Model
#if canImport(Glibc)
import Glibc
#endif

/// `msgc realtime serve` is the realtime server's own executable, `msgc-realtime`, so that msgc
/// links no HTTP server stack (docs/architecture.md). msgc runs it the way git runs an external
/// subcommand: the one beside msgc (the folder of /proc/self/exe), else the first on PATH,
/// replacing msgc's process (execv), so signals reach the server and its exit status is its own.
enum ServerExecutable {
    static let name = "msgc-realtime"

    /// What to type to build it, for the one line said where it is not built.
    static let buildCommand = "swift build -c release --product msgc-realtime (or scripts/build-release.sh msgc-realtime)"

    /// The server's subcommands, which `msgc realtime …` hands over: the server, the
    /// experiment report and the import of notifications, which all need the server's side
    /// (its store drivers, the report), never linked by msgc.
    static let subcommands: Set<String> = ["serve", "report", "outcomes"]

    /// The server's arguments when msgc's own are `realtime serve …`, `realtime report …` or
    /// `realtime outcomes …` (or `help realtime serve` and the like, the server's help), else
    /// nil. Read before msgc sets up any signal handling, which an executed program would inherit.
    static func arguments(from commandLine: [String]) -> [String]? {
        let given = Array(commandLine.dropFirst())
        if given.count >= 2, given[0] == "realtime", subcommands.contains(given[1]) { return Array(given.dropFirst()) }
        if given.count >= 3, given[0] == "help", given[1] == "realtime", subcommands.contains(given[2]) {
            return Array(given.dropFirst(2)) + ["--help"]
        }
        return nil
    }

    /// Where the server is: beside msgc, else on PATH; nil where it is not built.
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates: [String] = []
        if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((me as NSString).deletingLastPathComponent + "/" + name)
        }
        // Empty PATH entries (the current folder, by an old convention) are not searched.
        for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
            candidates.append(folder + "/" + name)
        }
        return candidates.first { access($0, X_OK) == 0 && !isFolder($0) }
    }

    private static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    /// Runs the server with `arguments` in this process's place; returns only the reason it
    /// could not, as the line msgc says (exit status 2).
    static func run(_ arguments: [String]) -> String {
        guard let path = path() else {
            return "the realtime server (\(name)) is not built beside msgc or on PATH: build it with \(buildCommand)"
        }
        // argv[0] `msgc realtime`: the server's help and usage errors then name the command typed.
        let argv = ["msgc realtime"] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        execv(path, cArguments)
        let reason = String(cString: strerror(errno))
        cArguments.forEach { free($0) }
        return "cannot run the realtime server '\(path)': \(reason)"
    }
}

extension Msgc.RealtimeCommand {
    /// Listed in `msgc realtime --help`; `main` hands `msgc realtime serve …` to the server's
    /// executable before parsing, so this command only runs it if reached some other way.
    struct Serve: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Answer Apple's realtime requests from a snapshot, over HTTP.",
            discussion: "Runs the realtime server, its own executable (\(ServerExecutable.name)): `msgc realtime serve --help` shows its options.")

        @Argument(parsing: .captureForPassthrough)
        var arguments: [String] = []

        func execute() throws -> Outcome {
            throw Refusal(.io, ServerExecutable.run(["serve"] + arguments))
        }
    }

    /// Listed in `msgc realtime --help`; run by the server's executable, as `serve` is.
    struct Report: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Report which message kept more subscribers, from the experiment store.",
            discussion: "Runs the realtime server's executable (\(ServerExecutable.name)), which reads the store: `msgc realtime report --help` shows its options.")

        @Argument(parsing: .captureForPassthrough)
        var arguments: [String] = []

        func execute() throws -> Outcome {
            throw Refusal(.io, ServerExecutable.run(["report"] + arguments))
        }
    }

    /// Listed in `msgc realtime --help`; run by the server's executable, as `serve` is.
    struct Outcomes: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "outcomes",
            abstract: "Bring App Store Server Notifications into the experiment store (outcomes import).",
            discussion: "Runs the realtime server's executable (\(ServerExecutable.name)), which writes the store: `msgc realtime outcomes import --help` shows its options.")

        @Argument(parsing: .captureForPassthrough)
        var arguments: [String] = []

        func execute() throws -> Outcome {
            throw Refusal(.io, ServerExecutable.run(["outcomes"] + arguments))
        }
    }
}
