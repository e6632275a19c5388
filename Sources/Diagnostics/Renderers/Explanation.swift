import Foundation

/// The text `msgc explain CODE` prints for one rule, read from its `RuleInfo`.
public enum Explanation {
    /// The list `msgc explain` prints without a code: one line per rule with its code,
    /// severity, full name and summary. The name column is as wide as the longest name, so
    /// every name can be copied back into `msgc explain NAME`.
    public static func catalog(_ infos: [RuleInfo]) -> String {
        let severityWidth = infos.map(\.severity.rawValue.count).max() ?? 0
        let nameWidth = infos.map(\.name.count).max() ?? 0
        var output = ""
        for info in infos {
            let severity = info.severity.rawValue.padding(toLength: severityWidth, withPad: " ", startingAt: 0)
            let name = info.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            output += "\(info.code)  \(severity)  \(name)  \(info.summary)\n"
        }
        return output
    }

    public static func text(for info: RuleInfo) -> String {
        var output = "\(info.code) \(info.name) (\(info.severity.rawValue))\n\n\(info.summary)\n\n\(wrap(info.rationale))\n"
        let invalid = info.examples.filter { $0.kind == .invalid }
        let valid = info.examples.filter { $0.kind == .valid }
        if !invalid.isEmpty {
            output += "\nTriggers it:\n"
            for example in invalid { output += show(example) }
        }
        if !valid.isEmpty {
            output += "\nDoes not trigger it:\n"
            for example in valid { output += show(example) }
        }
        output += "\nSettings:\n"
        if info.mayBeLowered {
            let other = info.severity == .error ? "warning" : "error"
            output += wrap("May be turned off or changed in msgc.yaml: `rules: {\(info.code): off}` or `{\(info.code): \(other)}`.") + "\n"
        } else {
            output += wrap("Cannot be turned off or lowered in msgc.yaml: it finds what Apple refuses or what msgc cannot read past.") + "\n"
        }
        return output
    }

    private static func show(_ example: RuleExample) -> String {
        let note = example.isMessageFragment ? " (in a message)" : example.isStateFile ? " (given to msgc build --environment production --state)" : ""
        // An example made only of special files (a link, an oversized file) shows them alone.
        var output = example.text.isEmpty ? "\n" : "\n  # \(example.path)\(note)\n" + indented(example.text)
        for path in example.extraFiles.keys.sorted() {
            output += "  # \(unmarked(path))\n" + indented(example.extraFiles[path]!)
        }
        for path in example.images.keys.sorted() {
            output += "  # \(unmarked(path)): \(example.images[path]!.description)\n"
        }
        for path in example.specialFiles.keys.sorted() {
            output += "  # \(unmarked(path)): \(example.specialFiles[path]!.description)\n"
        }
        return output
    }

    private static func indented(_ text: String) -> String {
        var output = ""
        for line in unmarked(text).split(separator: "\n", omittingEmptySubsequences: false) {
            output += line.isEmpty ? "\n" : "  \(line)\n"
        }
        return output
    }

    private static func unmarked(_ text: String) -> String {
        text.replacingOccurrences(of: "⟦", with: "").replacingOccurrences(of: "⟧", with: "")
    }

    /// Wraps prose at 88 columns for a terminal.
    static func wrap(_ text: String, width: Int = 88) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = String(word)
            } else {
                current += current.isEmpty ? String(word) : " " + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }
}
