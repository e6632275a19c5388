import Diagnostics
import Model

/// Finds a build that would ship more messages or images than Apple holds for one app.
///
/// `lint` counts what a build would ship. A build given `--state` also counts what Apple
/// already holds that the bundle does not use, through `capDiagnostics(messages:images:)`.
public struct TooManyUploads: LintRule {
    static let maxMessages = 2000
    static let maxImages = 2000

    public init() {}

    public static let info = RuleInfo(
        code: "PRJ006", name: "too-many-uploads", severity: .error,
        summary: "A build would ship more than 2,000 messages or 2,000 images.",
        rationale: "Apple holds at most 2,000 messages and 2,000 images per app and refuses further uploads (MaximumNumberOfMessagesReachedError). Each message counts once per locale it ships in; an image counts once per size it is used at. With --state, a build also counts what Apple holds that the bundle no longer uses (the manifest's `unreferenced`) and says how many there are. Since the build that fails writes nothing, make room from the bundle applied now: `msgc prune LIVE_BUNDLE --previous OLDER_BUNDLE…` deletes what those earlier releases uploaded, and `--all-unreferenced` is needed for uploads no earlier bundle made (another tool's, or a release whose bundle is lost).",
        examples: [.valid("default: true")])

    /// The cap findings for a build given `--state`: `messages` and `images` count what the
    /// bundle ships plus what Apple holds that the bundle does not use; `unreferencedMessages` and
    /// `unreferencedImages` count the latter, which is what `msgc prune` can free at most.
    public static func capDiagnostics(messages: Int, images: Int, unreferencedMessages: Int = 0, unreferencedImages: Int = 0) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let location = SourceLocation(path: ProjectConfig.fileName)
        let rule = TooManyUploads()
        // This build wrote nothing: prune works from the bundle applied now (the live one), and
        // deletes only what the bundles given to --previous uploaded; the rest needs
        // --all-unreferenced. What it can free is therefore not promised as a number.
        let fix = FixIt(
            "this build wrote nothing: run `msgc prune LIVE_BUNDLE --previous OLDER_BUNDLE…`, where LIVE_BUNDLE is the bundle applied now and OLDER_BUNDLE the releases before it (a dry run, then --confirm N); add --all-unreferenced for uploads no earlier bundle made; then fetch the state and build again, or ship fewer messages")
        func prune(_ count: Int, _ noun: String) -> String {
            count == 0 ? "" : "; Apple holds \(count) \(noun)\(count == 1 ? "" : "s") this build does not use: `msgc prune LIVE_BUNDLE --previous OLDER_BUNDLE…` deletes those that earlier releases uploaded, and only `--all-unreferenced` deletes the rest"
        }
        if messages > maxMessages {
            diagnostics.append(rule.diagnose(
                "Apple would hold \(messages) messages after this build (what it ships plus what Apple holds that it does not use); Apple holds at most \(maxMessages) per app\(prune(unreferencedMessages, "message"))",
                at: location, fixIts: [fix]))
        }
        if images > maxImages {
            diagnostics.append(rule.diagnose(
                "Apple would hold \(images) images after this build (what it ships plus what Apple holds that it does not use); Apple holds at most \(maxImages) per app\(prune(unreferencedImages, "image"))",
                at: location, fixIts: [fix]))
        }
        return diagnostics
    }

    public func check(_ context: LintContext) -> [Diagnostic] {
        // Whether a locale is a pseudo locale is decided once per locale, not once per message,
        // and candidates are read in place rather than copied out.
        // An image counts once per size it is used at: the same file as a full-size image and as
        // a bullet's icon counts twice.
        struct ImageUse: Hashable {
            var isBulletPoint: Bool
            var file: String
        }
        let candidates = context.localization.candidates
        var isPseudo: [String: Bool] = [:]
        // Candidates come a locale at a time: the last locale's answer serves the next.
        var last: (locale: String, isPseudo: Bool)?
        var shippedCount = 0
        var imageUses = Set<ImageUse>()
        for index in candidates.indices {
            let locale = candidates[index].locale
            let isPseudoLocale: Bool
            if let last, last.locale == locale {
                isPseudoLocale = last.isPseudo
            } else {
                isPseudoLocale = isPseudo[locale] ?? PseudoLocale.isPseudo(locale)
                isPseudo[locale] = isPseudoLocale
                last = (locale, isPseudoLocale)
            }
            guard !isPseudoLocale else { continue }
            shippedCount += 1
            if let file = candidates[index].message.image?.file?.value { imageUses.insert(ImageUse(isBulletPoint: false, file: file)) }
            for bullet in candidates[index].message.bullets {
                if let image = bullet.image?.value { imageUses.insert(ImageUse(isBulletPoint: true, file: image)) }
            }
        }
        var diagnostics: [Diagnostic] = []
        let location = SourceLocation(path: ProjectConfig.fileName)
        if shippedCount > Self.maxMessages {
            diagnostics.append(diagnose(
                "a build would ship \(shippedCount) messages; Apple holds at most \(Self.maxMessages) per app",
                at: location, fixIts: [FixIt("ship fewer messages or locales per product")]))
        }
        if imageUses.count > Self.maxImages {
            diagnostics.append(diagnose(
                "a build would ship \(imageUses.count) images; Apple holds at most \(Self.maxImages) per app", at: location))
        }
        return diagnostics
    }
}
