import Diagnostics

/// The coverage report as a terminal table no wider than `width` columns, with a legend and
/// the reasons for every message that is not ready.
///
/// Rows are products, columns locales. Product ids lose the dotted prefix they all share;
/// ids still too long become `P1`, `P2`… with their full names in the legend; locales that do
/// not fit beside each other continue in a further block of the table.
public enum CoverageTableRenderer {
    public struct Options: Sendable {
        public var useColor: Bool
        public var width: Int

        public init(useColor: Bool = false, width: Int = 100) {
            self.useColor = useColor
            self.width = width
        }
    }

    static let longestProductLabel = 28
    static let gap = 2

    public static func render(_ report: CoverageReport, options: Options = Options()) -> String {
        let paint = Paint(enabled: options.useColor)
        var output = paint.bold("Coverage: \(CoverageWording.headline(report))") + "\n"
        output += CoverageWording.scope(report) + "\n"
        if let note = CoverageWording.blockingNote(report) { output += paint.red("! " + note) + "\n" }
        guard !report.products.isEmpty else { return output + "no products\n" }
        output += "\n"

        // Product ids, locales and keys come from the content tree: shown as terminal text.
        let ids = report.products.map { TerminalText.escaped($0.product) }
        let locales = report.locales.map(TerminalText.escaped)
        var labels = CoverageWording.shortProductLabels(ids)
        let numbered = labels.contains { $0.count > longestProductLabel }
        if numbered { labels = ids.indices.map { "P\($0 + 1)" } }
        let labelWidth = max((labels + ["total"]).map(\.count).max() ?? 0, "product".count)

        // Each locale column is as wide as its widest entry, the `!` marker included.
        func cellText(_ cell: CoverageCell?) -> String {
            guard let cell else { return "–" }
            return CoverageWording.fraction(cell.readyCount, of: cell.messageCount) + (cell.isDefaultReady ? "" : "!")
        }
        func totalText(_ tally: Tally) -> String { CoverageWording.percent(tally.ready, of: tally.messages) }
        var columnWidths: [Int] = []
        for (index, locale) in report.locales.enumerated() {
            var widest = locales[index].count
            for product in report.products {
                widest = max(widest, cellText(product.cells.first { $0.locale == locale }).count)
            }
            widest = max(widest, totalText(report.localeTotals[index].totals).count)
            columnWidths.append(widest)
        }
        let totalWidth = max("total".count, 4)

        // Blocks of locale columns that fit beside the product labels and the total column.
        var blocks: [[Int]] = []
        var current: [Int] = []
        var used = labelWidth + gap + totalWidth
        for index in report.locales.indices {
            let needed = columnWidths[index] + gap
            if !current.isEmpty && used + needed > options.width {
                blocks.append(current)
                current = []
                used = labelWidth + gap + totalWidth
            }
            current.append(index)
            used += needed
        }
        if !current.isEmpty { blocks.append(current) }

        for (blockIndex, block) in blocks.enumerated() {
            let isLast = blockIndex == blocks.count - 1
            var header = pad("product", labelWidth)
            for index in block { header += spaces(gap) + pad(locales[index], columnWidths[index]) }
            if isLast { header += spaces(gap) + padLeft("total", totalWidth) }
            output += paint.bold(trimTrailing(header)) + "\n"
            for (row, product) in report.products.enumerated() {
                var line = pad(labels[row], labelWidth)
                for index in block {
                    let cell = product.cells.first { $0.locale == report.locales[index] }
                    let text = padLeft(cellText(cell), columnWidths[index])
                    line += spaces(gap) + paint.status(cell?.status, text)
                }
                if isLast { line += spaces(gap) + padLeft(totalText(product.totals), totalWidth) }
                output += trimTrailing(line) + "\n"
            }
            var totals = pad("total", labelWidth)
            for index in block { totals += spaces(gap) + padLeft(totalText(report.localeTotals[index].totals), columnWidths[index]) }
            if isLast { totals += spaces(gap) + padLeft(totalText(report.totals), totalWidth) }
            output += paint.bold(trimTrailing(totals)) + "\n"
            if !isLast { output += "\n" }
        }

        output += "\n"
        let legend = [
            paint.status(.complete, "5/5") + " every message ready",
            paint.status(.partial, "4/5") + " default ready, not every message",
            paint.status(.withoutDefault, "4/5!") + " default message not ready",
            "– not sold there",
        ]
        output += wrap("legend: " + legend.joined(separator: " · "), width: options.width, indent: 8, visibleWidth: visibleCount) + "\n"
        if labels != ids {
            let names = zip(labels, ids).map { "\($0.0) = \($0.1)" }
            output += wrap("products: " + names.joined(separator: ", "), width: options.width, indent: 10, visibleWidth: visibleCount) + "\n"
        }

        // One listing per kind: the messages not ready, then those shipping a previous translation.
        func listing(_ title: String, _ messages: (CoverageCell) -> [(key: String, isDefault: Bool, why: String)]) {
            let cells = report.products.enumerated().flatMap { row, product in
                product.cells.map { (label: labels[row], locale: $0.locale, messages: messages($0)) }.filter { !$0.messages.isEmpty }
            }
            guard !cells.isEmpty else { return }
            output += "\n" + paint.bold("\(title) (\(cells.reduce(0) { $0 + $1.messages.count })):") + "\n"
            for cell in cells {
                output += wrap("\(cell.label) · \(TerminalText.escaped(cell.locale))", width: options.width, indent: 2, visibleWidth: visibleCount) + "\n"
                for message in cell.messages {
                    let name = TerminalText.escaped(message.key) + (message.isDefault ? " (default)" : "")
                    // Reasons quote translations, image file names and states from a state file.
                    let line = "  \(name): \(TerminalText.escaped(message.why))"
                    output += wrap(line, width: options.width, indent: 6, visibleWidth: visibleCount) + "\n"
                }
            }
        }
        listing("not ready") { $0.notReady.map { ($0.key, $0.isDefault, CoverageWording.describe($0)) } }
        listing("shipping a previous translation") { $0.previousTranslation.map { ($0.key, $0.isDefault, CoverageWording.describe($0)) } }
        return output
    }

    private static func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
    private static func pad(_ text: String, _ width: Int) -> String { text + spaces(max(0, width - text.count)) }
    private static func padLeft(_ text: String, _ width: Int) -> String { spaces(max(0, width - text.count)) + text }

    private static func trimTrailing(_ text: String) -> String {
        var result = text
        while result.hasSuffix(" ") { result.removeLast() }
        return result
    }

    /// Characters a terminal shows, not counting colour escapes.
    static func visibleCount(_ text: String) -> Int {
        var count = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }

    /// Breaks `text` at spaces so that no line is wider than `width`, continuing lines with
    /// `indent` spaces. A word longer than a line (an identifier) is broken where it must be.
    static func wrap(_ text: String, width: Int, indent: Int, visibleWidth: (String) -> Int) -> String {
        let leading = String(text.prefix { $0 == " " })
        var lines: [String] = []
        var line = leading
        for word in text.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line == leading ? line + word : line + " " + word
            if visibleWidth(candidate) <= width || line.allSatisfy({ $0 == " " }) {
                line = candidate
                continue
            }
            lines.append(line)
            line = spaces(indent) + word
        }
        lines.append(line)
        var result: [String] = []
        for var current in lines {
            while visibleWidth(current) > width, current.count > width {
                result.append(String(current.prefix(width)))
                current = spaces(indent) + current.dropFirst(width)
            }
            result.append(current)
        }
        return result.map(trimTrailing).joined(separator: "\n")
    }

    /// ANSI colours, or nothing when colour is off.
    struct Paint {
        var enabled: Bool

        func apply(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func bold(_ text: String) -> String { apply("1", text) }
        func red(_ text: String) -> String { apply("31", text) }

        func status(_ status: CoverageCell.Status?, _ text: String) -> String {
            switch status {
            case .complete: apply("32", text)
            case .partial: apply("33", text)
            case .withoutDefault: apply("1;31", text)
            case nil: apply("2", text)
            }
        }
    }
}
