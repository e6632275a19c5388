import Diagnostics

/// The findings about Apple's state: a state file msgc cannot use, and what a build learns by
/// comparing its bundle with what Apple holds (docs/formats.md, "The state file").
public enum StateDiagnostics {
    /// The message source of the state examples: a default message and one other, whose
    /// identifiers (production, the example namespace) the example state files list.
    static func exampleMessages(marking key: String? = nil, withImage: Bool = false, markingImage: Bool = false) -> [String: String] {
        func keyLine(_ name: String) -> String { name == key ? "⟦key⟧: \(name)" : "key: \(name)" }
        let image = withImage ? "\n    image: { file: \(markingImage ? "⟦images/hero.png⟧" : "images/hero.png"), alt: Readers with the morning edition }" : ""
        return ["messages/example.yaml": """
            messages:
              - \(keyLine("winback"))
                product: com.example.news.premium.yearly
                type: text
                default: true
                header: Stay with Premium
                body: Keep reading without limits.\(image)
              - \(keyLine("last-chance"))
                product: com.example.news.premium.yearly
                type: text
                header: Before you go
                body: Half price for a year, today only.
            """]
    }

    /// A state file listing the example messages (winback, then last-chance) in these states.
    static func exampleState(winback: String, lastChance: String) -> String {
        """
        {"environment": "production", "bundleId": "com.example.news", "messages": {"messageIdentifiers": [
          {"messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5", "messageState": \(winback)},
          {"messageIdentifier": "9861f026-1b97-599d-bd8b-5f48912c970f", "messageState": \(lastChance)}
        ]},
         "images": {"imageIdentifiers": []}}

        """
    }

    /// The identifiers of the example tree's images/hero.png as a FULL_SIZE upload, and of the
    /// winback message that shows it (production, the example namespace).
    static let exampleImageIdentifier = "8f5f329e-1468-5e3c-b08c-c185476ddcf2"
    static let exampleImageMessageIdentifier = "fb9c1385-1637-5bf0-8ad2-04b06d91fe07"

    public static let invalidStateFile = RuleInfo(
        code: "STA001", name: "invalid-state-file", severity: .error,
        summary: "The file given to --state is not valid JSON or not shaped like Apple's message and image lists.",
        rationale: "The state file tells msgc what Apple already holds and what it has approved. A file msgc cannot read completely must not be half-used: a missing entry would look like content Apple has never seen, and a misread state could point a production default at unapproved content. msgc stops with exit status 2, names the line and column, and writes nothing.",
        examples: [
            .invalidState(exampleState(winback: "\"APPROVED\"", lastChance: "⟦7⟧"), extraFiles: exampleMessages()),
            .validState(exampleState(winback: "\"APPROVED\"", lastChance: "\"PENDING\""), extraFiles: exampleMessages()),
        ])

    public static let rejectedAtApple = RuleInfo(
        code: "STA002", name: "rejected-at-apple", severity: .warning,
        summary: "Apple has rejected a message or image that this bundle still uses.",
        rationale: "Apple's messages and images are immutable, so a rejected upload never becomes approved. Its content must change, which gives it a new identifier that can be uploaded and reviewed again; until then the message cannot be shown, and no default configuration can point at it in production.",
        examples: [
            .invalidState(exampleState(winback: "\"APPROVED\"", lastChance: "\"REJECTED\""), extraFiles: exampleMessages(marking: "last-chance")),
            .validState(exampleState(winback: "\"APPROVED\"", lastChance: "\"PENDING\""), extraFiles: exampleMessages()),
        ])

    public static let defaultDeferred = RuleInfo(
        code: "STA003", name: "default-configuration-deferred", severity: .warning,
        summary: "A production default configuration waits for its message or images to be approved.",
        rationale: "Apple refuses a default configuration whose message or images are not APPROVED, and a production default that points at unapproved content is exactly what must never happen. With --state, msgc moves such a configuration from `operations` to `deferred` in the manifest, with the reason; build again once Apple has approved the content. `--strict` turns a deferral into a failed build.",
        examples: [
            .invalidState(exampleState(winback: "\"PENDING\"", lastChance: "\"APPROVED\""), extraFiles: exampleMessages(marking: "winback")),
            .validState(exampleState(winback: "\"APPROVED\"", lastChance: "\"PENDING\""), extraFiles: exampleMessages()),
        ])

    public static let unusableIdentifier = RuleInfo(
        code: "STA004", name: "unusable-state-identifier", severity: .warning,
        summary: "An entry of the state file has no identifier, or one that is not a UUID; msgc ignores it.",
        rationale: "Apple lists every upload under the UUID it was uploaded with, and msgc puts identifiers into request paths and into the manifest's `unreferenced` list, where a clean-up script may act on them. An identifier that is not a UUID (`../default/PRODUCT/en-US`, say) did not come from Apple's answer unchanged, so msgc never uses it: the entry is left out, as if Apple had not listed it, and the rest of the file is used.",
        examples: [
            .invalidState("""
                {"environment": "production", "bundleId": "com.example.news", "messages": {"messageIdentifiers": [
                  {"messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5", "messageState": "APPROVED"},
                  {"messageIdentifier": ⟦"../default/com.example.news.premium.yearly/en-US"⟧, "messageState": "APPROVED"}
                ]},
                 "images": {"imageIdentifiers": []}}

                """, extraFiles: exampleMessages()),
            .validState(exampleState(winback: "\"APPROVED\"", lastChance: "\"PENDING\""), extraFiles: exampleMessages()),
        ])

    public static let imageSizeContradiction = RuleInfo(
        code: "STA005", name: "image-size-contradiction", severity: .warning,
        summary: "Apple lists an image of this bundle with another imageSize than the bundle uploads it with.",
        rationale: "msgc derives an image's identifier from its bytes and its size class, so Apple holding that identifier with another `imageSize` means it was uploaded some other way. Apple may then refuse a message that uses it in a slot of the other size. An image Apple lists without `imageSize` (uploaded before API 1.4) has a size Apple did not say, and is no contradiction.",
        examples: [
            .invalidState("""
                {"environment": "production", "bundleId": "com.example.news", "messages": {"messageIdentifiers": [
                  {"messageIdentifier": "\(exampleImageMessageIdentifier)", "messageState": "APPROVED"}
                ]},
                 "images": {"imageIdentifiers": [
                  {"imageIdentifier": "\(exampleImageIdentifier)", "imageState": "APPROVED", "imageSize": "BULLET_POINT"}
                ]}}

                """, extraFiles: exampleMessages(withImage: true, markingImage: true)),
            .validState("""
                {"environment": "production", "bundleId": "com.example.news", "messages": {"messageIdentifiers": [
                  {"messageIdentifier": "\(exampleImageMessageIdentifier)", "messageState": "APPROVED"}
                ]},
                 "images": {"imageIdentifiers": [
                  {"imageIdentifier": "\(exampleImageIdentifier)", "imageState": "APPROVED"}
                ]}}

                """, extraFiles: exampleMessages(withImage: true)),
        ])

    public static let stateWithoutOrigin = RuleInfo(
        code: "STA011", name: "state-file-without-origin", severity: .warning,
        summary: "The state file does not say which environment and app it describes.",
        rationale: "A state file lists what Apple holds in one environment for one app. `msgc state fetch` records both (and when it read them), and `build`, `coverage`, `realtime snapshot` and `prune` refuse a state file of another environment or app with exit status 2: a sandbox state in a production build would call unapproved content present and approved content missing. A file written before msgc recorded them cannot be checked; msgc uses it as before and says so. Fetch it again.",
        examples: [
            .invalidState("""
                ⟦{⟧"messages": {"messageIdentifiers": [
                  {"messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5", "messageState": "APPROVED"}
                ]},
                 "images": {"imageIdentifiers": []}}

                """, extraFiles: exampleMessages()),
            .validState(exampleState(winback: "\"APPROVED\"", lastChance: "\"APPROVED\""), extraFiles: exampleMessages()),
        ])

    /// Every state code, alphabetized by code.
    public static let all: [RuleInfo] = [
        invalidStateFile, rejectedAtApple, defaultDeferred, unusableIdentifier, imageSizeContradiction, defaultDrift, strayDefault,
        stateWithoutOrigin,
    ]
}
