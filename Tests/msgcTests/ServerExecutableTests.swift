import Foundation
import Testing
import TestSupport

/// `msgc realtime serve` runs `msgc-realtime`, the server's own executable, in msgc's place:
/// the one beside msgc, else the one on PATH; where there is none, one line says how to build
/// it. Its help is the server's own, word for word.
@Suite(.ownThreads) struct ServerExecutableTests {
    /// A folder holding a copy of `msgc` alone, no server beside it.
    static func lonelyMsgc() throws -> (folder: URL, msgc: URL) {
        let folder = try MsgcRunner.temporaryFolder()
        let msgc = folder.appendingPathComponent("msgc")
        try MsgcRunner.copyExecutable(MsgcRunner.executable, to: msgc)
        return (folder, msgc)
    }

    @Test func theHelpOfServeIsTheServersOwn() throws {
        let viaMsgc = try MsgcRunner.run(["realtime", "serve", "--help"])
        #expect(viaMsgc.status == 0)
        #expect(viaMsgc.stdout.contains("USAGE: msgc realtime serve [<options>] --snapshot <file>"), "\(viaMsgc.stdout)")
        #expect(viaMsgc.stdout.contains("--idle-timeout <seconds>") && viaMsgc.stdout.contains("--key-file <file>"))
        let direct = try MsgcRunner.run(["serve", "--help"], program: MsgcRunner.serverExecutable)
        #expect(direct.status == 0)
        #expect(direct.stdout.contains("USAGE: msgc-realtime serve [<options>] --snapshot <file>"))
        // The same text, but for the name it was typed as (of the same length, so wrapped alike).
        #expect(direct.stdout.replacingOccurrences(of: "msgc-realtime", with: "msgc realtime") == viaMsgc.stdout)
        let helpCommand = try MsgcRunner.run(["help", "realtime", "serve"])
        #expect(helpCommand.status == 0)
        #expect(helpCommand.stdout == viaMsgc.stdout)
        // `msgc realtime --help` still lists serve.
        let realtime = try MsgcRunner.run(["realtime", "--help"])
        #expect(realtime.stdout.contains("serve") && realtime.stdout.contains("Answer Apple's realtime requests from a snapshot,"))
    }

    /// `msgc realtime report` and `msgc realtime outcomes import` are the server's too: they
    /// read and write the experiment store, which msgc does not link.
    @Test func reportAndOutcomesAreTheServersAndListedInMsgcsHelp() throws {
        for (arguments, usage) in [
            (["realtime", "report", "--help"], "USAGE: msgc realtime report --store <url> [--product <product>]"),
            (["help", "realtime", "report"], "USAGE: msgc realtime report --store <url> [--product <product>]"),
            (["realtime", "outcomes", "import", "--help"], "USAGE: msgc realtime outcomes import <file> --store <url> --subject-key <file>"),
            (["help", "realtime", "outcomes", "import"], "USAGE: msgc realtime outcomes import <file> --store <url> --subject-key <file>"),
            (["help", "realtime", "outcomes"], "import"),
        ] {
            let result = try MsgcRunner.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains(usage), "\(arguments): \(result.stdout)")
        }
        let direct = try MsgcRunner.run(["report", "--help"], program: MsgcRunner.serverExecutable)
        let viaMsgc = try MsgcRunner.run(["realtime", "report", "--help"])
        #expect(direct.stdout.replacingOccurrences(of: "msgc-realtime", with: "msgc realtime") == viaMsgc.stdout)
        let realtime = try MsgcRunner.run(["realtime", "--help"])
        #expect(realtime.stdout.contains("report") && realtime.stdout.contains("Report which message kept more subscribers"), "\(realtime.stdout)")
        #expect(realtime.stdout.contains("outcomes") && realtime.stdout.contains("Bring App Store Server Notifications into the"))
        let (folder, msgc) = try Self.lonelyMsgc()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["realtime", "report", "--store", "sqlite:x"], ["realtime", "outcomes", "import", "f"], ["help", "realtime", "report"]] {
            let result = try MsgcRunner.run(arguments, in: folder, environment: ["PATH": "/usr/bin:/bin"], program: msgc)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("msgc: the realtime server (msgc-realtime) is not built"), "\(result.stderr)")
        }
    }

    @Test func usageErrorsAreTheServersWithStatusTwo() throws {
        let badPort = try MsgcRunner.run(["realtime", "serve", "--snapshot", "none.json", "--port", "70000"])
        #expect(badPort.status == 2)
        #expect(badPort.stderr.contains("--port 70000 is not a port"), "\(badPort.stderr)")
        #expect(badPort.stderr.contains("msgc realtime serve"), "\(badPort.stderr)")
        let missing = try MsgcRunner.run(["realtime", "serve"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--snapshot"), "\(missing.stderr)")
        let unknown = try MsgcRunner.run(["realtime", "serve", "--snapshot", "s.json", "--no-such-option"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--no-such-option"), "\(unknown.stderr)")
    }

    @Test func whereTheServerIsNotBuiltOneLineSaysHowToBuildIt() throws {
        let (folder, msgc) = try Self.lonelyMsgc()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["realtime", "serve", "--snapshot", "s.json"], ["realtime", "serve", "--help"], ["help", "realtime", "serve"]] {
            let result = try MsgcRunner.run(arguments, in: folder, environment: ["PATH": "/usr/bin:/bin"], program: msgc)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("msgc: the realtime server (msgc-realtime) is not built"), "\(result.stderr)")
            #expect(result.stderr.contains("swift build -c release --product msgc-realtime"), "\(result.stderr)")
        }
        // An empty PATH entry (the current folder) is not searched, nor a folder of that name.
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("bin/msgc-realtime"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try MsgcRunner.copyExecutable(MsgcRunner.serverExecutable, to: work.appendingPathComponent("msgc-realtime"))
        let shadowed = try MsgcRunner.run(
            ["realtime", "serve", "--help"], in: work, environment: ["PATH": "::\(folder.path)/bin:/usr/bin"], program: msgc)
        #expect(shadowed.status == 2, "\(shadowed.stdout)")
        // Every other command works without it.
        let version = try MsgcRunner.run(["--version"], in: folder, environment: ["PATH": "/usr/bin:/bin"], program: msgc)
        #expect(version.status == 0)
    }

    @Test func theServerOnPathIsRunWhenNoneIsBesideMsgc() throws {
        let (folder, msgc) = try Self.lonelyMsgc()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = MsgcRunner.serverExecutable.deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try MsgcRunner.run(["realtime", "serve", "--help"], in: folder, environment: ["PATH": path], program: msgc)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: msgc realtime serve [<options>] --snapshot <file>"))
    }

    /// The process that answers is the one msgc started: msgc became the server (execv), so a
    /// signal sent to it reaches the server, and the server's exit status is what is seen.
    @Test(.enabled(if: StandIn.python != nil, "needs Python with cryptography (scripts/test.sh's venv)"))
    func msgcBecomesTheServerAndTheServerRunsOnItsOwn() throws {
        let fixture = try RealtimeServeTests.Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        for direct in [false, true] {
            let server = try ServeProcess(fixture.options, folder: fixture.folder, direct: direct)
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.process.processIdentifier)/exe")
            #expect(executable.hasSuffix("/msgc-realtime"), "\(executable)")
            let health = LoopbackHTTP.exchange(port: server.port, LoopbackHTTP.request("GET", "/healthz"))
            #expect(health?.status == 200)
            #expect(server.stop() == 0)
        }
    }
}
