import Diagnostics
import Model

/// Finds two files of the content tree whose paths differ only in case or in Unicode
/// normalization (`messages/Winback.yaml`, `messages/winback.yaml`).
///
/// Linux keeps both. macOS and Windows file systems ignore the difference by default, so a
/// checkout there holds only one of them, and the same commit builds different bundles on
/// different machines, without a word.
struct FileNamesDifferingOnlyInCase: LintRule {
    static let info = RuleInfo(
        code: "PRJ007", name: "file-names-differ-only-in-case", severity: .error,
        summary: "Two files of the content tree have paths that differ only in case or Unicode normalization.",
        rationale: "macOS and Windows ignore case (and macOS Unicode normalization) in file names by default: a checkout there keeps only one of the two files, so the same commit builds differently there than on Linux. Rename one of them.",
        examples: [
            .valid("key: winback"),
            .invalid("key: winback", extraFiles: [
                "messages/Extra.yaml": "messages: []\n",
                "⟦messages/extra.yaml⟧": "messages: []\n",
            ]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let catalog = context.catalog
        // Lists, not a set: String's equality is canonical equivalence, so a set would hold
        // the NFC and NFD spellings of one name as one. For the same reason they are one key
        // of `first`. Bytewise order makes the first of each pair the same on every machine.
        let paths = catalog.sourceFilesOnDisk + catalog.translationFiles.map(\.path) + catalog.imageFilesOnDisk
        var first: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        for path in paths.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let key = path.lowercased()
            guard let earlier = first[key] else {
                first[key] = path
                continue
            }
            diagnostics.append(diagnose(
                "'\(path)' and '\(earlier)' differ only in case or Unicode normalization; on macOS and Windows one replaces the other",
                at: SourceLocation(path: path), notes: [Note("the other file", at: SourceLocation(path: earlier))],
                fixIts: [FixIt("rename one of them")]))
        }
        return diagnostics
    }
}
