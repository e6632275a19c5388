import CommandLineSupport
import Diagnostics
import Foundation
import Model
import XLIFF

/// What `msgc extract` says on standard error about the work in the locale's file.
enum ExtractionReport {
    /// Says on standard error what a written file carries from the locale's file and, always
    /// (even with --quiet or to standard output), each unit with work that it does not: kept
    /// in `orphansFile`, or left in the locale's file when that is not replaced.
    static func write(
        _ extraction: XLIFFExport.Extraction, pathPrefix: String, orphansKeptIn orphansFile: String?, replacing: Bool, quiet: Bool
    ) throws(OutputFailure) {
        guard let usedFile = extraction.usedFile else { return }
        let shown = pathPrefix + usedFile
        if replacing && !quiet {
            var parts = ["\(extraction.translationsKept) translation\(extraction.translationsKept == 1 ? "" : "s")"]
            var details: [String] = []
            if extraction.approvedKept > 0 { details.append("\(extraction.approvedKept) approved") }
            if extraction.staleKept > 0 { details.append("\(extraction.staleKept) stale, written back as needing translation") }
            if extraction.markupRemoved > 0 {
                details.append("\(extraction.markupRemoved) with inline markup removed, written back as needing translation")
            }
            if !details.isEmpty { parts[0] += " (" + details.joined(separator: "; ") + ")" }
            if extraction.notesKept > 0 { parts.append("\(extraction.notesKept) translator note\(extraction.notesKept == 1 ? "" : "s")") }
            if extraction.candidatesKept > 0 {
                parts.append("\(extraction.candidatesKept) candidate\(extraction.candidatesKept == 1 ? "" : "s") (alt-trans/matches)")
            }
            try Output.error("carried over from '\(shown)': " + parts.joined(separator: ", "))
        }
        guard !extraction.orphans.isEmpty else { return }
        let count = extraction.orphans.count
        let units = count == 1 ? "1 unit" : "\(count) units"
        if let orphansFile {
            try Output.error("warning: \(units) of '\(shown)' that no message has any more (renamed or removed) left the file; "
                + "their work is kept in '\(orphansFile)':")
        } else {
            try Output.error("warning: \(units) of '\(shown)' that no message has any more (renamed or removed) are not in this output; "
                + "'\(shown)' still holds them, and `--out \(shown)` keeps them in '\(shown).orphans':")
        }
        var offeredTo: [String: [String]] = [:]
        for (id, orphans) in extraction.suggestions { for orphan in orphans { offeredTo[orphan, default: []].append(id) } }
        // Each unit by name, up to a screenful: a file of thousands would bury everything else.
        let listed = 100
        for unit in extraction.orphans.prefix(listed) {
            var held: [String] = []
            if unit.target != nil { held.append(unit.isApproved ? "approved translation" : "translation") }
            if !unit.notes.isEmpty { held.append("\(unit.notes.count) note\(unit.notes.count == 1 ? "" : "s")") }
            if !unit.candidates.isEmpty { held.append("\(unit.candidates.count) candidate\(unit.candidates.count == 1 ? "" : "s")") }
            var line = "  \(unit.id.value): \(held.joined(separator: ", "))"
            if let targets = offeredTo[unit.id.value] {
                line += "; offered as a candidate to \(targets.sorted().joined(separator: ", ")) (the same source text)"
            }
            try Output.write(TerminalText.escaped(line) + "\n", to: .standardError)
        }
        if count > listed {
            try Output.write("  … and \(count - listed) more, every one in '\(TerminalText.escaped(orphansFile ?? shown))'\n", to: .standardError)
        }
    }
}
