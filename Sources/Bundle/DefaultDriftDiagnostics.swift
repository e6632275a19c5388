import Diagnostics

/// The findings of comparing the defaults Apple serves (a state file fetched with `--defaults`)
/// with the default configurations of a bundle.
extension StateDiagnostics {
    /// The example state with `defaults` listing these entries (each `"product", "locale", id-or-null`).
    static func exampleStateWithDefaults(_ entries: [String]) -> String {
        """
        {"environment": "production", "bundleId": "com.example.news", "messages": {"messageIdentifiers": [
          {"messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5", "messageState": "APPROVED"},
          {"messageIdentifier": "9861f026-1b97-599d-bd8b-5f48912c970f", "messageState": "APPROVED"}
        ]},
         "images": {"imageIdentifiers": []},
         "defaults": [
          \(entries.joined(separator: ",\n  "))
         ]}

        """
    }

    /// The example tree's msgc.yaml, its product marked where a stray default is reported.
    static func exampleConfig(marking: Bool) -> String {
        """
        bundleId: com.example.news
        sourceLocale: en-US
        locales: [en-US, de-DE]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: \(marking ? "⟦com.example.news.premium.yearly⟧" : "com.example.news.premium.yearly")

        """
    }

    public static let defaultDrift = RuleInfo(
        code: "STA009", name: "default-drift", severity: .warning,
        summary: "Apple serves another default message for a product and locale than this bundle configures.",
        rationale: "A state file fetched with `msgc state fetch --defaults` records the default Apple serves for each product and locale. When it is not the message this bundle configures there, either the bundle is not applied yet (apply re-points the default), or another tool or person changed it at Apple, and subscribers who cancel see a message the content tree does not hold. `msgc apply` configures the bundle's default again; find out who changed it first.",
        examples: [
            .invalidState(exampleStateWithDefaults([
                #"{"product": "com.example.news.premium.yearly", "locale": "en-US", "messageIdentifier": "9861f026-1b97-599d-bd8b-5f48912c970f"}"#,
            ]), extraFiles: exampleMessages(marking: "winback")),
            .validState(exampleStateWithDefaults([
                #"{"product": "com.example.news.premium.yearly", "locale": "en-US", "messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5"}"#,
            ]), extraFiles: exampleMessages()),
        ])

    public static let strayDefault = RuleInfo(
        code: "STA010", name: "stray-default", severity: .warning,
        summary: "Apple serves a default message for a product and locale this bundle no longer configures.",
        rationale: "A default stays at Apple until it is deleted: when a product or locale leaves the content tree, or its default message loses `default: true`, subscribers there keep seeing the old default, and its message cannot be deleted while Apple serves it. `msgc prune` deletes such defaults (counted in its `--confirm`), then the messages they served. A locale whose default message waits for its translation (the manifest's `notShipped`: untranslated, or a stale translation withheld) is different: Apple's current default is what subscribers there see until the translation comes back, so it is reported without sending you to prune.",
        examples: [
            .invalidState(exampleStateWithDefaults([
                #"{"product": "com.example.news.premium.yearly", "locale": "en-US", "messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5"}"#,
                #"{"product": "com.example.news.premium.yearly", "locale": "fr-FR", "messageIdentifier": "9861f026-1b97-599d-bd8b-5f48912c970f"}"#,
            ]), extraFiles: exampleMessages().merging(["msgc.yaml": exampleConfig(marking: true)]) { $1 }),
            .validState(exampleStateWithDefaults([
                #"{"product": "com.example.news.premium.yearly", "locale": "en-US", "messageIdentifier": "ea1a3351-d822-5c73-afc9-fce5155b48e5"}"#,
                #"{"product": "com.example.news.premium.yearly", "locale": "fr-FR", "messageIdentifier": null}"#,
            ]), extraFiles: exampleMessages().merging(["msgc.yaml": exampleConfig(marking: false)]) { $1 }),
        ])
}
