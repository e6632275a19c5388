import Diagnostics

/// The report as one self-contained HTML page: inline style, no script, no external resource
/// (no font, image or stylesheet is fetched), so it can be mailed or archived as it is. Per
/// experiment: its verdict, details, the arms' table and an inline SVG chart of each arm's save
/// rate with its 95 % interval. Every string from the data goes through `HTMLText.escape`.
public enum ExperimentHTMLRenderer {
    public static func render(_ report: ExperimentReport) -> String {
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Experiment report</title>
        <style>
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em; color: #1d1d1f; }
        h1 { font-size: 1.5em; }
        h2 { font-size: 1.15em; margin-top: 2.2em; overflow-wrap: anywhere; }
        .verdict { font-weight: 600; padding: .5em .8em; border-radius: 6px; background: #f2f2f7; }
        .verdict.winner { background: #e3f6e8; }
        .verdict.sampleRatioMismatch { background: #fde8e8; }
        table.arms { border-collapse: collapse; margin: 1em 0; }
        table.arms th, table.arms td { padding: .25em .6em; border-bottom: 1px solid #d2d2d7; white-space: nowrap; }
        table.arms td.number { text-align: right; font-variant-numeric: tabular-nums; }
        table.arms th { text-align: right; font-weight: 600; }
        table.arms th:first-child { text-align: left; }
        svg.chart { display: block; max-width: 100%; height: auto; }
        svg.chart text { font: 12px system-ui, sans-serif; fill: #1d1d1f; }
        svg.chart .axis { stroke: #d2d2d7; }
        svg.chart .interval { stroke: #0a84ff; stroke-width: 3; }
        svg.chart .rate { fill: #0a84ff; }
        svg.chart .best .interval { stroke: #248a3d; }
        svg.chart .best .rate { fill: #248a3d; }
        </style>
        </head>
        <body>
        <h1>Experiment report</h1>

        """
        if report.experiments.isEmpty {
            html += "<p>No experiments: nobody was exposed to a weighted split.</p>\n"
        }
        for experiment in report.experiments {
            html += "<section class=\"experiment\">\n"
            html += "<h2>\(HTMLText.escape(ReportRows.title(experiment)))</h2>\n"
            html += "<p class=\"verdict \(experiment.verdict.kind.rawValue)\">\(HTMLText.escape(ReportRows.verdictLine(experiment)))</p>\n"
            html += "<ul>\n"
            for line in ReportRows.detailLines(experiment, settings: report.settings) {
                html += "<li>\(HTMLText.escape(line))</li>\n"
            }
            html += "</ul>\n"
            html += chart(experiment)
            html += "<table class=\"arms\">\n<thead><tr>"
            html += ReportRows.columns.map { "<th>\(HTMLText.escape($0.title))</th>" }.joined()
            html += "</tr></thead>\n<tbody>\n"
            for arm in experiment.arms {
                html += "<tr>"
                for (column, cell) in ReportRows.cells(arm, best: experiment.best).enumerated() {
                    let kind = ReportRows.columns[column].alignment == .right ? " class=\"number\"" : ""
                    html += "<td\(kind)>\(HTMLText.escape(cell))</td>"
                }
                html += "</tr>\n"
            }
            html += "</tbody>\n</table>\n</section>\n"
        }
        html += "</body>\n</html>\n"
        return html
    }

    /// A horizontal chart, one row per arm: the save rate as a dot and its Wilson interval as a
    /// line, on an axis cut to the tens of percent the intervals span so that close rates can
    /// be told apart. Arms without subscribers get their row and a note instead.
    static func chart(_ experiment: ExperimentResult) -> String {
        let intervals = experiment.arms.compactMap(\.interval)
        let low = ((intervals.map(\.lower).min() ?? 0) * 10).rounded(.down) / 10
        var high = ((intervals.map(\.upper).max() ?? 1) * 10).rounded(.up) / 10
        if high <= low { high = min(1, low + 0.1) }
        let labelWidth = 200.0, plotWidth = 440.0, rowHeight = 30.0, top = 10.0
        let width = labelWidth + plotWidth + 80
        let height = top + rowHeight * Double(experiment.arms.count) + 30
        func x(_ rate: Double) -> String {
            coordinate(labelWidth + (rate - low) / (high - low) * plotWidth)
        }
        let title = "Save rate of each arm with its 95 % interval: \(ReportRows.title(experiment))"
        var svg = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"\(coordinate(width))\" "
            + "height=\"\(coordinate(height))\" viewBox=\"0 0 \(coordinate(width)) \(coordinate(height))\">\n"
        svg += "<title>\(HTMLText.escape(title))</title>\n"
        let step = high - low <= 0.2 ? 0.05 : 0.1
        let axisBottom = top + rowHeight * Double(experiment.arms.count)
        var tick = low
        while tick <= high + 1e-9 {
            svg += "<line class=\"axis\" x1=\"\(x(tick))\" y1=\"\(coordinate(top))\" x2=\"\(x(tick))\" y2=\"\(coordinate(axisBottom))\"/>"
            svg += "<text x=\"\(x(tick))\" y=\"\(coordinate(axisBottom + 18))\" text-anchor=\"middle\">\(ReportText.decimal(tick * 100, digits: 0)) %</text>\n"
            tick += step
        }
        for (row, arm) in experiment.arms.enumerated() {
            let y = top + rowHeight * (Double(row) + 0.5)
            let isBest = arm.message == experiment.best
            svg += "<g class=\"arm\(isBest ? " best" : "")\">"
            svg += "<text x=\"\(coordinate(labelWidth - 10))\" y=\"\(coordinate(y + 4))\" text-anchor=\"end\">\(HTMLText.escape(arm.message))</text>"
            if let interval = arm.interval, let rate = arm.saveRate {
                svg += "<line class=\"interval\" x1=\"\(x(interval.lower))\" y1=\"\(coordinate(y))\" x2=\"\(x(interval.upper))\" y2=\"\(coordinate(y))\"/>"
                svg += "<circle class=\"rate\" cx=\"\(x(rate))\" cy=\"\(coordinate(y))\" r=\"5\"/>"
                svg += "<text x=\"\(coordinate(labelWidth + plotWidth + 10))\" y=\"\(coordinate(y + 4))\">\(ReportText.percent(rate))</text>"
            } else {
                svg += "<text x=\"\(coordinate(labelWidth))\" y=\"\(coordinate(y + 4))\">no subscriber counted yet</text>"
            }
            svg += "</g>\n"
        }
        return svg + "</svg>\n"
    }

    /// A coordinate with one decimal, the same on every machine.
    static func coordinate(_ value: Double) -> String { ReportText.decimal(value, digits: 1) }
}
