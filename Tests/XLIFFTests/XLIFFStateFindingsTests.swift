import Diagnostics
import Model
import Testing
@testable import XLIFF

/// States explained as what they are: a value no XLIFF version defines (XLF014) and a unit with
/// no text whose state says it is done (XLF015), each at the attribute that says so.
@Suite("XLIFF state findings") struct XLIFFStateFindingsTests {
    typealias Support = XLIFFTestSupport

    static func file12(_ units: String) -> String {
        """
        <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
        <file source-language="en-US" target-language="de-DE"><body>
        \(units)
        </body></file></xliff>
        """
    }

    static func file20(_ units: String) -> String {
        """
        <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US" trgLang="de-DE"><file id="f">
        \(units)
        </file></xliff>
        """
    }

    @Test(arguments: [
        ("Translated", "translated"), ("FINAL", "final"), ("signed_off", "signed-off"), ("translate", "translated"),
        ("needs_review_l10n", "needs-review-l10n"),
    ])
    func aStateOutsideXLIFF12NamesTheNearestOne(raw: String, nearest: String) throws {
        let (file, diagnostics) = Support.read(Self.file12(
            #"<trans-unit id="p/k/header"><source>a</source><target state="\#(raw)">A</target></trans-unit>"#))
        let finding = try #require(diagnostics.first)
        #expect(diagnostics.count == 1)
        #expect(finding.code == "XLF014")
        #expect(finding.severity == .warning)
        #expect(finding.message.hasSuffix("the nearest state is '\(nearest)'"))
        // At the value: line 3, after `<trans-unit id="p/k/header"><source>a</source><target state="`.
        #expect(finding.location.line == 3)
        #expect(finding.location.column == 62)
        #expect(finding.location.endColumn == 62 + raw.count)
        #expect(finding.fixIts.first?.edits.first?.replacement == nearest)
        #expect(file.units.first?.state == .untranslated)
    }

    @Test func customAndKnownStatesAreNoFinding() {
        let (_, diagnostics) = Support.read(Self.file12("""
            <trans-unit id="p/k/a"><source>a</source><target state="x-machine-translated">A</target></trans-unit>
            <trans-unit id="p/k/b"><source>a</source><target state="needs-review-l10n">A</target></trans-unit>
            """))
        #expect(diagnostics.isEmpty)
    }

    @Test(arguments: [("signed-off", "reviewed"), ("needs-translation", "initial"), ("Final", "final"), ("x-done", "initial")])
    func aStateOutsideXLIFF20NamesTheNearestOne(raw: String, nearest: String) throws {
        let (_, diagnostics) = Support.read(Self.file20(
            #"<unit id="u" name="p/k/header"><segment state="\#(raw)"><source>a</source><target>A</target></segment></unit>"#))
        let finding = try #require(diagnostics.first)
        #expect(finding.code == "XLF014")
        #expect(finding.message.contains("is not an XLIFF 2.0 state"))
        // A 1.2 state is named by its meaning, a case slip or a tool's own as the nearest state.
        #expect(finding.message.hasSuffix("the nearest state is '\(nearest)'") || finding.message.hasSuffix("writes '\(nearest)'"), "\(finding.message)")
        #expect(finding.fixIts.first?.edits.first?.replacement == nearest)
        #expect(finding.notes.isEmpty == !raw.hasPrefix("x-"))
    }

    /// Empty, white-space and missing targets whose state or approval says "done" are reported;
    /// the same without a state (translate-toolkit's and memoQ's untranslated units) are not.
    @Test func emptyTargetsMarkedTranslatedAreReportedAtTheirClaim() {
        let (_, diagnostics) = Support.read(Self.file12("""
            <trans-unit id="p/k/final"><source>a</source><target state="final"></target></trans-unit>
            <trans-unit id="p/k/review"><source>a</source><target state="needs-review-translation"/></trans-unit>
            <trans-unit id="p/k/spaces"><source>a</source><target state="translated">   </target></trans-unit>
            <trans-unit id="p/k/approved" approved="yes"><source>a</source></trans-unit>
            <trans-unit id="p/k/po2xliff" xml:space="preserve"><source>a</source><target></target></trans-unit>
            <trans-unit id="p/k/memoq"><source>a</source><target xml:space="preserve" /></trans-unit>
            <trans-unit id="p/k/new"><source>a</source><target state="new"></target></trans-unit>
            <trans-unit id="p/k/not-approved" approved="no"><source>a</source><target></target></trans-unit>
            """))
        #expect(diagnostics.map(\.code) == ["XLF015", "XLF015", "XLF015", "XLF015"])
        #expect(diagnostics.map(\.location.line) == [3, 4, 5, 6])
        #expect(diagnostics[0].location.column == 61)
        #expect(diagnostics[0].location.endColumn == 66)
        #expect(diagnostics[0].message.contains("has an empty target, but state 'final' says it is translated"))
        #expect(diagnostics[2].message.contains("has a target of only white space"))
        // `approved="yes"` on the unit, at that attribute.
        #expect(diagnostics[3].message.contains("has no target, but approved=\"yes\" says it is translated"))
        #expect(diagnostics[3].location.column == 41)
        #expect(diagnostics.allSatisfy { $0.subject?.locale == "de-DE" && $0.severity == .warning })
    }

    @Test func xliff20SegmentsMarkedDoneWithoutTextAreReported() {
        let (_, diagnostics) = Support.read(Self.file20("""
            <unit id="u1" name="p/k/a"><segment state="reviewed"><source>a</source></segment></unit>
            <unit id="u2" name="p/k/b"><segment state="final"><source>a</source><target> </target></segment></unit>
            <unit id="u3" name="p/k/c"><segment><source>a</source><target/></segment></unit>
            <unit id="u4" name="p/k/d"><segment state="initial"><source>a</source><target/></segment></unit>
            """))
        #expect(diagnostics.map(\.code) == ["XLF015", "XLF015"])
        #expect(diagnostics[0].message.contains("has no target, but state 'reviewed'"))
        #expect(diagnostics[0].location.line == 2)
        #expect(diagnostics[0].location.column == 44)
    }

    /// A file with no target language says what it costs.
    @Test func aFileWithoutTargetLanguageSaysHowManyUnitsItCosts() throws {
        let (_, diagnostics) = Support.read("""
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file source-language="en-US"><body>
            <trans-unit id="p/k/a"><source>a</source><target>A</target></trans-unit>
            <trans-unit id="p/k/b"><source>b</source><target>B</target></trans-unit>
            </body></file></xliff>
            """)
        let finding = try #require(diagnostics.first { $0.code == "XLF011" })
        #expect(finding.message == "XLIFF file has no target language, so msgc cannot tell its locale and none of its 2 units is used; add target-language on <file>")
    }
}
