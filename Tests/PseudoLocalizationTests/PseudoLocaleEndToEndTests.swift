import Bundle
import Compiler
import Diagnostics
import Foundation
import Model
import PseudoLocalization
import Testing

/// Pseudo locales through the whole pipeline, on a copy of the example content: lint sees them,
/// numbers survive, and nothing ships.
@Suite struct PseudoLocaleEndToEndTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The example content with en-XA and ar-XB pseudo-translations in translations/.
    static func exampleWithPseudoLocales() throws -> (URL, Compilation) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msgc-pseudo-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("content"), to: folder)
        let (catalog, _) = ContentTree(root: folder).load()
        for locale in ["en-XA", "ar-XB"] {
            let output = try PseudoTranslation.make(catalog: catalog, locale: locale, expansion: 0.35, version: .v1_2, toolVersion: "test")
            try Data(output.document.utf8).write(to: folder.appendingPathComponent("translations/\(locale).xliff"))
        }
        return (folder, Compilation.compile(root: folder))
    }

    @Test func pseudoLocalesAreLintedAsForecastsAndNeverShip() throws {
        let (folder, compilation) = try Self.exampleWithPseudoLocales()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Every message of every product is bound in both pseudo locales, whatever the product's locales.
        let messageCount = compilation.catalog.messages.count
        for locale in ["en-XA", "ar-XB"] {
            #expect(compilation.localization.candidates.count { $0.locale == locale } == messageCount)
        }

        let pseudo = compilation.diagnostics.filter { $0.subject?.locale.map(PseudoLocale.isPseudo) ?? false }
        // Overflow is found, as a warning with a note, in both.
        let overflow = pseudo.filter { $0.code == "LEN001" }
        #expect(Set(overflow.compactMap(\.subject?.locale)) == ["en-XA", "ar-XB"])
        #expect(overflow.allSatisfy { $0.severity == .warning && $0.notes.contains { $0.message.contains("pseudo locale") } })
        // Numbers survive (no TXT012), right-to-left marks are fine in ar-XB (no TXT006) and
        // nothing is an error: the example still lints without errors.
        #expect(!pseudo.contains { ["TXT012", "TXT006", "TXT003", "TXT005"].contains($0.code) }, "\(pseudo.map(\.message))")
        #expect(compilation.diagnostics.errorCount == 0, "\(compilation.diagnostics.filter { $0.severity == .error }.map(\.message))")
        // The tags themselves are accepted: no locale finding about the pseudo files.
        #expect(!compilation.diagnostics.contains { $0.code.hasPrefix("LOC") })

        // The release plan leaves them out, and the bundle is the same as without them.
        let plan = ReleasePlan(compilation: compilation)
        #expect(!plan.shipped.contains { PseudoLocale.isPseudo($0.locale) })
        #expect(plan.blockingErrors.isEmpty)
        #expect(plan.leftOut.isEmpty)
    }

    @Test(arguments: Environment.allCases)
    func theBundlePlannerRefusesAPseudoLocale(environment: Environment) throws {
        let (folder, compilation) = try Self.exampleWithPseudoLocales()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try #require(compilation.catalog.config)
        var images: [String: [UInt8]] = [:]
        for (path, asset) in compilation.catalog.images { if let bytes = asset.bytes { images[path] = bytes } }
        let pseudo = try #require(compilation.localization.candidates.first { $0.locale == "ar-XB" && $0.message.isDefaultMessage })
        let input = BundleBuilder.Input(
            config: config, messages: ReleasePlan(compilation: compilation).shipped + [pseudo], images: images,
            environment: environment, release: nil, generatorVersion: "test")
        #expect(throws: BundlePlanner.Failure.pseudoLocale(product: pseudo.message.product.value, key: pseudo.message.key.value, locale: "ar-XB")) {
            try BundleBuilder.build(input)
        }
    }

    @Test func refusesTagsThatAreNotPseudoLocales() throws {
        let (catalog, _) = ContentTree(root: Self.packageRoot.appendingPathComponent("content")).load()
        for (tag, failure) in [
            ("de-DE", PseudoTranslation.Failure.notPseudo("de-DE")),
            ("en-xa", .invalidTag("en-xa", reason: "'en-xa' is in non-canonical case; BCP 47 writes 'en-XA'")),
        ] {
            #expect(throws: failure) {
                try PseudoTranslation.make(catalog: catalog, locale: tag, expansion: 0.35, version: .v1_2, toolVersion: "test")
            }
        }
    }

    @Test func theDocumentIsDeterministicAndCarriesTheProjectsMinimumState() throws {
        let (catalog, _) = ContentTree(root: Self.packageRoot.appendingPathComponent("content")).load()
        let first = try PseudoTranslation.make(catalog: catalog, locale: "en-XA", expansion: 0.35, version: .v2_0, toolVersion: "test")
        let second = try PseudoTranslation.make(catalog: catalog, locale: "en-XA", expansion: 0.35, version: .v2_0, toolVersion: "test")
        #expect(first.document == second.document)
        #expect(first.document.contains("trgLang=\"en-XA\""))
        #expect(first.unitCount == catalog.messages.reduce(0) { $0 + $1.fields.count })
        #expect(!first.overflowing.isEmpty && first.overflowing == first.overflowing.sorted())
    }
}
