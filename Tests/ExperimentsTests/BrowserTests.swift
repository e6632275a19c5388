@testable import Experiments
import Foundation
import Testing
import TestSupport

/// Renders the report page in a real browser when one is installed (Debian: `apt-get install
/// chromium`), as the coverage page is checked: the page loads, lays out and draws its charts.
@Suite(.ownThreads) struct BrowserTests {
    static let chromium: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Runs the browser headless with `arguments`, giving up after two minutes.
    static func runBrowser(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", chromium ?? "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: chromium != nil, "no chromium, chromium-browser or google-chrome on PATH; install Debian's chromium to run it"))
    func headlessChromiumDrawsTheCharts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msgc-experiments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html")
        try Data(ExperimentHTMLRenderer.render(ReportFixture.golden).utf8).write(to: page)

        // The DOM Chromium built: two charts, a dot per arm with subscribers, the escaped
        // product read back as text and no element made from it.
        let dom = try Self.runBrowser(["--dump-dom", page.absoluteString])
        #expect(dom.status == 0)
        #expect(dom.stdout.components(separatedBy: "<svg class=\"chart\"").count - 1 == 2)
        #expect(dom.stdout.components(separatedBy: "<circle class=\"rate\"").count - 1 == 4)
        #expect(dom.stdout.contains("&lt;b&gt;odd") && !dom.stdout.contains("<b>odd"))

        let screenshot = folder.appendingPathComponent("report.png")
        let shot = try Self.runBrowser(["--screenshot=\(screenshot.path)", "--window-size=1200,900", page.absoluteString])
        #expect(shot.status == 0)
        let bytes = try [UInt8](Data(contentsOf: screenshot))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(bigEndian(16) == 1200 && bigEndian(20) == 900)
        #expect(bytes.count > 20_000, "a blank page compresses to a few kilobytes; this one has \(bytes.count) bytes")
    }
}
