import Model
import Testing

@Suite struct ProjectConfigTests {
    static func located(_ value: String) -> Located<String> {
        Located(value, at: SourceLocation(path: "msgc.yaml", line: 1, column: 1))
    }

    @Test func productLocalesFirstDeclarationOrTheProjects() {
        let config = ProjectConfig(
            bundleId: Self.located("com.example.news"), sourceLocale: Self.located("en-US"),
            locales: [Self.located("en-US"), Self.located("de-DE"), Self.located("fr-FR")],
            namespace: Self.located("1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b"),
            products: [
                ProductConfig(id: Self.located("p.yearly"), locales: [Self.located("de-DE"), Self.located("de-DE")]),
                ProductConfig(id: Self.located("p.monthly")),
                // A second declaration of an id: the first one counts.
                ProductConfig(id: Self.located("p.yearly"), locales: [Self.located("fr-FR")]),
            ])
        let table = ProductLocales(config)
        #expect(table["p.yearly"] == ["en-US", "de-DE"])
        #expect(table["p.monthly"] == ["en-US", "de-DE", "fr-FR"])
        // Undeclared products ship in the project's locales.
        for id in ["p.weekly", ""] {
            #expect(table[id] == ["en-US", "de-DE", "fr-FR"], "\(id)")
        }
    }
}
