import Foundation
import TestSupport

/// Runs the built `msgc` executable the way a user would.
struct MsgcRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `msgc` binary next to the test bundle (whatever the scratch path).
    static let executable: URL = {
        var candidates: [URL] = []
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("msgc"))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("msgc"))
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("msgc"))
        }
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("msgc"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? packageRoot.appendingPathComponent(".build/debug/msgc")
    }()

    /// `msgc-realtime`, the server's executable, which the build puts beside `msgc`.
    static var serverExecutable: URL {
        executable.deletingLastPathComponent().appendingPathComponent("msgc-realtime")
    }

    /// Runs `msgc` (or `program`) with `arguments`, blocking the calling thread until it ends:
    /// suites that use it run with `.ownThreads`.
    static func run(
        _ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:], program: URL = executable
    ) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Copies an executable to `destination` through a descriptor closed on exec. A copy made
    /// with FileManager keeps its descriptor open while it writes, so a process another test
    /// starts meanwhile inherits it, and running the copy then fails with "Text file busy".
    static func copyExecutable(_ source: URL, to destination: URL) throws {
        let bytes = try Data(contentsOf: source)
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path]) }
        defer { close(descriptor) }
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: bytes)
    }

    static func temporaryFolder() throws -> URL {
        let url = TestFolders.root.appendingPathComponent("msgc-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every file under `folder` with its bytes, by relative path.
    static func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            result[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return result
    }

    static func write(_ files: [String: String], into folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }
}
