@testable import Lint
import Diagnostics
import Model
import Testing

/// Findings inside an XLIFF target written with references, `<cp/>` or CDATA point at the
/// character they are about, as in a target written plainly: a character written as a
/// reference or `<cp/>` at its `&` or `<`, any other at itself.
@Suite struct TextLocationTests {
    /// The example message's fields other than the header, with their sources and targets.
    static let otherFields = [
        ("body", "Keep your yearly plan and save 50% on your next renewal.", "Behalte dein Jahresabo und spare 50 %."),
        ("image.alt", "Readers with the morning edition", "Leser mit der Morgenausgabe"),
        ("bullets.1.text", "Unlimited articles", "Unbegrenzte Artikel"),
        ("bullets.1.alt", "Check mark", "Haken"),
    ]

    /// The example tree with a German XLIFF file that translates every field of the example
    /// message (a partial translation is not linted), whose header target is `target` written
    /// as is (`⟦…⟧` marks the expected spans), in XLIFF 1.2 or 2.0.
    static func tree(headerTarget target: String, version2: Bool = false) -> ExampleTree {
        let prefix = "com.example.news.premium.yearly/winback/"
        let units = [("header", "Stay with Premium", target)] + otherFields
        let xliff: String
        if version2 {
            xliff = """
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US" trgLang="de-DE">
                  <file id="f1">

                """ + units.enumerated().map { index, unit in
                    "    <unit id=\"u\(index)\" name=\"\(prefix)\(unit.0)\"><segment state=\"translated\">"
                        + "<source>\(unit.1)</source><target>\(unit.2)</target></segment></unit>\n"
                }.joined() + """
                  </file>
                </xliff>

                """
        } else {
            xliff = """
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
                  <file original="msgc" source-language="en-US" target-language="de-DE" datatype="plaintext">
                    <body>

                """ + units.map { unit in
                    "      <trans-unit id=\"\(prefix)\(unit.0)\"><source>\(unit.1)</source>"
                        + "<target state=\"translated\">\(unit.2)</target></trans-unit>\n"
                }.joined() + """
                    </body>
                  </file>
                </xliff>

                """
        }
        return ExampleTree(.invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": xliff]))
    }

    static func findings(_ code: String, in tree: ExampleTree) throws -> [ExampleTree.Span] {
        try RuleExamplesTests.diagnostics(for: tree).filter { $0.code == code }.map { diagnostic in
            let location = diagnostic.location
            return ExampleTree.Span(
                path: location.path, line: location.line, column: location.column, endLine: location.endLine,
                endColumn: location.endColumn)
        }
    }

    @Test func lengthLimitIsCrossedWhereTheCharacterIsWrittenAfterAReference() throws {
        let tree = Self.tree(headerTarget: "Ünd &amp; Deine Lernserie wartet auf dich, jeden einzelnen Tag, für im⟦mer und ewig, wirklich⟧")
        let found = try Self.findings("LEN001", in: tree)
        #expect(found == tree.expected)
    }

    @Test func characterWrittenAsAReferenceIsFoundAtItsAmpersand() throws {
        let tree = Self.tree(headerTarget: "Deine Lernserie⟦&#x200B;⟧wartet &lt;3")
        let found = try Self.findings("TXT007", in: tree)
        #expect(found == tree.expected)
    }

    @Test func charactersAfterCDATAAndCommentsAreFoundWhereTheyAreWritten() throws {
        let tree = Self.tree(headerTarget: "<![CDATA[A & B]]><!-- note --> Deine&amp;⟦\u{200B}⟧wartet")
        let found = try Self.findings("TXT007", in: tree)
        #expect(found == tree.expected)
    }

    @Test func codePointElementIsFoundAtItsStart() throws {
        let tree = Self.tree(headerTarget: "Bleiben Sie&amp;⟦<cp hex=\"1B\"/>⟧bei Premium", version2: true)
        let found = try Self.findings("TXT002", in: tree)
        #expect(found == tree.expected)
    }
}
