import Model

/// Finds a build that would ship more messages or images than Apple holds for one app.
struct TooManyUploads: LintRule {
    static let maxMessages = 2000
    static let maxImages = 2000

    static let info = RuleInfo(
        code: "PRJ006", name: "too-many-uploads", severity: .error,
        summary: "A build would ship more than 2,000 messages or 2,000 images.",
        rationale: "Apple holds at most 2,000 messages and 2,000 images per app and refuses further uploads (MaximumNumberOfMessagesReachedError). Each message counts once per locale it ships in; an image counts once per size it is used at.",
        examples: [.valid("default: true")])

    func check(_ context: LintContext) -> [Diagnostic] {
        let shipped = context.localization.candidates
        var imageUses = Set<String>()
        for localized in shipped {
            if let file = localized.message.image?.file?.value { imageUses.insert("FULL_SIZE \(file)") }
            for bullet in localized.message.bullets { if let image = bullet.image?.value { imageUses.insert("BULLET_POINT \(image)") } }
        }
        var diagnostics: [Diagnostic] = []
        let location = SourceLocation(path: ProjectConfig.fileName)
        if shipped.count > Self.maxMessages {
            diagnostics.append(diagnose(
                "a build would ship \(shipped.count) messages; Apple holds at most \(Self.maxMessages) per app",
                at: location, fixIts: [FixIt("ship fewer messages or locales per product")]))
        }
        if imageUses.count > Self.maxImages {
            diagnostics.append(diagnose(
                "a build would ship \(imageUses.count) images; Apple holds at most \(Self.maxImages) per app", at: location))
        }
        return diagnostics
    }
}
