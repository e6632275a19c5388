import Diagnostics
import Model

/// Finds image references that do not lead to a readable file inside the content tree.
struct ImageFileNotFound: LintRule {
    static let info = RuleInfo(
        code: "IMG001", name: "image-file-not-found", severity: .error,
        summary: "A referenced image is missing, unreadable or outside the content tree.",
        rationale: "Every image is uploaded from the content tree. A path that leads nowhere, or out of the tree (with `..`, an absolute path or a symbolic link), would make the bundle depend on files nobody reviews.",
        examples: [
            .valid("image: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid("image: { file: ⟦images/missing.png⟧, alt: Readers with the morning edition }"),
            .invalid("image: { file: ⟦../secrets.png⟧, alt: Readers with the morning edition }"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for message in context.catalog.messages {
            var references: [Located<String>] = []
            if let file = message.image?.file { references.append(file) }
            references += message.bullets.compactMap(\.image)
            for reference in references {
                guard let problem = context.catalog.images[reference.value]?.problem else { continue }
                let text: String
                var fixIts: [FixIt] = []
                switch problem {
                case .missing:
                    text = "image '\(reference.value)' does not exist in the content tree"
                    if let near = Self.nearest(to: reference.value, among: context.catalog.imageFilesOnDisk) {
                        fixIts.append(FixIt("did you mean '\(near)'?", edits: [.init(location: reference.valueSpan, replacement: near)]))
                    } else {
                        fixIts.append(FixIt("add the PNG at '\(reference.value)' or correct the path"))
                    }
                case .outsideContentTree:
                    text = "image path '\(reference.value)' leads outside the content tree"
                    fixIts.append(FixIt("copy the image into images/ and refer to it as 'images/NAME.png'"))
                case .unreadable(let reason):
                    text = "image '\(reference.value)' cannot be read: \(reason)"
                case .tooLarge(let byteCount):
                    text = "image '\(reference.value)' has \(byteCount) bytes; msgc reads at most \(ContentLimits.maxImageBytes)"
                }
                diagnostics.append(diagnose(text, at: reference.valueSpan, fixIts: fixIts, subject: message.subject))
            }
        }
        return diagnostics
    }

    /// The file under `images/` that `path` names with another case, `_` for `-` (or back), or
    /// a typo of one or two characters (`images/streak_hero.png` for `images/Streak-Hero.png`):
    /// the nearest, when only one is that near.
    static func nearest(to path: String, among files: [String]) -> String? {
        func folded(_ text: String) -> String { String(text.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 }) }
        let wanted = folded(path)
        let same = files.filter { folded($0) == wanted }
        if same.count == 1 { return same[0] }
        guard same.isEmpty else { return nil }
        let near = files.map { ($0, editDistance(folded($0), wanted)) }.filter { $0.1 <= 2 }
        guard let best = near.min(by: { $0.1 < $1.1 }), near.filter({ $0.1 == best.1 }).count == 1 else { return nil }
        return best.0
    }
}
