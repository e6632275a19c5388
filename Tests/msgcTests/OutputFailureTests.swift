import Foundation
import Testing
import TestSupport

/// An output that cannot be written is an I/O failure like any other: exit status 2 and a
/// message on the stream that still works, never a crash.
@Suite(.ownThreads) struct OutputFailureTests {
    /// Runs msgc with standard output going to `stdout`, returning its status and standard error.
    func run(_ arguments: [String], stdout: FileHandle) throws -> (status: Int32, reason: Process.TerminationReason, stderr: String) {
        let process = Process()
        process.executableURL = MsgcRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = MsgcRunner.packageRoot
        process.standardOutput = stdout
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason, String(decoding: errData, as: UTF8.self))
    }

    @Test(arguments: [
        ["lint", "--content", "content"], ["lint", "--content", "content", "--format", "json"], ["explain"],
        ["extract", "--content", "content", "--locale", "de-DE"], ["coverage", "--content", "content"],
    ])
    func aFullDiskOnStandardOutputIsExitStatus2(arguments: [String]) throws {
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let result = try run(arguments, stdout: full)
        #expect(result.reason == .exit)
        #expect(result.status == 2)
        #expect(result.stderr == "msgc: cannot write to standard output: No space left on device\n")
    }

    /// A full standard error is the same failure, said on standard output: for main's own
    /// message (no content tree) as for a command's refusal (`msgc diff` of folders that are
    /// no bundles).
    @Test(arguments: [["lint", "--content", "no-such-folder"], ["diff", "no-such-bundle", "no-other-bundle"]])
    func aFullDiskOnStandardErrorIsExitStatus2(arguments: [String]) throws {
        let process = Process()
        process.executableURL = MsgcRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = MsgcRunner.packageRoot
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
        #expect(String(decoding: outData, as: UTF8.self) == "msgc: cannot write to standard error: No space left on device\n")
    }

    /// A reader that goes away ends msgc as it ends other tools (SIGPIPE), without a message.
    @Test func aClosedPipeEndsItQuietly() throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try run(["explain"], stdout: pipe.fileHandleForWriting)
        #expect(result.stderr.isEmpty)
        #expect(result.status != 0)
    }
}
