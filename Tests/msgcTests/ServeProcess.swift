import Foundation
import Synchronization

/// `msgc realtime serve` started as built, on a port the system picks: the tests read the
/// address from its one line on standard error, send it signals, and read its request log
/// (standard output, written to a file so it can never fill a pipe). Every wait is bounded and
/// blocks the thread it runs on: suites that use it run with `.ownThreads`.
final class ServeProcess: Sendable {
    let process: Process
    let port: Int
    let logFile: URL
    private let stderrText: Locked<String>

    /// Starts the server with `arguments` after `msgc realtime serve` (or with `direct`, after
    /// `msgc-realtime serve`, the server's own executable), and waits (up to 60 s) for it to say
    /// where it listens. Throws with what it said if it ends or says nothing instead.
    /// `descriptorLimit`: the soft and hard limit on open files it runs under (the shell's
    /// `ulimit -n`, then `exec`, so the process is the server itself).
    init(_ arguments: [String], folder: URL, environment: [String: String] = [:], direct: Bool = false, descriptorLimit: Int? = nil) throws {
        let process = Process()
        let executable = direct ? MsgcRunner.serverExecutable : MsgcRunner.executable
        let serve = (direct ? ["serve"] : ["realtime", "serve"]) + ["--port", "0"] + arguments
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", executable.path] + serve
        } else {
            process.executableURL = executable
            process.arguments = serve
        }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let logFile = folder.appendingPathComponent("serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)  // FileHandle(forWritingTo:) below throws if it is not there
        process.standardOutput = try FileHandle(forWritingTo: logFile)
        let errors = Pipe()
        process.standardError = errors
        let text = Locked("")
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        try process.run()
        self.process = process
        self.logFile = logFile
        self.stderrText = text
        let end = Date().addingTimeInterval(60)
        var found: Int?
        while Date() < end && found == nil && process.isRunning {
            let said = text.withLock { $0 }
            if let match = said.firstMatch(of: /listening on https?:\/\/127\.0\.0\.1:(\d+)/) {
                found = Int(match.output.1)
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        guard let found else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw Failure(description: "msgc realtime serve did not start: \(text.withLock { $0 })")
        }
        port = found
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var stderr: String { stderrText.withLock { $0 } }


    /// The request log so far, one JSON object per line.
    func logLines() throws -> [[String: Any]] {
        try String(contentsOf: logFile, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits up to `seconds` for `condition`, checking every 50 ms.
    @discardableResult
    static func wait(upTo seconds: Double, for condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    /// Sends SIGTERM and waits up to 20 s for the exit status; kills it and returns nil if it
    /// does not end.
    func stop() -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        signal(SIGTERM)
        if Self.wait(upTo: 20, for: { !process.isRunning }) { return process.terminationStatus }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return nil
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}


/// A value shared by threads of a test (Mutex itself cannot be captured by a closure).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
