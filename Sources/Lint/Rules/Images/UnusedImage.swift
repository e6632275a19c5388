import Diagnostics
import Model

/// Finds PNG files under `images/` that no message uses.
///
/// Paths are compared after removing `.` segments and applying `..`, so `images/./hero.png`
/// uses `images/hero.png`.
struct UnusedImage: LintRule {
    static let info = RuleInfo(
        code: "IMG011", name: "unused-image", severity: .warning,
        summary: "An image file under images/ is not used by any message.",
        rationale: "An unused image is often a leftover from a renamed file, or the sign of a message that refers to the wrong file. msgc never uploads it.",
        examples: [
            .valid("image: { file: images/hero.png, alt: Readers with the morning edition }"),
            .invalid(
                "image: { file: images/hero.png, alt: Readers with the morning edition }",
                images: ["⟦images/old-hero.png⟧": .png(width: 3840, height: 160)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        let used = Set(context.imageUses.compactMap { Self.normalized($0.file.value) })
        let broken = BrokenSourceShadow(context.catalog)
        return context.catalog.imageFilesOnDisk.compactMap { path in
            // An image a source with errors names may be in use: never "delete the file".
            guard !used.contains(path), !broken.mentions(path) else { return nil }
            return diagnose(
                "image '\(path)' is not used by any message", at: SourceLocation(path: path),
                fixIts: [FixIt("delete the file, or refer to it from a message")])
        }
    }

    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
