import Bundle
/// The words every coverage rendering uses for the same facts, so that the table, Markdown
/// and HTML say the same thing. Pure functions of report values.
public enum CoverageWording {
    /// `82%`, rounded down so that 100% means every message; `–` when there is nothing to count.
    public static func percent(_ ready: Int, of total: Int) -> String {
        guard total > 0 else { return "–" }
        return "\(ready * 100 / total)%"
    }

    /// `4/5`.
    public static func fraction(_ ready: Int, of total: Int) -> String { "\(ready)/\(total)" }

    /// One reason in a short sentence: `stale: header, body`.
    public static func describe(_ reason: CoverageReason) -> String {
        switch reason {
        case .missing(let fields):
            return fields.isEmpty ? "missing" : "missing: \(fields.joined(separator: ", "))"
        case .notTranslated(let fields, let states):
            return "not translated (\(states.joined(separator: ", "))): \(fields.joined(separator: ", "))"
        case .stale(let fields):
            return "stale: \(fields.joined(separator: ", "))"
        case .ambiguous(let fields):
            return "ambiguous (repeated units with different targets): \(fields.joined(separator: ", "))"
        case .belowMinimumState(let fields, let states):
            return "below minimumState (\(states.joined(separator: ", "))): \(fields.joined(separator: ", "))"
        case .failingRule(let code, let message):
            return "\(code): \(message)"
        case .rejected(let upload):
            return "REJECTED at Apple: \(describe(upload))"
        case .pending(let upload, let state):
            if let state { return "\(state) at Apple: \(describe(upload))" }
            return "not uploaded yet: \(describe(upload))"
        }
    }

    /// `message 0a1b…` or `image images/hero.png (0a1b…)`, with the whole identifier.
    public static func describe(_ upload: UploadReference) -> String {
        switch upload.kind {
        case .message: "message \(upload.identifier)"
        case .image: "image \(upload.imagePath ?? "") (\(upload.identifier))"
        }
    }

    /// A message that ships its previous translation: `previous translation: header (source changed; ships until updated)`.
    public static func describe(_ message: PreviousTranslationMessage) -> String {
        "previous translation: \(message.fields.joined(separator: ", ")) (the source changed; the old translation ships until it is updated)"
    }

    /// Every reason of a message, joined: `stale: header; LEN001: …`.
    public static func describe(_ message: NotReadyMessage) -> String {
        message.reasons.map { describe($0) }.joined(separator: "; ")
    }

    /// The headline: `37 of 45 messages ready (82%)`.
    public static func headline(_ report: CoverageReport) -> String {
        "\(report.totals.ready) of \(report.totals.messages) message\(report.totals.messages == 1 ? "" : "s") ready (\(percent(report.totals.ready, of: report.totals.messages)))"
    }

    /// What was compared: `production, review state from the state file`.
    public static func scope(_ report: CoverageReport) -> String {
        report.hasState
            ? "\(report.environment.rawValue), with review state at Apple from the state file"
            : "\(report.environment.rawValue), without review state (no --state)"
    }

    /// A warning line when the build is blocked whatever the matrix says; nil otherwise.
    public static func blockingNote(_ report: CoverageReport) -> String? {
        guard report.blockingErrorCount > 0 else { return nil }
        let count = report.blockingErrorCount
        return "\(count) error\(count == 1 ? "" : "s") in message sources or msgc.yaml stop every build; run `msgc lint`"
    }

    /// Product labels for narrow renderings: each id without the dotted prefix all ids share
    /// (`plus.yearly` for `com.example.parla.plus.yearly`), or the whole id when that would
    /// leave nothing or there is only one product.
    public static func shortProductLabels(_ ids: [String]) -> [String] {
        guard ids.count > 1 else { return ids }
        let split = ids.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        var shared = 0
        while split.allSatisfy({ $0.count > shared + 1 }), Set(split.map { $0[shared] }).count == 1 { shared += 1 }
        return split.map { $0.dropFirst(shared).joined(separator: ".") }
    }
}
