/// The formats of `msgc realtime report --format`.
public enum ExperimentReportFormat: String, CaseIterable, Sendable {
    case table, json, markdown, html

    /// The report in this format: text ending with a newline.
    public func render(_ report: ExperimentReport) -> String {
        switch self {
        case .table: ExperimentTableRenderer.render(report)
        case .json: ExperimentJSONRenderer.render(report)
        case .markdown: ExperimentMarkdownRenderer.render(report)
        case .html: ExperimentHTMLRenderer.render(report)
        }
    }
}
