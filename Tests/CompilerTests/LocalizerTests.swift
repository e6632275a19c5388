@testable import Compiler
import Model
@testable import Parser
import TestSupport
import Testing

/// Binding messages to their translations: the order candidates come out in, and which unit
/// a field gets wherever the file's units are and however many share an id.
@Suite struct LocalizerTests {
    static let config = """
        bundleId: com.example.app
        sourceLocale: en-US
        locales: [en-US, de-DE, fr-FR]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: com.example.app.yearly
          - id: com.example.app.monthly
            locales: [en-US, fr-FR]

        """

    /// Messages written out of product and key order, so that catalog order and output order differ.
    static let messages = """
        messages:
          - { key: zebra, product: com.example.app.yearly, type: text, header: Zebra, body: Z body }
          - { key: apple, product: com.example.app.yearly, type: text, header: Apple, body: A body }
          - { key: mango, product: com.example.app.monthly, type: text, header: Mango, body: M body }

        """

    static func unit(_ id: String, _ source: String, _ target: String) -> String {
        "<trans-unit id=\"\(id)\"><source>\(source)</source><target state=\"translated\">\(target)</target></trans-unit>\n"
    }

    static func xliff(_ locale: String, _ units: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
        <file original="msgc" source-language="en-US" target-language="\(locale)" datatype="plaintext"><body>
        \(units.joined())</body></file></xliff>

        """
    }

    static let yearly = "com.example.app.yearly"

    /// de-DE units for both yearly messages, in catalog order (zebra, then apple).
    static let germanUnits = [
        unit("\(yearly)/zebra/header", "Zebra", "Zebra DE"), unit("\(yearly)/zebra/body", "Z body", "Z DE"),
        unit("\(yearly)/apple/header", "Apple", "Apfel"), unit("\(yearly)/apple/body", "A body", "A DE"),
    ]

    static func localize(_ files: [String: String]) throws -> (Localization, Catalog) {
        let tree = try TemporaryTree(["msgc.yaml": config, "messages/m.yaml": messages].merging(files) { $1 })
        let (catalog, _) = ContentTree(root: tree.root).load()
        return (Localizer.localize(catalog), catalog)
    }

    static func names(_ localization: Localization) -> [String] {
        localization.candidates.map { "\($0.message.product.value.split(separator: ".").last!) \($0.locale) \($0.message.key.value)" }
    }

    @Test func candidatesComeOutByProductLocaleAndKey() throws {
        let (localization, _) = try Self.localize(["translations/de-DE.xliff": Self.xliff("de-DE", Self.germanUnits)])
        #expect(Self.names(localization) == [
            "monthly en-US mango",
            "yearly de-DE apple", "yearly de-DE zebra", "yearly en-US apple", "yearly en-US zebra",
        ])
        #expect(localization.candidates[1].texts[.header]?.value == "Apfel")
        // fr-FR has no file: every field of every message of both products is a gap, sorted.
        #expect(localization.gaps.filter { $0.subject.locale == "fr-FR" }.map { "\($0.subject.key) \($0.field)" } == [
            "mango header", "mango body", "apple header", "apple body", "zebra header", "zebra body",
        ])
    }

    @Test func findsUnitsInAnyOrder() throws {
        // The units in the reverse of catalog order, so the unit after the last one found is
        // never the next one wanted.
        let (localization, _) = try Self.localize(["translations/de-DE.xliff": Self.xliff("de-DE", Self.germanUnits.reversed())])
        let german = localization.candidates.filter { $0.locale == "de-DE" }
        #expect(german.map { $0.texts[.header]?.value } == ["Apfel", "Zebra DE"])
        #expect(german.map { $0.texts[.body]?.value } == ["A DE", "Z DE"])
    }

    @Test func theFirstOfARepeatedIDWinsInAFileMadeByHand() throws {
        let (_, catalog) = try Self.localize([:])
        let place = SourceLocation(path: "translations/de-DE.xliff")
        func unit(_ field: String, _ source: String, _ target: String) -> TranslationUnit {
            TranslationUnit(
                id: Located("\(Self.yearly)/apple/\(field)", at: place), source: Located(source, at: place),
                target: Located(target, at: place), state: .translated, location: place)
        }
        let file = TranslationFile(
            path: "translations/de-DE.xliff", version: .v1_2, targetLanguage: Located("de-DE", at: place), sourceLanguage: nil,
            units: [unit("header", "Apple", "first"), unit("header", "Apple", "second"), unit("body", "A body", "A DE")],
            isReadable: true)
        #expect(!file.hasUniqueUnitIDs)
        var withFile = catalog
        withFile.translationFiles = [file]
        let german = Localizer.localize(withFile).candidates.filter { $0.locale == "de-DE" }
        #expect(german.map { $0.texts[.header]?.value } == ["first"])
    }
}
