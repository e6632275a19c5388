import Diagnostics
import Foundation
import Model
import TestSupport
import Testing
@testable import XLIFF

@Suite("XLIFF writer", .ownThreads)
struct XLIFFWriterTests {
    typealias Support = XLIFFTestSupport
    static let product = "com.example.news.premium.yearly"

    static let messages = [
        Support.message(
            key: "winback", header: "Stay with Premium",
            body: "Keep your yearly plan and save 50% on your next renewal.",
            alt: "Readers with the morning edition", bullets: [("Unlimited articles", "Check mark")],
            note: "Shown when a yearly subscriber cancels. Warm, not pushy."),
        Support.message(key: "offer", type: .promotionalOffer, header: "Come back & save", body: "Get 3 months for $0.99 <limited>"),
    ]

    static func existingUnit(
        _ field: String, key: String = "winback", source: String, target: String?, state: TranslationState, raw: String?
    ) -> TranslationUnit {
        let here = SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 1)
        return TranslationUnit(
            id: Located("\(product)/\(key)/\(field)", at: here), source: Located(source, at: here),
            target: target.map { Located($0, at: here) }, state: state, rawState: raw, location: here)
    }

    static let existing: [String: TranslationUnit] = {
        let units = [
            existingUnit("header", source: "Stay with Premium", target: "Bleiben Sie bei Premium", state: .translated, raw: "translated"),
            // Stale: the source has changed since.
            existingUnit("body", source: "Keep your yearly plan.", target: "Behalten Sie Ihr Jahresabo.", state: .reviewed, raw: "signed-off"),
            existingUnit("image.alt", source: "Readers with the morning edition", target: "Leser mit der Morgenausgabe",
                         state: .translated, raw: "needs-review-l10n"),
            existingUnit("bullets.1.text", source: "Unlimited articles", target: "Unbegrenzt Artikel", state: .reviewed, raw: "reviewed"),
            existingUnit("bullets.1.alt", source: "Check mark", target: "Häkchen", state: .final, raw: "final"),
            existingUnit("header", key: "offer", source: "Come back & save", target: "Komm zurück & spare", state: .reviewed, raw: "translated"),
            existingUnit("body", key: "offer", source: "Get 3 months for $0.99 <limited>", target: nil, state: .untranslated, raw: "new"),
        ]
        return Dictionary(uniqueKeysWithValues: units.map { ($0.id.value, $0) })
    }()

    static func write(_ version: TranslationFile.Version, measure: LengthMeasure = .utf16) -> String {
        XLIFFWriter.write(config: Support.config(measure: measure), messages: messages, locale: "de-DE",
                          existing: existing, version: version, toolVersion: "0.1.0")
    }

    /// Compares with a golden file; `MSGC_RECORD=1 swift test` rewrites it and fails.
    func expectGolden(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = Support.fixturesDirectory.appendingPathComponent("expected/\(name)")
        if ProcessInfo.processInfo.environment["MSGC_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            Issue.record("recorded \(name); review the diff and run again without MSGC_RECORD", sourceLocation: sourceLocation)
            return
        }
        let golden = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(text == golden, sourceLocation: sourceLocation)
    }

    @Test("XLIFF 1.2 output matches the golden file")
    func golden12() throws {
        try expectGolden(Self.write(.v1_2), "extract-de-DE-1.2.xlf")
    }

    @Test("XLIFF 2.0 output matches the golden file")
    func golden20() throws {
        try expectGolden(Self.write(.v2_0), "extract-de-DE-2.0.xlf")
    }

    @Test("output is deterministic")
    func deterministic() {
        #expect(Self.write(.v1_2) == Self.write(.v1_2))
        #expect(Self.write(.v2_0) == Self.write(.v2_0))
    }

    @Test("1.2 carries states over: the raw 1.2 state when it means the same, stale ones back to needs-translation")
    func states12() {
        let text = Self.write(.v1_2)
        #expect(text.contains("<target state=\"translated\">Bleiben Sie bei Premium</target>"))
        #expect(text.contains("<target state=\"needs-translation\">Behalten Sie Ihr Jahresabo.</target>"))
        #expect(text.contains("<target state=\"needs-review-l10n\">Leser mit der Morgenausgabe</target>"))
        #expect(text.contains("<target state=\"signed-off\">Unbegrenzt Artikel</target>"))
        #expect(text.contains("<target state=\"final\">Häkchen</target>"))
        #expect(text.contains("<target state=\"signed-off\">Komm zurück &amp; spare</target>"))
        #expect(text.contains("The source text has changed since this translation: review it."))
    }

    @Test("round trip through XLIFF 1.2 and 2.0 keeps ids, sources, targets and states",
          arguments: [TranslationFile.Version.v1_2, .v2_0])
    func roundTrip(version: TranslationFile.Version) throws {
        let (file, diagnostics) = XLIFFReader.read(bytes: Array(Self.write(version).utf8), path: "translations/de-DE.xlf")
        #expect(diagnostics.isEmpty)
        #expect(file.version == version)
        #expect(file.targetLanguage?.value == "de-DE")
        #expect(file.sourceLanguage?.value == "en-US")
        let ids = Self.messages.flatMap { message in message.fields.map { "\(message.id)/\($0.field)" } }
        #expect(file.units.map(\.id.value) == ids)
        for message in Self.messages {
            for (field, text) in message.fields {
                let id = "\(message.id)/\(field)"
                let unit = try #require(file.unit(id))
                #expect(unit.source.value == text.value, "\(id)")
                #expect(unit.target?.value == Self.existing[id]?.target?.value, "\(id)")
                #expect(unit.parsedID?.field == field)
            }
        }
        let states = file.units.map(\.state)
        #expect(states == [.translated, .untranslated, .translated, .reviewed, .final, .reviewed, .untranslated])
        if version == .v1_2 {
            #expect(file.unit("\(Self.product)/winback/image.alt")?.rawState == "needs-review-l10n")
        }
    }

    @Test("hard characters survive: markup characters, quotes, CR, emoji; controls become <cp/> in 2.0, U+FFFD in 1.2",
          arguments: [TranslationFile.Version.v1_2, .v2_0])
    func escaping(version: TranslationFile.Version) throws {
        let header = "A & B < C > D \"q\" 'a' ]]> \u{200F}مرحبا 👩‍👩‍👧"
        let body = "Line\rTwo\tTab\u{1B}End\u{FFFE}"
        let message = Support.message(key: "x", header: header, body: body, note: "Note with <b> & \u{7}bell")
        let text = XLIFFWriter.write(config: Support.config(), messages: [message], locale: "ar-SA",
                                     existing: [:], version: version, toolVersion: "1 \"quoted\"")
        let (file, diagnostics) = XLIFFReader.read(bytes: Array(text.utf8), path: "t.xlf")
        #expect(diagnostics.isEmpty)
        #expect(file.unit("\(Self.product)/x/header")?.source.value == header)
        let expectedBody = version == .v2_0 ? body : "Line\rTwo\tTab\u{FFFD}End\u{FFFD}"
        #expect(file.unit("\(Self.product)/x/body")?.source.value == expectedBody)
        if version == .v2_0 {
            #expect(text.contains("Tab<cp hex=\"001B\"/>End<cp hex=\"FFFE\"/>"))
        }
        #expect(text.contains("Line&#xD;Two"))
        #expect(text.contains("Note with &lt;b&gt; &amp; \u{FFFD}bell"))
        #expect(!text.unicodeScalars.contains { !XLIFFWriter.isXMLCharacter($0) })
    }

    @Test("the output is well-formed for xmllint too (skipped when xmllint is not installed)",
          arguments: [TranslationFile.Version.v1_2, .v2_0])
    func xmllint(version: TranslationFile.Version) throws {
        let text = Self.write(version)
        guard let errors = try Support.xmllintErrors(text) else { return }
        #expect(errors == "")
    }

    @Test("approved and candidates are read and written back; a stale translation loses its approval",
          arguments: [TranslationFile.Version.v1_2, .v2_0])
    func approvalAndCandidatesRoundTrip(version: TranslationFile.Version) throws {
        var existing = Self.existing
        let header = "\(Self.product)/winback/header"
        let body = "\(Self.product)/winback/body"
        // As the reader gives an approved unit: approval lifts the state to reviewed.
        existing[header]?.isApproved = true
        existing[header]?.state = .reviewed
        existing[body]?.isApproved = true  // stale: written as needing translation, not approved
        existing[header]?.candidates = [TranslationCandidate(origin: "tm & co", quality: "85%", source: "Stay", target: "Bleib <da>")]
        let text = XLIFFWriter.write(config: Support.config(), messages: Self.messages, locale: "de-DE",
                                     existing: existing, version: version, toolVersion: "0")
        let (file, diagnostics) = XLIFFReader.read(bytes: Array(text.utf8), path: "t.xlf")
        #expect(diagnostics.isEmpty)
        let read = try #require(file.unit(header))
        #expect(read.candidates == [TranslationCandidate(
            origin: "tm & co", quality: version == .v1_2 ? "85%" : "85", source: "Stay", target: "Bleib <da>")])
        #expect(read.state == .reviewed)
        #expect(read.isApproved == (version == .v1_2))
        #expect(file.unit(body)?.isApproved == false)
        #expect(file.unit(body)?.state == .untranslated)
        if let errors = try Support.xmllintErrors(text) { #expect(errors == "") }
    }

    @Test func matchQualityFor20() {
        #expect(XLIFFWriter.matchQuality20("85%") == "85")
        #expect(XLIFFWriter.matchQuality20("99.5") == "99.5")
        #expect(XLIFFWriter.matchQuality20("high") == nil)
        #expect(XLIFFWriter.matchQuality20("101") == nil)
        #expect(XLIFFWriter.matchQuality20("-1") == nil)
    }

    @Test("2.0 size restriction follows lengthMeasure")
    func sizeRestriction() {
        let utf16 = Self.write(.v2_0, measure: .utf16)
        #expect(utf16.contains("<slr:profiles generalProfile=\"xliff:codepoints\" storageProfile=\"xliff:utf16\">"))
        #expect(utf16.contains("slr:sizeRestriction=\"66\" slr:storageRestriction=\"132\""))
        let utf8 = Self.write(.v2_0, measure: .utf8)
        #expect(utf8.contains("storageProfile=\"xliff:utf8\""))
        #expect(utf8.contains("slr:sizeRestriction=\"144\" slr:storageRestriction=\"144\""))
        let scalars = Self.write(.v2_0, measure: .scalars)
        #expect(scalars.contains("<slr:profiles generalProfile=\"xliff:codepoints\">"))
        #expect(scalars.contains("slr:sizeRestriction=\"66\">"))
        #expect(!scalars.contains("storageRestriction"))
        let graphemes = Self.write(.v2_0, measure: .graphemes)
        #expect(!graphemes.contains("slr:profiles"))
        #expect(!graphemes.contains("slr:sizeRestriction"))
        #expect(graphemes.contains("Limit: 66 graphemes."))
    }

    @Test("1.2 limit note uses the project's unit name")
    func limitNote() {
        let text = Self.write(.v1_2, measure: .utf8)
        #expect(text.contains(
            "<note from=\"msgc\">Product: \(Self.product). Message type: text. Field: header. Limit: 66 UTF-8 bytes.</note>"))
        #expect(text.contains("Message type: promotional-offer. Field: body. Limit: 144 UTF-8 bytes."))
        #expect(text.contains("maxwidth=\"144\" size-unit=\"char\""))
    }

    @Test("a unit id is written once even when two messages share it")
    func duplicateIDs() {
        let twice = [Support.message(key: "a", header: "One"), Support.message(key: "a", header: "Two")]
        let text = XLIFFWriter.write(config: Support.config(), messages: twice, locale: "de-DE", existing: [:], toolVersion: "0")
        #expect(text.components(separatedBy: "<trans-unit ").count == 2)
        #expect(text.contains("<source>One</source>"))
    }

    @Test("2.0 unit ids are NMTOKENs")
    func unitIDs20() {
        #expect(XLIFFWriter.unitID20("com.example/key_1/bullets.2.alt") == "com.example:key_1:bullets.2.alt")
        #expect(XLIFFWriter.unitID20("a b/c@d/header") == "a_b:c_d:header")
    }
}
