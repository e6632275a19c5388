/// The report as Markdown (GitHub's dialect): a section per experiment with its verdict in
/// bold, the details as a list and the arms as a table. Text from the data is escaped so that
/// it stays text: Markdown's punctuation gets a backslash, and `|` cannot end a cell.
public enum ExperimentMarkdownRenderer {
    public static func render(_ report: ExperimentReport) -> String {
        var lines = ["# Experiment report", ""]
        guard !report.experiments.isEmpty else {
            return (lines + ["No experiments: nobody was exposed to a weighted split."]).joined(separator: "\n") + "\n"
        }
        for experiment in report.experiments {
            lines.append("## " + escape(ReportRows.title(experiment)))
            lines.append("")
            lines.append("**" + escape(ReportRows.verdictLine(experiment)) + "**")
            lines.append("")
            lines += ReportRows.detailLines(experiment, settings: report.settings).map { "- " + escape($0) }
            lines.append("")
            lines.append("| " + ReportRows.columns.map { escape($0.title) }.joined(separator: " | ") + " |")
            lines.append("|" + ReportRows.columns.map { $0.alignment == .left ? " --- |" : " ---: |" }.joined())
            for arm in experiment.arms {
                lines.append("| " + ReportRows.cells(arm, best: experiment.best).map(escape).joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// ASCII punctuation Markdown may read as syntax, backslash-escaped; line breaks as spaces.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "#", "~", "!", "{", "}", "&":
                result += "\\"
                result.unicodeScalars.append(scalar)
            case "\n", "\r": result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
