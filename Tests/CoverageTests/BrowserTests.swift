import Bundle
import Coverage
import Foundation
import Testing
import TestSupport

/// Renders the coverage page in a real browser when one is installed (Debian: `apt-get install
/// chromium`), to catch what string comparisons cannot: a page that does not load or lay out.
@Suite(.ownThreads) struct BrowserTests {
    static let chromium = HeadlessBrowser.path

    static func runBrowser(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try HeadlessBrowser.run(arguments)
    }

    @Test(.enabled(if: chromium != nil, "no chromium, chromium-browser or google-chrome on PATH; install Debian's chromium to run it"))
    func headlessChromiumRendersTheHeatMap() throws {
        let compilation = KnownGaps.compilation()
        let state = try KnownGaps.state(for: compilation, environment: .production)
        let html = CoverageHTMLRenderer.render(Coverage.report(compilation: compilation, environment: .production, state: state))
        let folder = TestFolders.root.appendingPathComponent("msgc-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("coverage.html")
        try Data(html.utf8).write(to: page)

        // The DOM Chromium built: the map with one link per cell of a product sold in a locale.
        let dom = try Self.runBrowser(["--dump-dom", page.absoluteString])
        #expect(dom.status == 0)
        #expect(dom.stdout.contains("<table class=\"heatmap\">"))
        #expect(dom.stdout.components(separatedBy: "<td class=\"cell ").count - 1 == 6)
        #expect(dom.stdout.contains("العربية"))

        // A screenshot of the size asked for, with something drawn on it.
        let screenshot = folder.appendingPathComponent("coverage.png")
        let shot = try Self.runBrowser(["--screenshot=\(screenshot.path)", "--window-size=1200,800", page.absoluteString])
        #expect(shot.status == 0)
        let bytes = try [UInt8](Data(contentsOf: screenshot))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(bigEndian(16) == 1200 && bigEndian(20) == 800)
        #expect(bytes.count > 20_000, "a blank page compresses to a few kilobytes; this one has \(bytes.count) bytes")
    }
}
