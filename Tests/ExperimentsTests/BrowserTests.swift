@testable import Experiments
import Foundation
import Testing
import TestSupport

/// Renders the report page in a real browser when one is installed (Debian: `apt-get install
/// chromium`), as the coverage page is checked: the page loads, lays out and draws its charts.
@Suite(.ownThreads) struct BrowserTests {
    static let chromium = HeadlessBrowser.path

    static func runBrowser(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try HeadlessBrowser.run(arguments)
    }

    @Test(.enabled(if: chromium != nil, "no chromium, chromium-browser or google-chrome on PATH; install Debian's chromium to run it"))
    func headlessChromiumDrawsTheCharts() throws {
        let folder = TestFolders.root.appendingPathComponent("msgc-experiments-\(UUID().uuidString)")
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

    /// What the probe script reads off the laid-out page, in CSS pixels (`ChartProbe.script`).
    struct Probe: Decodable {
        struct Tick: Decodable { var label: String; var x: Double }
        struct Arm: Decodable {
            var label: String
            var isBest: Bool
            var note: String?
            var rateX: Double?, rateY: Double?, rateFill: String?
            var intervalLeft: Double?, intervalRight: Double?, intervalY: Double?, intervalHeight: Double?
            var percent: String?
        }
        struct Chart: Decodable {
            var left: Double, right: Double, top: Double, bottom: Double
            var ticks: [Tick]
            var arms: [Arm]
        }
        var viewportWidth: Double
        var charts: [Chart]
        var resources: [String]
        var externalReferences: [String]
    }

    /// Measures the page as Chromium laid it out, once it has loaded, and writes the result as
    /// JSON into a `<pre id="probe">` that `--dump-dom` prints: each chart's box, its axis ticks
    /// (label and x), and per arm its label, the rate's dot (centre and fill) and the interval's
    /// line (ends and y); every resource the page fetched (Resource Timing, failed fetches
    /// included) and every element, attribute or style rule that could fetch one.
    static let probeScript = """
    <script id="msgc-probe">
    window.addEventListener("load", () => {
      const box = (element) => element.getBoundingClientRect();
      const charts = [...document.querySelectorAll("svg.chart")].map((svg) => {
        const ticks = [...svg.querySelectorAll(":scope > line.axis")].map((line, index) => ({
          label: svg.querySelectorAll(":scope > text")[index].textContent, x: box(line).left }));
        const arms = [...svg.querySelectorAll(":scope > g.arm")].map((group) => {
          const texts = [...group.querySelectorAll("text")];
          const arm = { label: texts[0].textContent, isBest: group.classList.contains("best") };
          const dot = group.querySelector("circle.rate"), line = group.querySelector("line.interval");
          if (dot && line) {
            const d = box(dot), l = box(line);
            Object.assign(arm, { rateX: (d.left + d.right) / 2, rateY: (d.top + d.bottom) / 2, rateFill: getComputedStyle(dot).fill,
              intervalLeft: l.left, intervalRight: l.right, intervalY: l.top, intervalHeight: l.height,
              percent: texts[texts.length - 1].textContent });
          } else {
            arm.note = texts[texts.length - 1].textContent;
          }
          return arm;
        });
        const b = box(svg);
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom, ticks, arms };
      });
      const fetching = [...document.querySelectorAll("[src], [href], link, img, image, iframe, object, embed, video, audio, script")]
        .filter((element) => element.id !== "msgc-probe").map((element) => element.outerHTML.slice(0, 120));
      for (const sheet of document.styleSheets) {
        // A stylesheet from elsewhere hides its rules; its <link> is listed above.
        let rules = [];
        try { rules = sheet.cssRules; } catch (error) { if (!sheet.href) fetching.push("an unreadable stylesheet"); }
        for (const rule of rules) {
          if (/url\\(|@import|@font-face/.test(rule.cssText)) fetching.push(rule.cssText.slice(0, 120));
        }
      }
      const probe = document.createElement("pre");
      probe.id = "probe";
      probe.textContent = JSON.stringify({ viewportWidth: window.innerWidth, charts,
        resources: performance.getEntriesByType("resource").map((entry) => entry.name), externalReferences: fetching });
      document.body.appendChild(probe);
    });
    </script>
    """

    /// Opens `html` with the probe added, with every host name resolving to nothing (so a fetch
    /// fails at once and reaches nobody, but is still recorded), and returns what it measured.
    static func probe(_ html: String, in folder: URL, name: String) throws -> Probe {
        let page = folder.appendingPathComponent(name)
        try Data(html.replacingOccurrences(of: "</body>", with: probeScript + "\n</body>").utf8).write(to: page)
        let dom = try runBrowser(["--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1200,900", "--dump-dom", page.absoluteString])
        guard dom.status == 0, let start = dom.stdout.range(of: "<pre id=\"probe\">"),
              let end = dom.stdout.range(of: "</pre>", range: start.upperBound..<dom.stdout.endIndex) else {
            throw ProbeFailure(description: "Chromium ended with \(dom.status) and no probe in its DOM: \(dom.stdout.prefix(400))")
        }
        // --dump-dom escapes the text it prints; JSON's own characters here are only these.
        let json = dom.stdout[start.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Probe.self, from: Data(json.utf8))
    }

    struct ProbeFailure: Error, CustomStringConvertible { var description: String }

    /// The chart as Chromium drew it, measured: each arm's dot sits at its save rate and its line
    /// runs from the interval's lower to its upper end, read against the axis's own ticks; the
    /// rows are in the report's order, the best arm is drawn in its colour, and the page fetches
    /// nothing (no resource, and nothing in it that could ask for one).
    @Test(.enabled(if: chromium != nil, "no chromium, chromium-browser or google-chrome on PATH; install Debian's chromium to run it"))
    func theChartShowsEachArmsRateAndIntervalWhereTheAxisSays() throws {
        let folder = TestFolders.root.appendingPathComponent("msgc-experiments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = ReportFixture.golden
        let html = ExperimentHTMLRenderer.render(report)
        // As written: no script, and no URL but the SVG namespace.
        #expect(!html.contains("<script"))
        #expect(html.components(separatedBy: "http").count - 1 == report.experiments.count)
        #expect(html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1 == report.experiments.count)

        let probe = try Self.probe(html, in: folder, name: "report.html")
        #expect(probe.resources.isEmpty, "the page fetched \(probe.resources)")
        #expect(probe.externalReferences.isEmpty, "the page could fetch through \(probe.externalReferences)")
        try #require(probe.charts.count == report.experiments.count)

        for (chart, experiment) in zip(probe.charts, report.experiments) {
            // The chart fits the window, and its axis has at least two ticks, left to right.
            #expect(chart.left >= 0 && chart.right <= probe.viewportWidth && chart.bottom > chart.top)
            try #require(chart.ticks.count >= 2, "\(experiment.product): \(chart.ticks.count) ticks")
            let values = try chart.ticks.map { tick -> Double in
                let digits = tick.label.replacingOccurrences(of: " %", with: "")
                return try #require(Double(digits), "tick label \(tick.label)") / 100
            }
            #expect(zip(chart.ticks, chart.ticks.dropFirst()).allSatisfy { $0.x < $1.x })
            #expect(chart.ticks.allSatisfy { $0.x > chart.left && $0.x < chart.right })
            // Pixels per unit of rate, from the outer ticks; the inner ones must agree with it.
            let first = chart.ticks[0], last = chart.ticks[chart.ticks.count - 1]
            let scale = (last.x - first.x) / (values[values.count - 1] - values[0])
            func x(_ rate: Double) -> Double { first.x + (rate - values[0]) * scale }
            for (tick, value) in zip(chart.ticks, values) {
                #expect(abs(tick.x - x(value)) < 0.75, "tick \(tick.label) at \(tick.x), expected \(x(value))")
            }

            try #require(chart.arms.count == experiment.arms.count)
            var previousY = chart.top
            for (drawn, arm) in zip(chart.arms, experiment.arms) {
                #expect(drawn.label == arm.message)
                #expect(drawn.isBest == (arm.message == experiment.best))
                guard let rate = arm.saveRate, let interval = arm.interval else {
                    #expect(drawn.rateX == nil && drawn.intervalLeft == nil, "\(arm.message) has no subscriber but a dot or a line")
                    #expect(drawn.note == "no subscriber counted yet")
                    continue
                }
                let rateX = try #require(drawn.rateX, "\(arm.message): no dot"), rateY = try #require(drawn.rateY)
                let left = try #require(drawn.intervalLeft, "\(arm.message): no line"), right = try #require(drawn.intervalRight)
                let lineY = try #require(drawn.intervalY)
                #expect(abs(rateX - x(rate)) < 0.75, "\(arm.message): dot at \(rateX), rate \(rate) is at \(x(rate))")
                #expect(abs(left - x(interval.lower)) < 0.75, "\(arm.message): line from \(left), lower \(interval.lower) is at \(x(interval.lower))")
                #expect(abs(right - x(interval.upper)) < 0.75, "\(arm.message): line to \(right), upper \(interval.upper) is at \(x(interval.upper))")
                #expect(left <= rateX && rateX <= right, "\(arm.message): the dot is outside its interval")
                #expect(drawn.intervalHeight == 0 && abs(lineY - rateY) < 0.5, "\(arm.message): the line is not level with the dot")
                #expect(rateY > previousY && rateY < chart.bottom, "\(arm.message): row out of order or outside the chart")
                previousY = rateY
                #expect(drawn.percent == ReportText.percent(rate))
                // The best arm green, the others blue, as the page's style says.
                #expect(drawn.rateFill == (drawn.isBest ? "rgb(36, 138, 61)" : "rgb(10, 132, 255)"))
            }
        }
    }

    /// The probe itself finds a fetch: the same page with an image and a stylesheet from
    /// elsewhere reports both, so an empty list above means nothing was fetched.
    @Test(.enabled(if: chromium != nil, "no chromium, chromium-browser or google-chrome on PATH; install Debian's chromium to run it"))
    func theProbeSeesAPageThatFetches() throws {
        let folder = TestFolders.root.appendingPathComponent("msgc-experiments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = ExperimentHTMLRenderer.render(ReportFixture.golden).replacingOccurrences(
            of: "</head>", with: "<link rel=\"stylesheet\" href=\"https://fonts.example.invalid/a.css\">\n</head>")
            .replacingOccurrences(of: "<h1>", with: "<img src=\"http://cdn.example.invalid/logo.png\" alt=\"\"><h1>")
        let probe = try Self.probe(html, in: folder, name: "fetching.html")
        #expect(probe.resources.count == 2, "\(probe.resources)")
        #expect(probe.externalReferences.count == 2, "\(probe.externalReferences)")
    }
}
