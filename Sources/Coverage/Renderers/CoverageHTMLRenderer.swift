import Diagnostics
import Foundation

/// The coverage report as one self-contained HTML page: a heat-map of products × locales that
/// reads at a glance, each cell explaining itself on hover (its `title`) and on click (a link
/// to its details below the map, highlighted with `:target`).
///
/// No scripts, fonts, images or style sheets from elsewhere: the page works from a file, in a
/// CI artifact or a mail attachment. Everything from the content tree is HTML-escaped, and
/// locale names are shown in their own language inside `<bdi>` with their direction, so that
/// Arabic or Hebrew names neither reorder the text around them nor get reordered by it.
/// Native names come from Foundation's locale data (ICU, fixed by the toolchain), never from
/// the process locale.
public enum CoverageHTMLRenderer {
    public static func render(_ report: CoverageReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Retention message coverage</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            <header>
            <h1>Retention message coverage</h1>
            <p class="headline"><strong>\(escape(CoverageWording.headline(report)))</strong> · \(escape(CoverageWording.scope(report)))</p>

            """
        if let note = CoverageWording.blockingNote(report) { html += "<p class=\"blocking\">\(escape(note))</p>\n" }
        html += "</header>\n"
        guard !report.products.isEmpty else { return html + "<p>No products.</p>\n</body>\n</html>\n" }

        html += "<main>\n<table class=\"heatmap\">\n<thead>\n<tr><th scope=\"col\" class=\"product\">product</th>"
        for locale in report.locales { html += "<th scope=\"col\">\(localeHeading(locale))</th>" }
        html += "<th scope=\"col\" class=\"total\">total</th></tr>\n</thead>\n<tbody>\n"
        for (row, product) in report.products.enumerated() {
            html += "<tr><th scope=\"row\" class=\"product\"><bdi>\(escape(product.product))</bdi>"
            html += "<span class=\"sub\">\(product.messageCount) message\(product.messageCount == 1 ? "" : "s") · default: "
            html += product.defaultKey.map { "<bdi>\(escape($0))</bdi>" } ?? "none"
            html += "</span></th>"
            for (column, locale) in report.locales.enumerated() {
                html += cellHTML(product.cells.first { $0.locale == locale }, product: product, row: row, column: column, locale: locale)
            }
            html += totalCell(product.totals) + "</tr>\n"
        }
        html += "</tbody>\n<tfoot>\n<tr><th scope=\"row\" class=\"product\">total</th>"
        for total in report.localeTotals { html += totalCell(total.totals) }
        html += totalCell(report.totals) + "</tr>\n</tfoot>\n</table>\n"

        html += """
            <ul class="legend">
            <li><span class="swatch h4"></span>every message ready</li>
            <li><span class="swatch h3"></span>80% or more</li>
            <li><span class="swatch h2"></span>50% or more</li>
            <li><span class="swatch h1"></span>less than 50%</li>
            <li><span class="swatch h0"></span>none ready</li>
            <li><span class="swatch h4 nodefault"></span>! default message not ready</li>
            <li><span class="swatch na"></span>not sold there</li>
            </ul>
            <p class="hint">Hover over a cell for its summary; click it for the details.</p>
            <section class="details">
            <h2>Details</h2>

            """
        for (row, product) in report.products.enumerated() {
            for (column, locale) in report.locales.enumerated() {
                guard let cell = product.cells.first(where: { $0.locale == locale }) else { continue }
                html += detailHTML(cell, product: product, row: row, column: column)
            }
        }
        html += "</section>\n</main>\n</body>\n</html>\n"
        return html
    }

    static func cellHTML(_ cell: CoverageCell?, product: ProductCoverage, row: Int, column: Int, locale: String) -> String {
        guard let cell else {
            return "<td class=\"na\" title=\"\(escape("\(product.product) is not sold in \(locale)"))\">–</td>"
        }
        let classes = ["cell", heatClass(cell.readyCount, of: cell.messageCount)] + (cell.isDefaultReady ? [] : ["nodefault"])
        let marker = cell.isDefaultReady ? "" : "<span class=\"flag\" aria-label=\"default message not ready\">!</span>"
        return "<td class=\"\(classes.joined(separator: " "))\"><a href=\"#\(anchor(row, column))\" title=\"\(escape(summary(cell, product: product)))\">"
            + "<span class=\"fraction\">\(CoverageWording.fraction(cell.readyCount, of: cell.messageCount))</span>\(marker)"
            + "<span class=\"pct\">\(CoverageWording.percent(cell.readyCount, of: cell.messageCount))</span></a></td>"
    }

    static func totalCell(_ tally: Tally) -> String {
        "<td class=\"total\">\(CoverageWording.percent(tally.ready, of: tally.messages))<span class=\"sub\">\(tally.ready)/\(tally.messages)</span></td>"
    }

    /// The text a cell shows on hover: what, how many, the default, and each reason.
    static func summary(_ cell: CoverageCell, product: ProductCoverage) -> String {
        var lines = ["\(product.product) · \(cell.locale)"]
        lines.append("\(cell.readyCount) of \(cell.messageCount) ready (\(CoverageWording.percent(cell.readyCount, of: cell.messageCount)))")
        lines.append(defaultLine(cell, product: product))
        for message in cell.notReady {
            lines.append("• \(message.key)\(message.isDefault ? " (default)" : ""): \(CoverageWording.describe(message))")
        }
        for message in cell.previousTranslation {
            lines.append("• \(message.key)\(message.isDefault ? " (default)" : ""): \(CoverageWording.describe(message))")
        }
        return lines.joined(separator: "\n")
    }

    static func defaultLine(_ cell: CoverageCell, product: ProductCoverage) -> String {
        guard let key = product.defaultKey else { return "the product has no default message" }
        return cell.isDefaultReady ? "default message \(key) is ready" : "default message \(key) is NOT ready"
    }

    static func detailHTML(_ cell: CoverageCell, product: ProductCoverage, row: Int, column: Int) -> String {
        var html = "<article id=\"\(anchor(row, column))\" class=\"detail \(heatClass(cell.readyCount, of: cell.messageCount))\">\n"
        html += "<h3><bdi>\(escape(product.product))</bdi> · \(localeHeading(cell.locale))</h3>\n"
        html += "<p>\(cell.readyCount) of \(cell.messageCount) ready · \(escape(defaultLine(cell, product: product)))</p>\n"
        if cell.notReady.isEmpty {
            html += "<p class=\"ok\">Every message is ready.</p>\n"
        } else {
            html += "<ul>\n"
            for message in cell.notReady {
                html += "<li><code><bdi>\(escape(message.key))</bdi></code>\(message.isDefault ? " <em>(default)</em>" : "")<ul>"
                for reason in message.reasons {
                    html += "<li class=\"reason \(reason.kind.rawValue)\"><bdi>\(escape(CoverageWording.describe(reason)))</bdi></li>"
                }
                html += "</ul></li>\n"
            }
            html += "</ul>\n"
        }
        if !cell.previousTranslation.isEmpty {
            html += "<ul class=\"previous\">\n"
            for message in cell.previousTranslation {
                html += "<li><code><bdi>\(escape(message.key))</bdi></code>\(message.isDefault ? " <em>(default)</em>" : "")"
                html += "<ul><li class=\"reason previous-translation\"><bdi>\(escape(CoverageWording.describe(message)))</bdi></li></ul></li>\n"
            }
            html += "</ul>\n"
        }
        return html + "<p class=\"back\"><a href=\"#\">back to the map</a></p>\n</article>\n"
    }

    /// The locale code, and its name in its own language when Foundation knows it, isolated
    /// with its direction so that right-to-left names show correctly.
    static func localeHeading(_ code: String) -> String {
        var html = "<span class=\"code\"><bdi>\(escape(code))</bdi></span>"
        if let name = Locale(identifier: code).localizedString(forIdentifier: code), !name.isEmpty {
            let direction = Locale.Language(identifier: code).characterDirection == .rightToLeft ? "rtl" : "ltr"
            html += "<bdi class=\"native\" lang=\"\(escape(code))\" dir=\"\(direction)\">\(escape(name))</bdi>"
        }
        return html
    }

    static func anchor(_ row: Int, _ column: Int) -> String { "cell-\(row + 1)-\(column + 1)" }

    /// Five steps from none ready to all ready.
    static func heatClass(_ ready: Int, of total: Int) -> String {
        guard total > 0, ready > 0 else { return total == 0 ? "h4" : "h0" }
        if ready == total { return "h4" }
        if ready * 100 >= total * 80 { return "h3" }
        if ready * 100 >= total * 50 { return "h2" }
        return "h1"
    }

    /// Text safe in element content and in double-quoted attributes.
    /// Controls and invisible characters as `<U+001B>`, as the table shows them, then HTML-escaped;
    /// line breaks stay, as the tooltips' own (`&#10;`).
    static func escape(_ text: String) -> String {
        HTMLText.escape(text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }.joined(separator: "\n"))
    }

    static let style = """
        :root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; }
        * { box-sizing: border-box; }
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 24px; background: #fff; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 18px; margin: 28px 0 8px; }
        h3 { font-size: 15px; margin: 0 0 4px; }
        .headline { margin: 0 0 16px; color: var(--muted); }
        .headline strong { color: var(--ink); }
        .blocking { background: #ffebe9; border: 1px solid #ff8182; padding: 8px 12px; border-radius: 6px; }
        table.heatmap { border-collapse: separate; border-spacing: 4px; }
        .heatmap th { font-weight: 600; text-align: center; vertical-align: bottom; padding: 4px 6px; }
        .heatmap th.product { text-align: start; vertical-align: middle; max-width: 320px; overflow-wrap: anywhere; }
        .heatmap th .code, .heatmap th .native, .sub { display: block; }
        .native, .sub { font-weight: 400; font-size: 12px; color: var(--muted); }
        .heatmap td { width: 84px; height: 56px; text-align: center; border-radius: 6px; padding: 0; position: relative; }
        .heatmap td a { display: block; height: 100%; padding: 8px 4px; color: inherit; text-decoration: none; border-radius: 6px; }
        .heatmap td a:hover, .heatmap td a:focus { outline: 3px solid #0969da; outline-offset: 1px; }
        .fraction { font-size: 17px; font-weight: 700; }
        .pct { display: block; font-size: 12px; opacity: 0.85; }
        .flag { position: absolute; top: 2px; inset-inline-end: 5px; font-weight: 800; }
        td.total { background: #f6f8fa; font-weight: 600; }
        .h4 { background: #1a7f37; color: #fff; }
        .h3 { background: #8ccf7e; color: #0d2b12; }
        .h2 { background: #f2cc60; color: #3b2300; }
        .h1 { background: #f0883e; color: #3b1200; }
        .h0 { background: #cf222e; color: #fff; }
        .nodefault { box-shadow: inset 0 0 0 4px #5c0011; }
        td.na, .swatch.na { background: repeating-linear-gradient(45deg, #f6f8fa, #f6f8fa 6px, #e6eaef 6px, #e6eaef 12px); color: var(--muted); }
        .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 14px 0 4px; color: var(--muted); font-size: 13px; }
        .legend li { display: flex; align-items: center; gap: 6px; }
        .swatch { display: inline-block; width: 18px; height: 18px; border-radius: 4px; }
        .hint { color: var(--muted); font-size: 13px; margin: 0; }
        .detail { border: 1px solid var(--line); border-inline-start-width: 8px; border-radius: 6px; padding: 10px 14px; margin: 8px 0; background: #fff; color: var(--ink); }
        .detail.h4 { border-inline-start-color: #1a7f37; } .detail.h3 { border-inline-start-color: #8ccf7e; }
        .detail.h2 { border-inline-start-color: #f2cc60; } .detail.h1 { border-inline-start-color: #f0883e; }
        .detail.h0 { border-inline-start-color: #cf222e; }
        .detail:target { outline: 3px solid #0969da; }
        .detail p { margin: 2px 0; }
        .detail h3 .code, .detail h3 .native { display: inline; margin-inline-end: 6px; }
        .detail h3 .native { font-weight: 400; }
        .heatmap th .native { max-width: 110px; margin: 0 auto; }
        .detail ul { margin: 4px 0; padding-inline-start: 22px; }
        .detail .ok { color: #1a7f37; }
        .reason.failing-rule, .reason.rejected { color: #a40e26; }
        .back { font-size: 12px; }
        code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
        """
}
