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

    /// `--out` replaces only a regular file of its own: a device stays a device (as root, a
    /// rename over /dev/full once made it a plain file), and the file standard output goes to
    /// (`--out /dev/stdout` or `--out report.txt > report.txt`) is refused, not renamed over.
    @Test func outIsNeverADeviceNorTheFileStandardOutputGoesTo() throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let device = try run(["coverage", "--content", "content", "--out", "/dev/full"], stdout: FileHandle.nullDevice)
        #expect(device.status == 2)
        #expect(device.stderr == "msgc: '/dev/full' is a character device; msgc writes its output only as a regular file\n")
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)

        let report = folder.appendingPathComponent("report.txt")
        #expect(FileManager.default.createFile(atPath: report.path, contents: nil))
        for out in [report.path, "/dev/stdout"] {
            let redirected = try run(["coverage", "--content", "content", "--out", out], stdout: try FileHandle(forWritingTo: report))
            #expect(redirected.status == 2, "\(out)")
            #expect(redirected.stderr == "msgc: '\(out)' is the file msgc's standard output goes to; give --out a file of its own\n")
            #expect(try Data(contentsOf: report).isEmpty)
        }
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
