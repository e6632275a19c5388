/// Files for rule examples: msgc.yaml variants, and XLIFF files holding the German translation of
/// the example harness's base message (`com.example.news.premium.yearly/winback`). Public for
/// the examples of the codes Compiler reports (the translator's report).
public enum ExampleFiles {
    public static let germanTargets: [(id: String, source: String, target: String)] = [
        ("header", "Stay with Premium", "Bleiben Sie bei Premium"),
        ("body", "Keep your yearly plan and save 50% on your next renewal.",
         "Behalten Sie Ihr Jahresabo und sparen Sie 50 % bei der nächsten Verlängerung."),
        ("image.alt", "Readers with the morning edition", "Leserinnen und Leser mit der Morgenausgabe"),
        ("bullets.1.text", "Unlimited articles", "Unbegrenzt viele Artikel"),
        ("bullets.1.alt", "Check mark", "Häkchen"),
    ]

    /// `translations/de-DE.xliff` as XLIFF 1.2, with the targets in `overrides` (by field id)
    /// written as given, `⟦⟧` markers included, and the sources in `sources` (for an example
    /// that changes the source text too).
    static func german(_ overrides: [String: String], sources: [String: String] = [:]) -> [String: String] {
        ["translations/de-DE.xliff": xliff(overrides, sources: sources)]
    }

    /// The German translation as XLIFF 1.2 text, with `targetLanguage` written as given: every
    /// field of `fields`, and `close` as the file's last line (where a marker may point).
    public static func xliff(
        _ overrides: [String: String] = [:], sources: [String: String] = [:], targetLanguage: String = "de-DE",
        fields: [(id: String, source: String, target: String)] = germanTargets, close: String = "</xliff>"
    ) -> String {
        var units = ""
        for (id, source, target) in fields {
            units += """
                      <trans-unit id="com.example.news.premium.yearly/winback/\(id)">
                        <source>\(sources[id] ?? source)</source>
                        <target state="translated">\(overrides[id] ?? target)</target>
                      </trans-unit>

                """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="messages" source-language="en-US" target-language="\(targetLanguage)" datatype="plaintext">
                <body>
            \(units)    </body>
              </file>
            \(close)

            """
    }

    /// `msgc.yaml` of the example harness's base tree with other locales.
    static func config(locales: String = "[en-US, de-DE]", sourceLocale: String = "en-US", extra: String? = nil) -> String {
        """
        bundleId: com.example.news
        sourceLocale: \(sourceLocale)
        locales: \(locales)
        \(extra.map { "extraLocales: \($0)\n" } ?? "")namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: com.example.news.premium.yearly

        """
    }
}
