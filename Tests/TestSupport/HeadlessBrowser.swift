import Foundation

/// A real browser for the tests of msgc's HTML pages (coverage, preview, the experiment report),
/// when one is installed (Debian: `apt-get install chromium`): the tests that need it are enabled
/// only where `path` is set.
public enum HeadlessBrowser {
    /// The first chromium, chromium-browser or google-chrome on PATH.
    public static let path: String? = {
        let folders = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in folders.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Runs the browser headless with `arguments`, giving up after two minutes. Blocks its
    /// thread: call it from a suite on threads of its own (`.ownThreads`).
    public static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", path ?? "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
