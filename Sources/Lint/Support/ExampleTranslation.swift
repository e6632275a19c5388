/// XLIFF files for rule examples: the German translation of the example harness's base message
/// (`com.example.news.premium.yearly/winback`), with some targets replaced.
enum ExampleTranslation {
    static let germanTargets: [(id: String, source: String, target: String)] = [
        ("header", "Stay with Premium", "Bleiben Sie bei Premium"),
        ("body", "Keep your yearly plan and save 50% on your next renewal.",
         "Behalten Sie Ihr Jahresabo und sparen Sie 50 % bei der nächsten Verlängerung."),
        ("image.alt", "Readers with the morning edition", "Leserinnen und Leser mit der Morgenausgabe"),
        ("bullets.1.text", "Unlimited articles", "Unbegrenzt viele Artikel"),
        ("bullets.1.alt", "Check mark", "Häkchen"),
    ]

    /// `translations/de-DE.xliff` as XLIFF 1.2, with the targets in `overrides` (by field id)
    /// written as given, `⟦⟧` markers included.
    static func german(_ overrides: [String: String]) -> [String: String] {
        var units = ""
        for (id, source, target) in germanTargets {
            units += """
                      <trans-unit id="com.example.news.premium.yearly/winback/\(id)">
                        <source>\(source)</source>
                        <target state="translated">\(overrides[id] ?? target)</target>
                      </trans-unit>

                """
        }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="messages" source-language="en-US" target-language="de-DE" datatype="plaintext">
                <body>
            \(units)    </body>
              </file>
            </xliff>

            """
        return ["translations/de-DE.xliff": text]
    }
}
