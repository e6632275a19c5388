import Foundation
import Preview
import Testing
import TestSupport

/// Opens the preview pages in a real browser when one is installed (Debian: `apt-get install
/// chromium`), to catch what string comparisons cannot: a page that does not load or lay out.
@Suite(.ownThreads) struct PreviewBrowserTests {
    static let chromium = HeadlessBrowser.path

    static func runBrowser(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try HeadlessBrowser.run(arguments)
    }

    @Test(.enabled(if: chromium != nil, "no chromium, chromium-browser or google-chrome on PATH; install Debian's chromium to run it"))
    func headlessChromiumDrawsTheSheets() throws {
        let (folder, compilation) = try PreviewGalleryTests.hostileExample()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pages, _) = PreviewGallery.pages(compilation)
        let output = folder.appendingPathComponent("preview")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for page in pages { try Data(page.html.utf8).write(to: output.appendingPathComponent(page.name)) }

        // The DOM Chromium built from the Arabic page: mirrored sheets, the images decoded from
        // data: URIs, and the hostile text still text (no script element, no injected image).
        let dom = try Self.runBrowser(["--dump-dom", output.appendingPathComponent("ar-SA.html").absoluteString])
        #expect(dom.status == 0)
        #expect(dom.stdout.contains("<div class=\"sheet\" dir=\"rtl\" lang=\"ar-SA\">"))
        #expect(dom.stdout.contains("سلسلة أيام تعلمك بانتظارك"))
        let english = try Self.runBrowser(["--dump-dom", output.appendingPathComponent("en-US.html").absoluteString])
        #expect(!english.stdout.contains("<script") && !english.stdout.contains("<img src=\"x\""))
        #expect(english.stdout.contains("&lt;script&gt;alert('x')&lt;/script&gt;"))

        // Screenshots of the size asked for, with something drawn on them.
        for name in ["ar-SA", "zh-Hans", "ar-XB"] {
            let screenshot = output.appendingPathComponent("\(name).png")
            let shot = try Self.runBrowser([
                "--screenshot=\(screenshot.path)", "--window-size=1000,900", output.appendingPathComponent("\(name).html").absoluteString,
            ])
            #expect(shot.status == 0)
            let bytes = try [UInt8](Data(contentsOf: screenshot))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            #expect(bigEndian(16) == 1000 && bigEndian(20) == 900)
            #expect(bytes.count > 40_000, "\(name): a blank page compresses to a few kilobytes; this one has \(bytes.count) bytes")
        }
    }
}
