import Diagnostics

/// The report as text for a terminal: per experiment its title, verdict and details, then one
/// aligned row per arm (numbers to the right). Every text from the data goes through
/// `TerminalText.escaped`, so a product or message key cannot move the cursor or hide lines.
public enum ExperimentTableRenderer {
    public static func render(_ report: ExperimentReport) -> String {
        guard !report.experiments.isEmpty else { return "no experiments: nobody was exposed to a weighted split\n" }
        var blocks: [String] = []
        for experiment in report.experiments {
            var lines = [TerminalText.escaped(ReportRows.title(experiment)), TerminalText.escaped(ReportRows.verdictLine(experiment))]
            lines += ReportRows.detailLines(experiment, settings: report.settings)
            lines.append("")
            let rows = [ReportRows.columns.map(\.title)]
                + experiment.arms.map { ReportRows.cells($0, best: experiment.best).map(TerminalText.escaped) }
            lines += align(rows)
            blocks.append(lines.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// Pads each column to its widest cell, in characters, two spaces apart; no trailing spaces.
    static func align(_ rows: [[String]]) -> [String] {
        let widths = ReportRows.columns.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column > 0 { line += "  " }
                line += ReportRows.columns[column].alignment == .left ? cell + padding : padding + cell
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
