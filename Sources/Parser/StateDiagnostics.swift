import Diagnostics
import Model

/// The findings about Apple's state: a state file msgc cannot use, and what a build learns by
/// comparing its bundle with what Apple holds (docs/formats.md, "The state file").
public enum StateDiagnostics {
    /// The message source of the state examples: a default message and one other, whose
    /// identifiers (production, the example namespace) the example state files list.
    static func exampleMessages(marking key: String? = nil) -> [String: String] {
        func keyLine(_ name: String) -> String { name == key ? "⟦key⟧: \(name)" : "key: \(name)" }
        return ["messages/example.yaml": """
            messages:
              - \(keyLine("winback"))
                product: com.example.news.premium.yearly
                type: text
                default: true
                header: Stay with Premium
                body: Keep reading without limits.
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
        {"messages": {"messageIdentifiers": [
          {"messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5", "messageState": \(winback)},
          {"messageIdentifier": "9861f026-1b97-599d-bd8b-5f48912c970f", "messageState": \(lastChance)}
        ]},
         "images": {"imageIdentifiers": []}}

        """
    }

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

    /// Every state code, alphabetized by code.
    public static let all: [RuleInfo] = [invalidStateFile, rejectedAtApple, defaultDeferred]
}
