import Diagnostics
import Foundation
import Model
@testable import XLIFF
import Testing
import TestSupport

@Suite("XLIFF reader", .ownThreads)
struct XLIFFReaderTests {
    typealias Support = XLIFFTestSupport

    /// The 1-based column (in scalars) where `needle` starts on `line` of a fixture.
    func column(of needle: String, line: Int, in fixture: String) throws -> Int {
        let text = String(decoding: try Support.fixtureBytes(fixture), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = String(lines[line - 1])
        let range = try #require(row.range(of: needle))
        return row.unicodeScalars.distance(from: row.unicodeScalars.startIndex, to: range.lowerBound) + 1
    }

    @Test("attribute values libxml2 normalizes keep their value and are found where they are written")
    func normalizedAttributeValues() throws {
        let text = """
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file source-language="en-US" target-language="de-DE"><body>
            <trans-unit id="p/a&amp;b/header"><source>A &amp; B</source><target>C</target></trans-unit>
            <trans-unit  id="p/kü/body"><source>A</source><target>B</target></trans-unit>
            <trans-unit id='p/&#x6B;/alt' ><source>A</source><target>B</target></trans-unit>
            </body></file></xliff>
            """
        let (file, diagnostics) = Support.read(text)
        #expect(diagnostics.isEmpty)
        let ids = file.units.map(\.id)
        #expect(ids.map(\.value) == ["p/a&b/header", "p/kü/body", "p/k/alt"])
        #expect(ids.map(\.location.line) == [3, 4, 5])
        #expect(ids.map(\.location.column) == [17, 18, 17])
        #expect(ids.map(\.style) == [.opaque, .plain, .opaque])
        #expect(file.units[0].source.value == "A & B")
        // "A &amp; B" starts at column 43: its `&` is written at 45, and `B` after the reference at 51.
        #expect(file.units[0].source.location.column == 43)
        #expect(file.units[0].source.location(atScalarOffset: 2).column == 45)
        #expect(file.units[0].source.location(atScalarOffset: 2).endColumn == 50)
        #expect(file.units[0].source.location(atScalarOffset: 4).column == 51)
        #expect(file.units[0].location.column == 1)
        #expect(file.units[0].location.endColumn == 35)
        #expect(file.units[1].target?.location.column == 55)
        #expect(file.units[1].target?.style == .plain)
    }

    // MARK: - XLIFF 1.2

    @Test("1.2 states map onto msgc's scale")
    func states12() throws {
        let (file, diagnostics) = try Support.read(fixture: "v12-states.xlf")
        // The two empty targets marked final say they are done (XLF015), at their state.
        #expect(diagnostics.map(\.code) == ["XLF015", "XLF015"])
        #expect(diagnostics.map(\.location.line) == [29, 30])
        #expect(file.isReadable)
        #expect(file.version == .v1_2)
        #expect(file.targetLanguage?.value == "de-DE")
        #expect(file.sourceLanguage?.value == "en-US")
        let expected: [(String, TranslationState, String?, String?)] = [
            ("no-state", .translated, nil, "Bleiben Sie bei Premium"),
            ("translated", .translated, "translated", "A"),
            ("needs-review-translation", .translated, "needs-review-translation", "A"),
            ("needs-review-adaptation", .translated, "needs-review-adaptation", "A"),
            ("needs-review-l10n", .translated, "needs-review-l10n", "A"),
            ("signed-off", .reviewed, "signed-off", "A"),
            ("approved", .reviewed, "translated", "A"),
            ("approved-no-state", .reviewed, nil, "A"),
            ("approved-no", .translated, "translated", "A"),
            ("final", .final, "final", "A"),
            ("approved-final", .final, "final", "A"),
            ("new", .untranslated, "new", "a"),
            ("needs-translation", .untranslated, "needs-translation", "A"),
            ("needs-adaptation", .untranslated, "needs-adaptation", "A"),
            ("needs-l10n", .untranslated, "needs-l10n", "A"),
            ("x-custom", .untranslated, "x-checked", "A"),
            ("empty-final", .untranslated, "final", nil),
            ("whitespace-final", .untranslated, "final", nil),
            ("no-target", .untranslated, nil, nil),
            ("in-group", .translated, "translated", "Sparen Sie 50 % jetzt"),
            ("escapes", .translated, "translated", "Tom & Jerry <3 😀 \"x\""),
        ]
        #expect(file.units.map(\.id.value) == expected.map { "p/k/\($0.0)" })
        for (name, state, raw, target) in expected {
            let unit = try #require(file.unit("p/k/\(name)"))
            #expect(unit.state == state, "\(name)")
            #expect(unit.rawState == raw, "\(name)")
            #expect(unit.target?.value == target, "\(name)")
            #expect(unit.inlineMarkup.isEmpty, "\(name)")
        }
        #expect(file.unit("p/k/in-group")?.source.value == "Save 50% now")
        #expect(file.unit("p/k/escapes")?.source.value == "Tom & Jerry <3 \"x\"")
    }

    @Test("1.2 units know where their id, source and target are")
    func locations12() throws {
        let fixture = "v12-states.xlf"
        let (file, _) = try Support.read(fixture: fixture)
        let unit = try #require(file.unit("p/k/no-state"))
        #expect(unit.location.line == 9)
        #expect(unit.location.column == 7)
        #expect(unit.id.location.line == 9)
        #expect(unit.id.location.column == (try column(of: "p/k/no-state", line: 9, in: fixture)))
        #expect(unit.source.location.line == 10)
        #expect(unit.source.location.column == (try column(of: "Stay", line: 10, in: fixture)))
        #expect(unit.source.style == .plain)
        #expect(unit.target?.location.line == 11)
        #expect(unit.target?.location.column == (try column(of: "Bleiben", line: 11, in: fixture)))
        #expect(unit.target?.style == .plain)
        // Text with references and CDATA is mapped back column by column.
        let escapes = try #require(file.unit("p/k/escapes")?.target)
        #expect(escapes.value == "Tom & Jerry <3 \u{1F600} \"x\"")
        #expect(escapes.location(atScalarOffset: 0).column == (try column(of: "Tom & Jerry <3]]>", line: 46, in: fixture)))
        #expect(escapes.location(atScalarOffset: 15).column == (try column(of: "&#x1F600;", line: 46, in: fixture)))
        #expect(escapes.location(atScalarOffset: 17).column == (try column(of: "&#x1F600;", line: 46, in: fixture)) + 10)
        #expect(escapes.location(atScalarOffset: 0, length: 20).endColumn == (try column(of: "</target></trans-unit>", line: 46, in: fixture)))
        #expect(unit.id.style == .plain)
        #expect(file.targetLanguage?.style == .plain)
        #expect(file.targetLanguage?.location.line == 3)
        #expect(file.targetLanguage?.location.column == (try column(of: "de-DE", line: 3, in: fixture)))
        let compact = try #require(file.unit("p/k/final"))
        #expect(compact.target?.location.line == 22)
        #expect(compact.target?.location.column == (try column(of: ">A<", line: 22, in: fixture)) + 1)
    }

    @Test("an attribute written with a reference is not verbatim")
    func attributeStyle() {
        let (file, _) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file original="a" source-language="en-US" target-language="pt&#95;BR" datatype="plaintext"><body/></file></xliff>
            """)
        #expect(file.targetLanguage?.value == "pt_BR")
        #expect(file.targetLanguage?.style == .opaque)
        #expect(file.targetLanguage?.location.column == 61)
    }

    @Test("an Xcode export (.xcloc) reads with its keys as ids")
    func xcodeExport() throws {
        let (file, diagnostics) = try Support.read(fixture: "xcode-export.xliff")
        #expect(diagnostics.isEmpty)
        #expect(file.version == .v1_2)
        #expect(file.targetLanguage?.value == "de")
        #expect(file.units.map(\.id.value) == ["Keep reading", "Stay with Premium", "%lld articles|==|plural.one", "aBc-12-xyz.text"])
        #expect(file.unit("Keep reading")?.target == nil)
        #expect(file.unit("Keep reading")?.state == .untranslated)
        #expect(file.unit("Stay with Premium")?.state == .untranslated)
        #expect(file.unit("Stay with Premium")?.rawState == "new")
        #expect(file.unit("%lld articles|==|plural.one")?.state == .translated)
        #expect(file.unit("aBc-12-xyz.text")?.target?.value == "Abonnieren")
    }

    @Test("translate-toolkit's po2xliff output (XLIFF 1.1 namespace) reads")
    func po2xliff() throws {
        let (file, diagnostics) = try Support.read(fixture: "po2xliff.xlf")
        #expect(diagnostics.isEmpty)
        #expect(file.version == .v1_2)
        #expect(file.targetLanguage?.value == "pt_BR")
        // The gettext header unit is metadata, not a translation.
        #expect(file.units.map(\.id.value) == ["3", "4", "5"])
        #expect(file.unit("3")?.state == .reviewed)
        #expect(file.unit("3")?.target?.value == "Fique com o Premium")
        #expect(file.unit("4")?.state == .untranslated)
        #expect(file.unit("4")?.rawState == "needs-translation")
        #expect(file.unit("5")?.target == nil)
    }

    // MARK: - XLIFF 2.0

    @Test("2.0 segment states, identity, segments and ignorables")
    func states20() throws {
        let (file, diagnostics) = try Support.read(fixture: "v20-states.xlf")
        #expect(diagnostics.map(\.code) == ["XLF015"])
        #expect(diagnostics.map(\.location.line) == [14])
        #expect(file.version == .v2_0)
        #expect(file.targetLanguage?.value == "fr-FR")
        #expect(file.sourceLanguage?.value == "en-US")
        let expected: [(String, TranslationState, String?, String?)] = [
            ("no-state", .translated, nil, "A"),
            ("initial", .untranslated, "initial", "A"),
            ("translated", .translated, "translated", "A"),
            ("reviewed", .reviewed, "reviewed", "A"),
            ("final", .final, "final", "A"),
            ("empty-final", .untranslated, "final", nil),
            ("no-target", .untranslated, nil, nil),
            ("id-only", .translated, "translated", "A"),
            ("segments", .translated, "translated", "Premier. Deuxième un seul."),
            ("partial", .untranslated, nil, nil),
            ("reordered", .translated, "translated", "Deux. Un."),
            ("code-point", .translated, "translated", "Éch\u{1B}ap\u{FFFD}pe"),
        ]
        #expect(file.units.map(\.id.value) == expected.map { "p/k/\($0.0)" })
        for (name, state, raw, target) in expected {
            let unit = try #require(file.unit("p/k/\(name)"))
            #expect(unit.state == state, "\(name)")
            #expect(unit.rawState == raw, "\(name)")
            #expect(unit.target?.value == target, "\(name)")
            #expect(unit.inlineMarkup.isEmpty, "\(name)")
        }
        let segments = try #require(file.unit("p/k/segments"))
        #expect(segments.source.value == "First. Second one.")
        #expect(segments.source.style == .opaque)
        #expect(segments.target?.location.line == 24)
        #expect(file.unit("p/k/code-point")?.source.value == "Esc\u{1B}ape")
        #expect(file.unit("p/k/reordered")?.source.value == "A. B.")
    }

    @Test("2.0 unit identity: name first, else id with ':' read as '/'")
    func identity20() throws {
        let (file, _) = try Support.read(fixture: "v20-states.xlf")
        let byName = try #require(file.unit("p/k/no-state"))
        #expect(byName.id.location.column == (try column(of: "p/k/no-state", line: 9, in: "v20-states.xlf")))
        let byID = try #require(file.unit("p/k/id-only"))
        #expect(byID.id.location.column == (try column(of: "p:k:id-only", line: 16, in: "v20-states.xlf")))
    }

    @Test("XLIFF 2.1 keeps the 2.0 namespace and reads as 2.0")
    func version21() throws {
        let (file, diagnostics) = try Support.read(fixture: "v21-version.xlf")
        #expect(diagnostics.isEmpty)
        #expect(file.version == .v2_0)
        #expect(file.targetLanguage?.value == "ja")
        #expect(file.unit("p/k/header")?.target?.value == "滞在")
    }

    @Test("translate-toolkit's XLIFF 2.0 writer output reads (ids with '/', notes inside segments)")
    func translateToolkit20() throws {
        let (file, diagnostics) = try Support.read(fixture: "translate-toolkit-xliff2.xlf")
        #expect(diagnostics.isEmpty)
        #expect(file.units.map(\.id.value) == [
            "com.example.news.premium.yearly/winback/header", "com.example.news.premium.yearly/winback/body",
        ])
        // It writes no state on segments: a segment with a target and no state is translated,
        // as in 1.2 (the second unit has no target).
        #expect(file.units.map(\.state) == [.translated, .untranslated])
        #expect(file.units.first?.target?.value == "Restez avec Premium")
    }

    // MARK: - Encodings

    @Test("UTF-8 with BOM and UTF-16 with BOM or declaration read the same, with the same positions",
          arguments: ["utf8-bom.xlf", "utf16le-bom.xlf", "utf16be-bom.xlf", "utf16le-no-bom.xlf"])
    func encodings(fixture: String) throws {
        let (file, diagnostics) = try Support.read(fixture: fixture)
        #expect(diagnostics.isEmpty)
        #expect(file.isReadable)
        #expect(file.targetLanguage?.value == "ar-SA")
        let unit = try #require(file.unit("p/k/header"))
        #expect(unit.source.value == "Stay with Premium 😀")
        #expect(unit.target?.value == "ابقَ مع بريميوم 😀")
        #expect(unit.target?.location.line == 7)
        #expect(unit.target?.location.column == 36)
        #expect(unit.location.line == 5)
        #expect(unit.location.column == 7)
    }

    @Test("UTF-16 with neither BOM nor declaration is refused clearly")
    func utf16WithoutBOMOrDeclaration() throws {
        let (file, diagnostics) = try Support.read(fixture: "utf16le-no-bom-no-declaration.xlf")
        #expect(!file.isReadable)
        #expect(diagnostics.map(\.code) == ["XLF007"])
        #expect(diagnostics.first?.message.contains("UTF-16") == true)
    }

    @Test("a declared encoding other than UTF-8 or UTF-16 is refused at the declaration")
    func latin1Declared() throws {
        let (file, diagnostics) = try Support.read(fixture: "latin1-declared.xlf")
        #expect(!file.isReadable)
        #expect(diagnostics.map(\.code) == ["XLF007"])
        let location = try #require(diagnostics.first?.location)
        #expect(location.line == 1)
        #expect(location.column == 31)
        #expect(location.endColumn == 41)
        #expect(diagnostics.first?.message == "file declares encoding 'ISO-8859-1'; msgc reads XLIFF in UTF-8 or UTF-16")
    }

    @Test("invalid UTF-8 is refused at the bad byte")
    func invalidUTF8() throws {
        let (file, diagnostics) = try Support.read(fixture: "invalid-utf8.xlf")
        #expect(!file.isReadable)
        #expect(file.units.isEmpty)
        #expect(diagnostics.count == 1)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.code == "XLF007")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location.line == 7)
        #expect(diagnostic.location.column == 36 + "ابقَ مع بري".unicodeScalars.count)
        #expect(diagnostic.message.hasPrefix("file is not valid UTF-8: byte 0xFF"))
    }

    /// A unit's location is its start tag's `<`, found back from the first attribute value that
    /// libxml2 read in place, or from the tag's end when it copied that value (a reference in
    /// it); on one line the location spans the whole tag.
    @Test("a unit is located at its start tag however its attributes are written")
    func unitStartTags() throws {
        let (file, diagnostics) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="m" source-language="en-US" target-language="de-DE" datatype="plaintext"><body>
              <trans-unit id="p/k/header" approved="no"><source>a</source><target>b</target></trans-unit>
                <trans-unit id="p/a&amp;b/body"><source>c</source><target>d</target></trans-unit>
            <trans-unit
                id="p/k/alt"><source>e</source><target>f</target></trans-unit>
            \t<trans-unit xml:space="preserve" id='p/k/cta'><source>g</source><target>h</target></trans-unit>
            </body></file></xliff>
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        try #require(file.units.count == 4)
        #expect(file.units.map(\.location.line) == [2, 3, 4, 6])
        #expect(file.units.map(\.location.column) == [3, 5, 1, 2])
        #expect(file.units.map(\.location.endColumn) == [45, 37, nil, 48])
    }

    /// The reader's own validator passes ASCII 32 and 8 bytes at a time and checks the other
    /// characters of a word one by one: each sequence, valid or not, is tried at every place
    /// in and across those blocks, against the standard library's answer.
    @Test("the UTF-8 check agrees with the standard library wherever a sequence falls")
    func utf8CheckAtEveryAlignment() {
        let sequences: [[UInt8]] = [
            [0xC3, 0xA4], [0xE3, 0x81, 0x82], [0xF0, 0x9F, 0x8E, 0x89], [0xDF, 0xBF], [0xEF, 0xBF, 0xBD],
            [0xF4, 0x8F, 0xBF, 0xBF], [0xC3, 0xA4, 0x20, 0xE0, 0xB8, 0x81, 0x41],
            // Invalid: overlong forms, surrogates, above U+10FFFF, lone or missing continuation
            // bytes, bytes that never occur.
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0x80], [0xBF], [0xC3], [0xE3, 0x81], [0xF0, 0x9F, 0x8E], [0xC3, 0x41],
            [0xE3, 0x41, 0x82], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF],
        ]
        for sequence in sequences {
            let isValid = String(validating: sequence, as: UTF8.self) != nil
            for before in 2..<42 {
                for after in [0, 1, 7, 33] {
                    let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: before) + sequence
                        + [UInt8](repeating: UInt8(ascii: "y"), count: after)
                    let accepted = if case .success = XLIFFInputText.decode(bytes) { true } else { false }
                    #expect(accepted == isValid, "\(sequence) after \(before) bytes, before \(after)")
                }
            }
        }
    }

    @Test("UTF-16 with an unpaired surrogate is refused with its position")
    func unpairedSurrogate() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in Array("<a>\nx".utf16) + [0xD800, 0x0041] + Array("</a>".utf16) {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let (_, diagnostics) = XLIFFReader.read(bytes: bytes, path: "t.xlf")
        #expect(diagnostics.map(\.code) == ["XLF007"])
        #expect(diagnostics.first?.location.line == 2)
        #expect(diagnostics.first?.location.column == 2)
    }

    // MARK: - Readable files with problems

    @Test("inline markup in a 1.2 target is recorded and reported once per unit")
    func inlineMarkup12() throws {
        let fixture = "v12-inline-markup.xlf"
        let (file, diagnostics) = try Support.read(fixture: fixture)
        #expect(file.isReadable)
        let header = try #require(file.unit("com.example.news/winback/header"))
        #expect(header.inlineMarkup.map(\.value) == ["g", "x", "ph", "sub"])
        #expect(header.inlineMarkup.first?.location.line == 7)
        #expect(header.inlineMarkup.first?.location.column == (try column(of: "<g ", line: 7, in: fixture)))
        #expect(header.target?.value == "Bleiben Sie bei Premiumjetzt")
        #expect(file.unit("com.example.news/winback/body")?.inlineMarkup.isEmpty == true)
        #expect(file.unit("com.example.news/winback/body")?.source.value == "Save 50%")
        #expect(file.unit("com.example.news/winback/image.alt")?.inlineMarkup.map(\.value) == ["bx", "ex", "it"])

        #expect(diagnostics.map(\.code) == ["XLF008", "XLF008"])
        let first = try #require(diagnostics.first)
        #expect(first.severity == .error)
        #expect(first.location.line == 7)
        #expect(first.location.column == (try column(of: "<g ", line: 7, in: fixture)))
        #expect(first.location.endColumn == (try column(of: "Premium</g>", line: 7, in: fixture)))
        #expect(first.message
            == "target of unit 'com.example.news/winback/header' contains inline elements <g>, <x>, <ph>, <sub>; Apple shows plain text only")
        #expect(first.notes.count == 3)
        #expect(first.subject == Subject(product: "com.example.news", key: "winback", locale: "de-DE"))
    }

    @Test("inline markup in a 2.0 target is recorded")
    func inlineMarkup20() throws {
        let (file, diagnostics) = try Support.read(fixture: "v20-inline-markup.xlf")
        let unit = try #require(file.unit("com.example.news/winback/header"))
        #expect(unit.inlineMarkup.map(\.value) == ["pc", "ph", "sc", "ec"])
        #expect(unit.target?.value == "Bleiben Sie bei Premiumjetzt")
        #expect(diagnostics.map(\.code) == ["XLF008"])
    }

    @Test("a unit id repeated with the same target is a warning and the first unit is used")
    func duplicateUnit() {
        let (file, diagnostics) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file original="m" source-language="en-US" target-language="de-DE" datatype="plaintext"><body>
            <trans-unit id="p/k/header"><source>a</source><target>Erste</target></trans-unit>
            <trans-unit id="p/k/header"><source>a</source><target>Erste</target></trans-unit>
            </body></file></xliff>
            """)
        #expect(file.units.count == 1)
        #expect(file.units.first?.target?.value == "Erste")
        #expect(file.units.first?.isAmbiguous == false)
        #expect(diagnostics.map(\.code) == ["XLF009"])
        #expect(diagnostics.first?.severity == .warning)
        #expect(diagnostics.first?.location.line == 4)
        #expect(diagnostics.first?.location.column == 17)
        #expect(diagnostics.first?.message
            == "unit id 'p/k/header' appears again with the same target; msgc uses the first one on line 3 and ignores this one")
    }

    @Test("a unit id repeated with another target is an error and neither unit is used")
    func conflictingUnits() {
        let (file, diagnostics) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file original="m" source-language="en-US" target-language="de-DE" datatype="plaintext"><body>
            <trans-unit id="p/k/header"><source>a</source><target>Erste</target></trans-unit>
            <trans-unit id="p/k/header"><source>a</source><target>Zweite</target></trans-unit>
            <trans-unit id="p/k/header"><source>a</source><target>Erste</target></trans-unit>
            </body></file></xliff>
            """)
        #expect(file.units.count == 1)
        #expect(file.units.first?.isAmbiguous == true)
        #expect(diagnostics.map(\.code) == ["XLF013", "XLF009"])
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.location.line == 4)
        #expect(diagnostics.first?.message
            == "unit id 'p/k/header' appears again with a different target than the one on line 3; neither is used")
    }

    /// A file of units that are message fields, orphans and repeats of both, with an id written
    /// in NFD whose field the set holds in NFC (`==` alike, other bytes).
    static let mixedUnits = """
        <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
        <file original="m" source-language="en-US" target-language="de-DE" datatype="plaintext"><body>
        <trans-unit id="com.example.premium/k/header"><source>a</source><target>Erste</target></trans-unit>
        <trans-unit id="com.example.premium/old/header"><source>b</source><target>Alt</target></trans-unit>
        <trans-unit id="com.example.premium/k/header"><source>a</source><target>Zweite</target></trans-unit>
        <trans-unit id="com.example.premium/old/header"><source>b</source><target>Anders</target></trans-unit>
        <trans-unit id="com.example.premium/cafe\u{301}/body"><source>c</source><target>Dritte</target></trans-unit>
        <trans-unit id="com.example.premium/k/body"><source>d</source><target>Vierte</target></trans-unit>
        <trans-unit id="com.example.premium/k/body"><source>d</source><target>Vierte</target></trans-unit>
        <trans-unit id="com.example.premium/old/header"><source>b</source><target>Alt</target></trans-unit>
        </body></file></xliff>
        """
    static let fieldIDs: Set = [
        "com.example.premium/k/header", "com.example.premium/k/body", "com.example.premium/caf\u{E9}/body",
        "com.example.premium/other/header",
    ]

    @Test("told the ids of message fields, the reader finds the same repeats, and orphans' conflicts are only warnings")
    func repeatsWithFieldUnitIDs() {
        let (plain, plainDiagnostics) = XLIFFReader.read(bytes: Array(Self.mixedUnits.utf8), path: "translations/de-DE.xliff")
        let (told, toldDiagnostics) = XLIFFReader.read(
            bytes: Array(Self.mixedUnits.utf8), path: "translations/de-DE.xliff",
            expecting: ExpectedUnits(ids: Self.fieldIDs))
        #expect(told.units == plain.units)
        #expect(told.units.map(\.id.value) == [
            "com.example.premium/k/header", "com.example.premium/old/header", "com.example.premium/cafe\u{301}/body",
            "com.example.premium/k/body",
        ])
        #expect(told.units.map(\.isAmbiguous) == [true, true, false, false])
        // The NFD id keeps its own bytes: it is the file's spelling that findings quote.
        #expect(Array(told.units[2].id.value.utf8) == Array("com.example.premium/cafe\u{301}/body".utf8))
        #expect(plainDiagnostics.map(\.code) == ["XLF013", "XLF013", "XLF009", "XLF009"])
        #expect(toldDiagnostics.map(\.code) == ["XLF013", "XLF013", "XLF009", "XLF009"])
        #expect(toldDiagnostics.map(\.severity) == [.error, .warning, .warning, .warning])
        #expect(toldDiagnostics.map { $0.location.line } == [5, 6, 9, 10])
    }

    @Test("expected ids are told by their bytes: an NFD spelling is the file's own, and no message field")
    func expectedIDsByBytes() throws {
        let header = "com.example.premium/k/header"
        let source = "Bleiben Sie dabei – 20 % günstiger"
        let expected = ExpectedUnits(ids: [header, "com.example.premium/caf\u{E9}/body"])
        #expect(expected.count == 2 && expected.contains(header) && expected.index(of: header) == 0)
        #expect(!expected.contains("com.example.premium/cafe\u{301}/body"))
        for version in ["1.2", "2.0"] {
            let units = version == "1.2" ? """
                <trans-unit id="\(header)"><source>\(source)</source><target>x</target></trans-unit>
                <trans-unit id="com.example.premium/cafe\u{301}/body"><source>Bleiben Sie dabei &#8211; 20 % g\u{FC}nstiger!</source><target>y</target></trans-unit>
                """ : """
                <unit id="u1" name="\(header)"><segment><source>\(source)</source><target>x</target></segment></unit>
                <unit id="u2" name="com.example.premium/cafe\u{301}/body"><segment><source>b</source><target>y</target></segment></unit>
                """
            let document = version == "1.2"
                ? "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"><file original=\"m\" source-language=\"en-US\" target-language=\"de-DE\" datatype=\"plaintext\"><body>\(units)</body></file></xliff>"
                : "<xliff version=\"2.0\" xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" srcLang=\"en-US\" trgLang=\"de-DE\"><file id=\"f\">\(units)</file></xliff>"
            let (file, diagnostics) = XLIFFReader.read(bytes: Array(document.utf8), path: "translations/de-DE.xliff", expecting: expected)
            #expect(diagnostics.isEmpty, "\(version): \(diagnostics.map(\.message))")
            try #require(file.units.count == 2)
            #expect(file.units[0].id.value == header && file.units[0].source.value == source, "\(version)")
            #expect(file.units[1].id.value.utf8.elementsEqual("com.example.premium/cafe\u{301}/body".utf8), "\(version)")
        }
    }

    @Test("expected ids are found by their bytes among thousands; equal by ids alone; a source is shared only when written the same")
    func expectedUnitsTable() throws {
        let ids = (0..<5000).map { "com.example.p\($0)/k/header" }
        let expected = ExpectedUnits(ids: ids + ids.prefix(10))
        #expect(expected.count == 5000)
        for (index, id) in ids.enumerated() where index % 7 == 0 {
            #expect(expected.index(of: id) == index)
            #expect(expected.id(at: index) == id)
        }
        #expect(expected.index(of: "com.example.p5000/k/header") == nil && expected.index(of: "") == nil)
        let withSources = ExpectedUnits(fields: ids.map { (id: $0, source: "Text of \($0)") })
        #expect(withSources == expected)
        #expect(withSources.source(at: 3, ifSameAs: Array("Text of \(ids[3])".utf8)) == "Text of \(ids[3])")
        #expect(withSources.source(at: 3, ifSameAs: Array("Text of \(ids[4])".utf8)) == nil)
        #expect(expected.source(at: 3, ifSameAs: Array("Text of \(ids[3])".utf8)) == nil)

        // A unit's source is the file's own bytes where they differ from the field's text (NFD
        // against NFC), and the field's where they are the same.
        let header = "com.example.premium/k/header"
        let body = "com.example.premium/k/body"
        let fields = ExpectedUnits(fields: [(id: header, source: "Caf\u{E9} offer"), (id: body, source: "Caf\u{E9} offer")])
        let document = """
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="m" source-language="en-US" \
            target-language="de-DE" datatype="plaintext"><body>\
            <trans-unit id="\(header)"><source>Caf\u{E9} offer</source><target>x</target></trans-unit>\
            <trans-unit id="\(body)"><source>Cafe\u{301} offer</source><target>y</target></trans-unit>\
            </body></file></xliff>
            """
        let (file, diagnostics) = XLIFFReader.read(bytes: Array(document.utf8), path: "translations/de-DE.xliff", expecting: fields)
        #expect(diagnostics.isEmpty)
        try #require(file.units.count == 2)
        #expect(Array(file.units[0].source.value.utf8) == Array("Caf\u{E9} offer".utf8))
        #expect(Array(file.units[1].source.value.utf8) == Array("Cafe\u{301} offer".utf8))
    }

    @Test("2.0: repeated names are reported as names; names that repeat give way to unique ids")
    func repeatedNames20() throws {
        // Symfony's XLIFF 2.0 dumper names each unit after its message key and writes no state.
        let (symfonyFile, symfonyDiagnostics) = Support.read("""
            <?xml version="1.0" encoding="utf-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="de-DE">
              <file id="messages.de-DE">
                <unit id="a1" name="p/k/header"><segment><source>a</source><target>Erste</target></segment></unit>
                <unit id="p:k:body" name="p/k/header"><segment><source>b</source><target>Zweite</target></segment></unit>
              </file>
            </xliff>
            """)
        #expect(symfonyDiagnostics.isEmpty)
        #expect(symfonyFile.units.map(\.id.value) == ["a1", "p/k/body"])
        #expect(symfonyFile.units.map(\.state) == [.translated, .translated])

        let (namedFile, namedDiagnostics) = Support.read("""
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en-US" trgLang="de-DE"><file id="f">
            <unit name="p/k/header"><segment><source>a</source><target>Erste</target></segment></unit>
            <unit name="p/k/header"><segment><source>a</source><target>Zweite</target></segment></unit>
            </file></xliff>
            """)
        #expect(namedDiagnostics.map(\.code) == ["XLF013"])
        #expect(namedDiagnostics.first?.message.hasPrefix("unit name 'p/k/header' appears again") == true)
        #expect(namedFile.units.map(\.isAmbiguous) == [true])
    }

    @Test("several <file> elements must agree on the target language")
    func conflictingTargetLanguages() {
        let (file, diagnostics) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file original="a" source-language="en-US" target-language="pt-BR" datatype="plaintext"><body>
            <trans-unit id="p/k/header"><source>a</source><target>A</target></trans-unit></body></file>
            <file original="b" source-language="en-US" target-language="pt_br" datatype="plaintext"><body>
            <trans-unit id="p/k/body"><source>b</source><target>B</target></trans-unit></body></file>
            <file original="c" source-language="en-US" target-language="fr-FR" datatype="plaintext"><body>
            <trans-unit id="p/k/image.alt"><source>c</source><target>C</target></trans-unit></body></file>
            <file original="d" source-language="en-US" datatype="plaintext"><body>
            <trans-unit id="p/k/bullets.1.text"><source>d</source><target>D</target></trans-unit></body></file>
            </xliff>
            """)
        #expect(file.isReadable)
        #expect(file.targetLanguage?.value == "pt-BR")
        #expect(file.units.map(\.id.value) == ["p/k/header", "p/k/body", "p/k/bullets.1.text"])
        #expect(diagnostics.map(\.code) == ["XLF010"])
        #expect(diagnostics.first?.location.line == 6)
        #expect(diagnostics.first?.message
            == "this <file> has target-language 'fr-FR' but an earlier one has 'pt-BR'; its units are ignored")
    }

    @Test("a file without target language is reported", arguments: [
        """
        <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
        <file original="a" source-language="en-US" datatype="plaintext"><body/></file></xliff>
        """,
        """
        <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US">
        <file id="f"><unit id="u"><segment><source>a</source></segment></unit></file></xliff>
        """,
    ])
    func missingTargetLanguage(text: String) {
        let (file, diagnostics) = Support.read(text)
        #expect(file.isReadable)
        #expect(file.targetLanguage == nil)
        #expect(diagnostics.map(\.code) == ["XLF011"])
        #expect(diagnostics.first?.location.line == (text.contains("2.0") ? 1 : 2))
    }

    @Test("units without id or source are ignored with a warning")
    func incompleteUnits() {
        let (file, diagnostics) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file original="a" source-language="en-US" target-language="de-DE" datatype="plaintext"><body>
            <trans-unit resname="x"><source>a</source><target>A</target></trans-unit>
            <trans-unit id="p/k/header"><target>A</target></trans-unit>
            <trans-unit id="p/k/body"><source>b</source></trans-unit>
            </body></file></xliff>
            """)
        #expect(file.units.map(\.id.value) == ["p/k/body"])
        #expect(diagnostics.map(\.code) == ["XLF012", "XLF012"])
        #expect(diagnostics.map(\.severity) == [.warning, .warning])
        #expect(diagnostics.map(\.message) == [
            "<trans-unit> has no id and is ignored", "unit 'p/k/header' has no source text and is ignored",
        ])
    }

    // MARK: - Positions in big files

    @Test("line numbers stay exact past line 65,535 (libxml2 2.9 caps its own)")
    func bigLineNumbers() {
        let padding = String(repeating: "\n", count: 70_000)
        let (file, diagnostics) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file original="a" source-language="en-US" target-language="de-DE" datatype="plaintext"><body>\(padding)
              <trans-unit id="p/k/header"><source>a</source><target>A</target></trans-unit>
            </body></file></xliff>
            """)
        #expect(diagnostics.isEmpty)
        #expect(file.units.first?.location.line == 70_003)
        #expect(file.units.first?.location.column == 3)
        #expect(file.units.first?.target?.location.column == 57)
    }

    @Test("CR LF and lone CR line breaks count as XML counts them")
    func lineBreaks() {
        let (file, _) = Support.read(
            "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\r\n"
                + "<file original=\"a\" source-language=\"en\" target-language=\"de\" datatype=\"plaintext\"><body>\r"
                + "<trans-unit id=\"p/k/header\">\r\n  <source>a</source><target>A</target></trans-unit></body></file></xliff>")
        #expect(file.units.first?.location.line == 3)
        #expect(file.units.first?.source.location.line == 4)
        #expect(file.units.first?.source.location.column == 11)
    }

    @Test("what straddles a boundary between the pieces libxml2 is fed keeps its text and exact position")
    func chunkBoundaries() throws {
        // Each unit is placed so that one chunk boundary falls inside it at a chosen byte: in
        // a CR LF, the id value, a three-byte character, an entity reference, an end tag.
        struct Placed {
            var unit: [UInt8]
            var split: Int
            var id: String
            var target: String
        }
        let units: [Placed] = (0..<10).map { index in
            let id = "com.example.p/key-\(index)/header"
            let tail = ["\r\n", "", "", "", ""][index % 5]
            let target = "Bleib dabei — für immer & ewig \(index)"
            let written = target.replacingOccurrences(of: "&", with: "&amp;")
            let unit = Array("  <trans-unit id=\"\(id)\"><source>Stay</source><target>\(written)</target></trans-unit>\(tail)\n".utf8)
            let marker: [UInt8] = switch index % 5 {
            case 0: Array("\r\n".utf8)
            case 1: Array("key-".utf8)
            case 2: Array("—".utf8)
            case 3: Array("&amp;".utf8)
            default: Array("</target>".utf8)
            }
            let start = try! #require(unit.firstRange(of: marker)).lowerBound
            return Placed(unit: unit, split: start + 1, id: id, target: target)
        }
        let chunkSize = 4096
        var bytes = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file original="a" source-language="en-US" target-language="de-DE" datatype="plaintext"><body>

            """.utf8)
        var unitStarts: [Int] = []
        for (index, placed) in units.enumerated() {
            // The reader hands libxml2 four bytes first, then pieces of `chunkSize`.
            let boundary = 4 + (index + 1) * chunkSize
            let padding = boundary - placed.split - bytes.count
            try #require(padding >= 0)
            bytes += Array(repeating: UInt8(ascii: " "), count: padding)
            unitStarts.append(bytes.count)
            bytes += placed.unit
        }
        bytes += Array("</body></file></xliff>\n".utf8)

        /// Line and column (in scalars) of byte `offset`, counting CR LF as one line break.
        func position(_ offset: Int) -> (line: Int, column: Int) {
            let before = String(decoding: bytes[..<offset], as: UTF8.self)
            let lines = before.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            return (lines.count, lines.last!.unicodeScalars.count + 1)
        }
        let (file, diagnostics) = XLIFFReader.read(bytes: bytes, path: "translations/de-DE.xlf", chunkSize: chunkSize)
        #expect(diagnostics.isEmpty)
        try #require(file.units.count == units.count)
        for (index, (unit, placed)) in zip(file.units, units).enumerated() {
            let start = unitStarts[index] + 2
            let idStart = start + "<trans-unit id=\"".utf8.count
            let targetStart = start + placed.unit.firstRange(of: Array("<target>".utf8))!.upperBound - 2
            #expect(unit.id.value == placed.id)
            #expect(unit.target?.value == placed.target)
            #expect((unit.location.line, unit.location.column) == position(start), "unit \(index)")
            #expect((unit.id.location.line, unit.id.location.column) == position(idStart), "unit \(index)")
            #expect((unit.target?.location.line, unit.target?.location.column) == position(targetStart), "unit \(index)")
        }
    }

    @Test("every fixture reads the same whatever the size of the pieces libxml2 is fed")
    func chunkSizeMakesNoDifference() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Support.fixturesDirectory.path).sorted()
            .filter { $0.hasSuffix(".xlf") || $0.hasSuffix(".xliff") || $0.hasSuffix(".xml") }
        #expect(names.count >= 20)
        for name in names {
            let bytes = try Support.fixtureBytes(name)
            let whole = XLIFFReader.read(bytes: bytes, path: "translations/\(name)")
            for chunkSize in [1, 7, 4096] {
                let pieces = XLIFFReader.read(bytes: bytes, path: "translations/\(name)", chunkSize: chunkSize)
                #expect(pieces.0 == whole.0, "\(name), \(chunkSize)-byte pieces")
                #expect(pieces.1 == whole.1, "\(name), \(chunkSize)-byte pieces: \(pieces.1.map(\.message)) vs \(whole.1.map(\.message))")
            }
        }
    }

    @Test("reading is safe from several threads at once")
    func concurrentReads() async throws {
        let bytes = try Support.fixtureBytes("v12-states.xlf")
        let expected = XLIFFReader.read(bytes: bytes, path: "t.xlf").0
        try await withThrowingTaskGroup(of: TranslationFile.self) { group in
            for _ in 0..<8 {
                group.addTask { XLIFFReader.read(bytes: bytes, path: "t.xlf").0 }
            }
            for try await file in group {
                #expect(file == expected)
            }
        }
    }

    // MARK: - Columns inside a text

    /// The 1-based column where `needle` starts in `line`, a line of a test document.
    func column(of needle: String, in line: String) throws -> Int {
        let range = try #require(line.range(of: needle))
        return line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: range.lowerBound) + 1
    }

    @Test("a 1.2 target with references, inline elements and CDATA knows where each character is written")
    func mappedColumns12() throws {
        let line = #"<trans-unit id="p/k/header"><source>Stay</source><target>Ünd &amp; Deine&#x200B;x <g id="1">fett</g><x id="2"/><ph id="3">{0}</ph> <![CDATA[<&>]]>!</target></trans-unit>"#
        let (file, _) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file source-language="en-US" target-language="de-DE"><body>
            \(line)
            </body></file></xliff>
            """)
        let target = try #require(file.unit("p/k/header")?.target)
        #expect(target.value == "Ünd & Deine\u{200B}x fett <&>!")
        guard case .mapped = target.style else {
            Issue.record("target is \(target.style), not mapped")
            return
        }
        let expected: [(offset: Int, column: Int)] = [
            (0, try column(of: "Ünd", in: line)),
            (4, try column(of: "&amp;", in: line)),
            (5, try column(of: "&amp;", in: line) + 5),
            (11, try column(of: "&#x200B;", in: line)),
            (12, try column(of: "&#x200B;", in: line) + 8),
            (14, try column(of: "fett", in: line)),
            (18, try column(of: "</ph> ", in: line) + 5),
            (19, try column(of: "<&>", in: line)),
            (22, try column(of: "]]>!", in: line) + 3),
            (23, try column(of: "</target>", in: line)),
        ]
        for (offset, column) in expected {
            #expect(target.location(atScalarOffset: offset).line == 3)
            #expect(target.location(atScalarOffset: offset).column == column, "scalar \(offset)")
        }
        let reference = target.location(atScalarOffset: 11)
        #expect(reference.endColumn == (try column(of: "&#x200B;", in: line)) + 8)
        #expect(target.location(atScalarOffset: 20, length: 3).endColumn == (try column(of: "</target>", in: line)))
        // Offsets past the end are at the end.
        #expect(target.location(atScalarOffset: 99).column == (try column(of: "</target>", in: line)))
    }

    @Test("a 2.0 <cp/> is where its element is written, and a comment or processing instruction adds nothing")
    func mappedColumns20() throws {
        let line = #"<unit id="u1" name="p/k/header"><segment state="translated"><source>Esc</source><target>Éch<cp hex="1B"/>ap<!-- c --><?pi x?> &lt; e</target></segment></unit>"#
        let (file, diagnostics) = Support.read("""
            <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US" trgLang="de-DE"><file id="f">
            \(line)
            </file></xliff>
            """)
        #expect(diagnostics.isEmpty)
        let target = try #require(file.unit("p/k/header")?.target)
        #expect(target.value == "Éch\u{1B}ap < e")
        #expect(target.location(atScalarOffset: 3).column == (try column(of: "<cp", in: line)))
        #expect(target.location(atScalarOffset: 3).endColumn == (try column(of: "ap<!--", in: line)))
        #expect(target.location(atScalarOffset: 4).column == (try column(of: "ap<!--", in: line)))
        #expect(target.location(atScalarOffset: 6).column == (try column(of: " &lt;", in: line)))
        #expect(target.location(atScalarOffset: 7).column == (try column(of: "&lt;", in: line)))
        #expect(target.location(atScalarOffset: 9).column == (try column(of: "e</target>", in: line)))
    }

    @Test("a text over several lines, or split over segments, is located by its start only")
    func unmappedTexts() {
        let (file, _) = Support.read("""
            <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US" trgLang="de-DE"><file id="f">
            <unit id="a"><segment><source>One &amp;
            two</source><target>Eins &amp; zwei</target></segment></unit>
            <unit id="b"><segment><source>A.</source><target>&lt;A.</target></segment><segment><source>B.</source><target>B.</target></segment></unit>
            </file></xliff>
            """)
        #expect(file.unit("a")?.source.style == .opaque)
        #expect(file.unit("a")?.target?.location(atScalarOffset: 7).column == 32)
        #expect(file.unit("b")?.target?.style == .opaque)
        #expect(file.unit("b")?.source.style == .opaque)
    }
}
