import Diagnostics

/// The coverage report as GitHub-flavoured Markdown, for a pull-request comment: the matrix,
/// a legend, and the reasons for every message that is not ready in a collapsed section.
///
/// Text from the content tree is escaped for table cells: `|`, and `<`, `>`, `&` (GitHub
/// renders HTML inside Markdown), and backslashes and backticks are neutralised. Controls and
/// invisible characters are first written as `<U+001B>`, as in the terminal: a line break would
/// end the table row, and an escape sequence would reach whoever reads the file in a terminal.
public enum CoverageMarkdownRenderer {
    public static func render(_ report: CoverageReport) -> String {
        var output = "## Retention message coverage\n\n"
        output += "**\(CoverageWording.headline(report))** · \(escape(CoverageWording.scope(report)))\n"
        if let note = CoverageWording.blockingNote(report) { output += "\n> [!WARNING]\n> \(escape(note))\n" }
        guard !report.products.isEmpty else { return output + "\nNo products.\n" }

        output += "\n| product | " + report.locales.map(escape).joined(separator: " | ") + " | total |\n"
        output += "| --- |" + String(repeating: " ---: |", count: report.locales.count) + " ---: |\n"
        for product in report.products {
            var row = "| \(code(product.product)) |"
            for locale in report.locales {
                row += " " + cellText(product.cells.first { $0.locale == locale }) + " |"
            }
            row += " \(CoverageWording.percent(product.totals.ready, of: product.totals.messages)) |"
            output += row + "\n"
        }
        var totals = "| **total** |"
        for total in report.localeTotals {
            totals += " \(CoverageWording.percent(total.totals.ready, of: total.totals.messages)) |"
        }
        output += totals + " **\(CoverageWording.percent(report.totals.ready, of: report.totals.messages))** |\n"
        output += "\n✅ every message ready · 🟡 default ready, not every message · 🔴 default message not ready · — not sold there\n"

        // One folded table per kind: the messages not ready, then those shipping a previous translation.
        func listing(_ title: String, _ messages: (CoverageCell) -> [(key: String, isDefault: Bool, why: String)]) {
            let rows = report.products.flatMap { product in
                product.cells.flatMap { cell in messages(cell).map { (product: product.product, locale: cell.locale, message: $0) } }
            }
            guard !rows.isEmpty else { return }
            output += "\n<details>\n<summary>\(title) (\(rows.count))</summary>\n\n"
            output += "| product | locale | message | why |\n| --- | --- | --- | --- |\n"
            for item in rows {
                let name = code(item.message.key) + (item.message.isDefault ? " (default)" : "")
                output += "| \(code(item.product)) | \(escape(item.locale)) | \(name) | \(escape(item.message.why)) |\n"
            }
            output += "\n</details>\n"
        }
        listing("Not ready") { $0.notReady.map { ($0.key, $0.isDefault, CoverageWording.describe($0)) } }
        listing("Shipping a previous translation") { $0.previousTranslation.map { ($0.key, $0.isDefault, CoverageWording.describe($0)) } }
        return output
    }

    static func cellText(_ cell: CoverageCell?) -> String {
        guard let cell else { return "—" }
        let marker = switch cell.status {
        case .complete: "✅"
        case .partial: "🟡"
        case .withoutDefault: "🔴"
        }
        return "\(marker) \(CoverageWording.fraction(cell.readyCount, of: cell.messageCount))"
    }

    /// Text safe in a table cell.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in TerminalText.escaped(text) {
            switch character {
            case "|": result += "\\|"
            case "\\": result += "\\\\"
            case "`": result += "\\`"
            case "*": result += "\\*"
            case "_": result += "\\_"
            case "[": result += "\\["
            case "]": result += "\\]"
            case "~": result += "\\~"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            default: result.append(character)
            }
        }
        return result
    }

    /// An identifier as inline code, or escaped text when it holds characters a code span cannot.
    static func code(_ text: String) -> String {
        let unsafe: Set<Character> = ["`", "|", "<", ">", "&", "\\"]
        return TerminalText.containsHazard(text) || text.contains(where: { unsafe.contains($0) }) ? escape(text) : "`\(text)`"
    }
}
