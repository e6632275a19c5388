import Compiler
import Diagnostics
import Foundation
import Model
import TestSupport
import Testing

/// The quick fixes that remove an invisible, control or bidi character (TXT002, TXT003,
/// TXT006, TXT007, TXT010), in YAML and in XLIFF: each edit, applied to the file as an editor
/// applies it, removes exactly the character as the file writes it (a YAML escape, an XML
/// character reference or the character itself), and where that would change anything else
/// no edit is offered.
@Suite struct CharacterFixTests {
    static let codes: Set<String> = ["TXT002", "TXT003", "TXT006", "TXT007", "TXT010"]

    /// Applies `edits` (scalar columns, as msgc's locations count) to `text`.
    static func apply(_ edits: [FixIt.Edit], to text: String) -> String {
        var lines = text.components(separatedBy: "\n").map { Array($0.unicodeScalars) }
        for edit in edits.sorted(by: { ($0.location.line!, $0.location.column!) > ($1.location.line!, $1.location.column!) }) {
            let line = edit.location.line! - 1
            #expect(edit.location.endLine == edit.location.line)
            lines[line].replaceSubrange((edit.location.column! - 1)..<(edit.location.endColumn! - 1), with: edit.replacement.unicodeScalars)
        }
        return lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
    }

    static let header = """
        messages:
          - key: winback
            product: com.example.app.yearly
            type: text
            default: true

        """

    /// One message source with `fields`, compiled with a German file whose targets are
    /// `targets` (header, body); the findings of the codes above, and every edit they offer.
    static func findings(fields: String, targets: (String, String)? = nil, sources: (String, String) = ("Stay with Premium", "Save on your next renewal.")) throws
        -> (tree: TemporaryTree, findings: [Diagnostic]) {
        var files = ["msgc.yaml": TemporaryTree.config, "messages/a.yaml": header + fields]
        if let targets {
            files["translations/de-DE.xliff"] = """
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
                  <file original="msgc" source-language="en-US" target-language="de-DE" datatype="plaintext">
                    <body>
                      <trans-unit id="com.example.app.yearly/winback/header" xml:space="preserve">
                        <source>\(sources.0)</source>
                        <target state="translated">\(targets.0)</target>
                      </trans-unit>
                      <trans-unit id="com.example.app.yearly/winback/body" xml:space="preserve">
                        <source>\(sources.1)</source>
                        <target state="translated">\(targets.1)</target>
                      </trans-unit>
                    </body>
                  </file>
                </xliff>

                """
        }
        let tree = try TemporaryTree(files)
        let compilation = Compilation.compile(root: tree.root)
        return (tree, compilation.diagnostics.filter { codes.contains($0.code) })
    }

    /// The file at `path` with every edit of `findings` in it applied, and what msgc finds then.
    static func fixed(_ tree: TemporaryTree, _ findings: [Diagnostic], path: String) throws -> (text: String, findings: [Diagnostic]) {
        let url = tree.root.appendingPathComponent(path)
        let edits = findings.flatMap { $0.fixIts.flatMap(\.edits) }.filter { $0.location.path == path }
        let text = apply(edits, to: try String(contentsOf: url, encoding: .utf8))
        try tree.write(path, text)
        let after = Compilation.compile(root: tree.root).diagnostics
        return (text, after)
    }

    @Test(arguments: [
        // A YAML escape, the character itself in double and single quotes and in a plain scalar.
        (#"    header: "Stay with\u200B Premium""#, #"    header: "Stay with Premium""#),
        ("    header: \"Stay with\u{200B} Premium\"", #"    header: "Stay with Premium""#),
        ("    header: 'It''s\u{200B} yours'", "    header: 'It''s yours'"),
        ("    header: Stay with\u{200B} Premium", "    header: Stay with Premium"),
        // A bidi override as an escape; a tab escape becomes a space; white space at the start.
        (#"    header: "Stay \u202Ewith Premium""#, #"    header: "Stay with Premium""#),
        (#"    header: "Stay\twith Premium""#, #"    header: "Stay with Premium""#),
        (#"    header: "\u00A0Stay with Premium""#, #"    header: "Stay with Premium""#),
        ("    header: \"Stay with Premium\u{200E}\"", #"    header: "Stay with Premium""#),
    ])
    func yamlFixesRemoveTheCharacterAsWritten(written: String, expected: String) throws {
        let (tree, findings) = try Self.findings(fields: written + "\n    body: Save on your next renewal.\n")
        #expect(findings.count == 1, "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.fixIts.first?.edits.count == 1 }, "\(findings)")
        let (text, after) = try Self.fixed(tree, findings, path: "messages/a.yaml")
        #expect(text.contains(expected + "\n"), "\(text)")
        #expect(after.isEmpty, "\(after.map(\.message))")
    }

    /// Where removing the character would change more than it (a plain scalar that would turn
    /// into a mapping, a sequence or a comment), the fix-it has no edit.
    @Test(arguments: [
        "    header: Note:\u{200B} Premium",
        "    header: \u{200B}- Premium",
        "    header: Stay \u{200B}#1",
        "    header: Stay:\u{200B}",
    ])
    func noEditWhereAPlainScalarWouldReadOtherwise(written: String) throws {
        let (_, findings) = try Self.findings(fields: written + "\n    body: Save on your next renewal.\n")
        #expect(findings.map(\.code) == ["TXT007"], "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.fixIts.allSatisfy(\.edits.isEmpty) })
    }

    @Test(arguments: [
        // A character reference, the character itself, a bidi override, a tab reference (a
        // space), a no-break space at the end.
        ("Bleiben Sie&#x200B; bei Premium", "Bleiben Sie bei Premium"),
        ("Bleiben Sie\u{200B} bei Premium", "Bleiben Sie bei Premium"),
        ("Bleiben Sie &#8238;bei Premium", "Bleiben Sie bei Premium"),
        ("Bleiben&#9;Sie bei Premium", "Bleiben Sie bei Premium"),
        ("Bleiben Sie bei Premium&#xA0;", "Bleiben Sie bei Premium"),
        ("&amp;&#x200B; Premium", "&amp; Premium"),
    ])
    func xliffFixesRemoveTheCharacterAsWritten(written: String, expected: String) throws {
        let fields = "    header: Stay with Premium\n    body: Save on your next renewal.\n"
        let (tree, findings) = try Self.findings(fields: fields, targets: (written, "Sparen Sie bei der nächsten Verlängerung."))
        #expect(findings.count == 1, "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.fixIts.first?.edits.count == 1 }, "\(findings)")
        let (text, after) = try Self.fixed(tree, findings, path: "translations/de-DE.xliff")
        #expect(text.contains("<target state=\"translated\">\(expected)</target>"), "\(text)")
        #expect(!after.contains { Self.codes.contains($0.code) || $0.code.hasPrefix("XLF") }, "\(after.map(\.message))")
    }

    /// XLIFF 2.0 writes a character XML cannot carry as `<cp hex="…"/>`: the edit removes the element.
    @Test func xliff2CodePointElementsAreRemovedWhole() throws {
        let fields = "    header: Stay with Premium\n    body: Save on your next renewal.\n"
        let (tree, _) = try Self.findings(fields: fields)
        try tree.write("translations/de-DE.xliff", """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US" trgLang="de-DE">
              <file id="f1">
                <unit id="com.example.app.yearly:winback:header" name="com.example.app.yearly/winback/header">
                  <segment>
                    <source>Stay with Premium</source>
                    <target>Bleiben Sie<cp hex="1B"/> bei Premium</target>
                  </segment>
                </unit>
              </file>
            </xliff>

            """)
        let findings = Compilation.compile(root: tree.root).diagnostics.filter { Self.codes.contains($0.code) }
        #expect(findings.map(\.code) == ["TXT002"], "\(findings.map(\.message))")
        let (text, after) = try Self.fixed(tree, findings, path: "translations/de-DE.xliff")
        #expect(text.contains("<target>Bleiben Sie bei Premium</target>"), "\(text)")
        #expect(!after.contains { Self.codes.contains($0.code) || $0.code.hasPrefix("XLF") }, "\(after.map(\.message))")
    }

    /// A character next to an inline element: the edit would take the tag with it, so there is none.
    @Test func noEditThatWouldTakeATagWithIt() throws {
        let fields = "    header: Stay with Premium\n    body: Save on your next renewal.\n"
        let (_, findings) = try Self.findings(
            fields: fields, targets: ("Bleiben Sie&#x200B;<g id=\"1\">bei</g> Premium", "Sparen Sie bei der nächsten Verlängerung."))
        #expect(findings.map(\.code) == ["TXT007"], "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.fixIts.allSatisfy(\.edits.isEmpty) })
    }
}
