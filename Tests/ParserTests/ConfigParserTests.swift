import Diagnostics
import Foundation
import Model
@testable import Parser
import TestSupport
import Testing

@Suite struct ConfigParserTests {
    func parse(_ text: String) -> (ProjectConfig?, [Diagnostic]) {
        let (config, _, diagnostics) = ConfigParser.parse(bytes: Array(text.utf8))
        return (config, diagnostics)
    }

    @Test func readsEveryFieldWithLocations() throws {
        let (config, diagnostics) = parse("""
            bundleId: com.example.app
            sourceLocale: en-US
            locales: [en-US, de-DE, ja]
            extraLocales: [sl]
            namespace: 1B4E28BA-2FA1-4D3B-A3F5-EF19B5A7633B
            minimumState: reviewed
            lengthMeasure: graphemes
            products:
              - id: com.example.app.yearly
              - id: com.example.app.monthly
                locales: [en-US, de-DE]
            """)
        #expect(diagnostics.isEmpty)
        let parsed = try #require(config)
        #expect(parsed.bundleId.value == "com.example.app")
        #expect(parsed.bundleId.location == SourceLocation(path: "msgc.yaml", line: 1, column: 11))
        #expect(parsed.locales.map(\.value) == ["en-US", "de-DE", "ja"])
        #expect(parsed.locales[2].location.column == 25)
        #expect(parsed.minimumState == .reviewed)
        #expect(parsed.lengthMeasure == .graphemes)
        #expect(parsed.products[1].locales?.map(\.value) == ["en-US", "de-DE"])
        #expect(ProductLocales(parsed)["com.example.app.monthly"] == ["en-US", "de-DE"])
        #expect(ProductLocales(parsed)["com.example.app.yearly"] == ["en-US", "de-DE", "ja"])
    }

    @Test func unknownKeySuggestsTheNearestKnownOne() {
        let (_, diagnostics) = parse(TemporaryTree.config + "minimumStat: final\n")
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].code == "PRS003")
        #expect(diagnostics[0].message == "unknown key 'minimumStat' in msgc.yaml")
        #expect(diagnostics[0].location == SourceLocation(path: "msgc.yaml", line: 7, column: 1, endLine: 7, endColumn: 12))
        #expect(diagnostics[0].fixIts.first?.message == "did you mean 'minimumState'?")
    }

    @Test func crlfLocaleKeepsItsSpan() throws {
        let text = TemporaryTree.config.replacingOccurrences(of: "locales: [en-US, de-DE]", with: "locales: [en-US, ja-JP, \"EN-gb\"]")
        let (config, _) = parse(text.replacingOccurrences(of: "\n", with: "\r\n"))
        let locale = try #require(config?.locales.last)
        #expect(locale.valueSpan == SourceLocation(path: "msgc.yaml", line: 3, column: 26, endLine: 3, endColumn: 31))
    }

    @Test func valueOutsideItsSetIsAnError() {
        let (_, diagnostics) = parse(TemporaryTree.config + "lengthMeasure: characters\n")
        #expect(diagnostics.map(\.code) == ["PRS006"])
        #expect(diagnostics[0].message == "'lengthMeasure' must be one of graphemes, scalars, utf16, utf8, not 'characters'")
    }

    @Test func wrongTypeAndMissingFields() {
        let (config, diagnostics) = parse("""
            bundleId: [com.example.app]
            locales: en-US
            products: []
            """)
        #expect(config == nil)
        let codes = diagnostics.map(\.code).sorted()
        #expect(codes == ["CFG006", "PRS004", "PRS004", "PRS005", "PRS005"])
        #expect(diagnostics.contains { $0.message == "'bundleId' must be text, not a list" && $0.location.line == 1 })
        #expect(diagnostics.contains { $0.message == "msgc.yaml has no 'namespace'" })
    }

    /// libyaml gives no document at all for these, unlike `---` or `~`, which are a null document.
    @Test(arguments: ["", "\n  \n", "# msgc.yaml\n# filled in later\n"])
    func emptyFileIsMissingEveryField(_ text: String) {
        let (config, diagnostics) = parse(text)
        #expect(config == nil)
        #expect(diagnostics.map(\.code) == ["PRS005"])
        #expect(diagnostics.first?.message == "msgc.yaml is empty; it needs bundleId, sourceLocale, locales, namespace, products")
        #expect(diagnostics.first?.location == SourceLocation(path: "msgc.yaml", line: 1))
    }

    @Test func nullDocumentIsNotAMapping() {
        let (config, diagnostics) = parse("---\n")
        #expect(config == nil)
        #expect(diagnostics.map(\.code) == ["PRS004"])
    }

    @Test func namespaceMustBeAUUID() {
        let text = TemporaryTree.config.replacingOccurrences(of: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b", with: "not-a-uuid")
        let (_, diagnostics) = parse(text)
        #expect(diagnostics.map(\.code) == ["CFG002"])
        #expect(diagnostics[0].location == SourceLocation(path: "msgc.yaml", line: 4, column: 12, endLine: 4, endColumn: 22))
    }

    @Test func productIdsMustBePathSafe() {
        let (_, diagnostics) = parse(TemporaryTree.config + "  - id: com.example.app/monthly plan\n")
        #expect(diagnostics.map(\.code) == ["CFG003"])
    }

    @Test func sourceLocaleMustBeListed() {
        let text = TemporaryTree.config.replacingOccurrences(of: "sourceLocale: en-US", with: "sourceLocale: en-GB")
        let (_, diagnostics) = parse(text)
        #expect(diagnostics.map(\.code) == ["CFG005"])
    }

    @Test func productLocaleMustBeInTheProjectsLocales() {
        let (_, diagnostics) = parse(TemporaryTree.config + "    locales: [en-US, fr-FR]\n")
        #expect(diagnostics.map(\.code) == ["CFG007"])
        #expect(diagnostics.first?.message == "product 'com.example.app.yearly' lists locale 'fr-FR', which is not in the project's locales")
        #expect(diagnostics.first?.fixIts.map(\.message) == ["add 'fr-FR' to `locales`, or remove it here"])
    }

    /// A malformed tag is never offered for `locales`; LOC001 reports the tag itself.
    @Test func productLocaleFixItDoesNotCopyAMalformedTag() {
        let (_, listed) = parse(TemporaryTree.config + "    locales: [en_US]\n")
        #expect(listed.map(\.code) == ["CFG007"])
        #expect(listed.first?.fixIts.map(\.message) == ["use 'en-US', which `locales` lists"])
        let (_, unlisted) = parse(TemporaryTree.config + "    locales: [fr_FR]\n")
        #expect(unlisted.first?.fixIts.map(\.message) == ["use one of the project's `locales`, or remove it here"])
    }

    @Test func uuidText() {
        #expect(UUIDText.parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8")?.count == 16)
        #expect(UUIDText.parse("6ba7b8109dad11d180b400c04fd430c8") == nil)
        #expect(UUIDText.parse("6ba7b810-9dad-11d1-80b4-00c04fd430cg") == nil)
    }
}

/// `group:` and `realtime:` of a product, in both forms.
@Suite struct RealtimeConfigTests {
    static let head = "bundleId: com.example.app\nsourceLocale: en-US\nlocales: [en-US]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n"

    func parse(_ products: String) -> (ProjectConfig?, [Diagnostic]) {
        let (config, _, diagnostics) = ConfigParser.parse(bytes: Array((Self.head + products).utf8))
        return (config, diagnostics)
    }

    @Test func readsBothForms() throws {
        let (config, diagnostics) = parse("""
              - id: com.example.app.yearly
                group: premium
                realtime: [offer, winback]
              - id: com.example.app.monthly
                group: premium
                realtime:
                  - { message: offer, weight: 3 }
                  - message: winback
                    weight: 1

            """)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        let products = try #require(config).products
        #expect(products[0].group?.value == "premium")
        #expect(products[0].realtime?.mode == .firstUsable)
        #expect(products[0].realtime?.arms.map(\.message.value) == ["offer", "winback"])
        #expect(products[0].realtime?.arms.map(\.weight) == [1, 1])
        #expect(products[1].realtime?.mode == .weighted)
        #expect(products[1].realtime?.arms.map(\.weight) == [3, 1])
        #expect(products[1].realtime?.arms[1].message.location.line == 13)
    }

    @Test func refusesWhatHasNoOneMeaning() {
        let cases: [(String, String)] = [
            ("    realtime: [a, { message: b, weight: 1 }]\n", "CFG012"),
            ("    realtime:\n      - { message: a, weight: 1.5 }\n", "CFG012"),
            ("    realtime:\n      - { message: a, weight: -1 }\n", "CFG012"),
            ("    realtime:\n      - { message: a, weight: 1000001 }\n", "CFG012"),
            ("    realtime:\n      - { message: a }\n", "PRS005"),
            ("    realtime:\n      - { message: a, weight: 1, share: 2 }\n", "PRS003"),
            ("    realtime: [[a]]\n", "PRS004"),
            ("    realtime: a\n", "PRS004"),
            ("    realtime: [a, a]\n", "CFG012"),
        ]
        for (realtime, code) in cases {
            let (config, diagnostics) = parse("  - id: com.example.app.yearly\n" + realtime)
            #expect(diagnostics.map(\.code) == [code], "\(realtime): \(diagnostics.map { "\($0.code) \($0.message)" })")
            #expect(config != nil)
        }
    }
}
