@testable import Diagnostics
import Model
import Testing

@Suite struct TerminalTextTests {
    /// The byte-level test that lets most text through unchanged picks exactly the scalars
    /// `isHazard` picks, alone and between other text.
    @Test func theFastTestAgreesWithIsHazardForEveryScalar() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "é"
            #expect(TerminalText.containsHazard(text) == TerminalText.isHazard(scalar), "U+\(String(value, radix: 16))")
            if TerminalText.containsHazard(text) != TerminalText.isHazard(scalar) { return }
        }
        #expect(!TerminalText.containsHazard("Stay with Premium — 50 % · 日本語 · العربية"))
        // Printable ASCII passes eight bytes at a time: a hazard is found at every place of a word.
        for hazard in ["\u{0}", "\t", "\u{1B}", "\u{7F}", "\u{85}", "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{61C}"] {
            for before in 0...17 {
                for after in [0, 1, 7, 8, 9] {
                    let text = String(repeating: "a", count: before) + hazard + String(repeating: "~", count: after)
                    #expect(TerminalText.containsHazard(text), "\(before) before, \(after) after")
                }
            }
        }
        #expect(TerminalText.escaped("plain") == "plain")
    }

    @Test func messagesNeverCarryRawBidiOrControlCharacters() {
        let diagnostic = Diagnostic(
            code: "TRN001", severity: .warning, location: SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 1),
            message: "the source is now 'Stay \u{202E}with\u{1B}[2J us'")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions())
        #expect(output.contains("'Stay <U+202E>with<U+001B>[2J us'"))
        #expect(!output.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B })
    }

    @Test func githubAnnotationsNeverCarryThemEither() {
        let diagnostic = Diagnostic(
            code: "TRN001", severity: .warning, location: SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 1),
            message: "the source is now 'Stay \u{202E}with\u{1B}[2J us'",
            notes: [Note("the translation: 'Bleib\u{200B}'")], fixIts: [FixIt("write 'a\u{7}b'")])
        let output = GitHubRenderer.render([diagnostic], options: RenderOptions())
        #expect(output == "::warning file=translations/de-DE.xliff,line=1,col=1,title=TRN001::"
            + "the source is now 'Stay <U+202E>with<U+001B>[2J us'%0Anote: the translation: 'Bleib<U+200B>'%0Afix: write 'a<U+0007>b'\n")
    }

    /// An invisible, control or bidi character shows in a snippet as its code point, never as
    /// itself or as U+FFFD, and the marker covers it and keeps pointing at what follows.
    @Test func snippetsShowHazardsAsCodePoints() {
        let source = SourceFile(path: "messages/a.yaml", text: "    header: \"a\u{202E}b\u{200B}c\tdef\u{AD}g\u{E0041}\"\n")
        func render(column: Int, endColumn: Int) -> String {
            let diagnostic = Diagnostic(
                code: "TXT003", severity: .error,
                location: SourceLocation(path: "messages/a.yaml", line: 1, column: column, endLine: 1, endColumn: endColumn),
                message: "header contains a character")
            return HumanRenderer.render([diagnostic], options: RenderOptions(sources: ["messages/a.yaml": source]))
        }
        let line = " 1 |     header: \"a<U+202E>b<U+200B>c def<U+00AD>g<U+E0041>\"\n"
        func marker(_ offset: Int, _ width: Int) -> String {
            "   | " + String(repeating: " ", count: offset) + "^" + String(repeating: "~", count: width - 1) + "\n"
        }
        #expect(render(column: 15, endColumn: 16).contains(line + marker(14, 8)))
        #expect(render(column: 17, endColumn: 18).contains(line + marker(23, 8)))
        // Past the characters shown wider, the marker still points at its own characters.
        #expect(render(column: 20, endColumn: 23).contains(line + marker(33, 3)))
        #expect(render(column: 23, endColumn: 24).contains(line + marker(36, 8)))
        #expect(render(column: 25, endColumn: 26).contains(line + marker(45, 9)))
        #expect(!render(column: 15, endColumn: 16).unicodeScalars.contains { $0.value == 0xFFFD || $0.value == 0x200B || $0.value == 0xAD })
    }

    /// Every control, format character (but the prepended concatenation marks, which show) and
    /// line or paragraph separator is a hazard; so are the Hangul fillers and the noncharacters,
    /// and nothing else.
    @Test func hazardsAreTheInvisibleAndControlClasses() {
        let prepended: Set<UInt32> = [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD]
        let fillers: Set<UInt32> = [0x115F, 0x1160, 0x3164, 0xFFA0]
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            let expected = (category == .control || category == .format || category == .lineSeparator || category == .paragraphSeparator)
                && !prepended.contains(value) || fillers.contains(value) || scalar.properties.isNoncharacterCodePoint
            #expect(TerminalText.isHazard(scalar) == expected, "U+\(String(value, radix: 16))")
            if TerminalText.isHazard(scalar) != expected { return }
        }
    }

    @Test func aVeryLongLineIsCutToAWindowAroundTheColumn() {
        // One line of 300,000 characters, as in a minified or hostile file: the snippet shows
        // 160 of them around column 200,002, and the marker still points at that column.
        let text = String(repeating: "<g>", count: 100_000)
        let source = SourceFile(path: "translations/de-DE.xliff", text: text + "\n")
        let diagnostic = Diagnostic(
            code: "XLF005", severity: .error,
            location: SourceLocation(path: "translations/de-DE.xliff", line: 1, column: 200_002, endLine: 1, endColumn: 200_005),
            message: "elements nest deeper than 64 levels")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions(sources: ["translations/de-DE.xliff": source]))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        let shown = lines[2].dropFirst(" 1 | ".count)
        #expect(shown.unicodeScalars.count == 1 + HumanRenderer.maxSnippetScalars + 1)
        #expect(shown.hasPrefix("…") && shown.hasSuffix("…"))
        let marker = lines[3].dropFirst("   | ".count)
        #expect(marker.drop { $0 == " " } == "^~~")
        // The marked characters are the column's own: "<g>" starting at 200,002.
        let markerOffset = marker.prefix { $0 == " " }.count
        #expect(String(Array(shown)[markerOffset..<(markerOffset + 3)]) == "<g>")
    }

    /// The WorldServer file: a megabyte of XLIFF on one line that starts with a tab,
    /// its text full of tabs, soft hyphens, LRM/RLM and emoji joined by ZWJ, and a finding at
    /// every `<target`. Each snippet is a window of the line with the marker under the
    /// finding's own characters, however far along the line and whatever precedes it: the
    /// renderer cuts the line before it escapes it, so its work does not grow with the line.
    @Test func aOneLineMegabyteXLIFFWithTabsAndJoinersIsShownRightAtEveryFinding() {
        let unit = "<trans-unit id=\"u\"><source>Stay\twith us \u{200E}today\u{200F}</source>"
            + "<target>Bleib\u{AD}en \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\tbei uns\u{200B}</target></trans-unit>\t"
        let text = "\t<xliff>" + String(repeating: unit, count: 1_048_576 / unit.utf8.count) + "</xliff>"
        // The column of every `<target`, counted in scalars; a finding at every 40th of them,
        // the first and the last (the renderer's cost per snippet does not depend on which).
        var allColumns: [Int] = []
        var column = 0
        var previous: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            column += 1
            previous.append(scalar)
            if previous.count > 7 { previous.removeFirst() }
            if scalar == "t", previous.count == 7, String(String.UnicodeScalarView(previous)) == "<target" { allColumns.append(column - 6) }
        }
        #expect(allColumns.count > 4_000)
        let columns = allColumns.enumerated().filter { $0.offset % 40 == 0 || $0.offset == allColumns.count - 1 }.map(\.element)
        let source = SourceFile(path: "translations/ja.xliff", text: text + "\n", lineBreaks: .xml)
        let diagnostics = columns.map { column in
            Diagnostic(code: "TXT012", severity: .warning,
                       location: SourceLocation(path: "translations/ja.xliff", line: 1, column: column, endLine: 1, endColumn: column + 8),
                       message: "a finding")
        }
        let output = HumanRenderer.render(diagnostics, options: RenderOptions(sources: ["translations/ja.xliff": source]))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        var checked = 0
        for (number, line) in lines.enumerated() where line.hasPrefix(" 1 | ") {
            let shown = Array(line.dropFirst(" 1 | ".count))
            let marker = lines[number + 1].dropFirst("   | ".count)
            let offset = marker.prefix { $0 == " " }.count
            // A window, never the whole line; the marker under `<target>`, whatever the tabs,
            // `<U+00AD>`, `<U+200E>` before it; the family emoji shown as itself.
            #expect(shown.count <= HumanRenderer.maxSnippetScalars + 2 && shown.first == "…")
            #expect(String(shown[offset..<min(shown.count, offset + 8)]) == "<target>", "\(String(shown))")
            #expect(marker.drop { $0 == " " } == "^~~~~~~~")
            #expect(String(shown).contains("<U+200E>") && !String(shown).contains("\t"))
            checked += 1
        }
        #expect(checked == columns.count)
        #expect(output.contains("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}") && !output.contains("<U+200D>"))
        #expect(output.contains("<U+00AD>") && output.contains("<U+200B>"))
    }

    /// A zero width joiner inside an emoji sequence shows as itself, in messages and snippets;
    /// one between letters or at the end of a sequence is still `<U+200D>`.
    @Test func aJoinerInsideAnEmojiShowsAsItself() {
        #expect(TerminalText.escaped("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} ok") == "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} ok")
        #expect(TerminalText.escaped("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}") == "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}")
        #expect(TerminalText.escaped("\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}") == "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}")
        #expect(TerminalText.escaped("a\u{200D}b") == "a<U+200D>b")
        #expect(TerminalText.escaped("\u{1F468}\u{200D}") == "\u{1F468}<U+200D>")
        #expect(TerminalText.escaped("1\u{200D}\u{1F468}") == "1<U+200D>\u{1F468}")
        let (shown, offsets) = TerminalText.snippetLine("\t\u{1F468}\u{200D}\u{1F469}\u{200B}")
        #expect(shown == " \u{1F468}\u{200D}\u{1F469}<U+200B>")
        #expect(offsets == [0, 1, 2, 3, 4, 12])
    }

    @Test func aLongLineNearItsStartIsCutAtTheEndOnly() {
        let text = "header: " + String(repeating: "x", count: 400)
        let source = SourceFile(path: "messages/a.yaml", text: text + "\n")
        let diagnostic = Diagnostic(
            code: "LEN001", severity: .error, location: SourceLocation(path: "messages/a.yaml", line: 1, column: 9),
            message: "header is too long")
        let output = HumanRenderer.render([diagnostic], options: RenderOptions(sources: ["messages/a.yaml": source]))
        #expect(output.contains(" 1 | header: " + String(repeating: "x", count: HumanRenderer.maxSnippetScalars - 8) + "…\n"))
        #expect(output.contains("   |         ^\n"))
    }

    /// The scalars whose widths are added up without grapheme breaking are each a grapheme
    /// cluster of their own next to any of them (tested beside a letter and beside themselves,
    /// before and after: a scalar that extends, prepends or pairs up fails one of these), and
    /// take the cells `width(of:)` gives them.
    @Test func scalarsMeasuredAloneAreClustersOfTheirOwn() {
        var measured = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let width = TerminalWidth.ownClusterWidth(scalar) else { continue }
            measured += 1
            let alone = String(Character(scalar))
            let ok = (alone + "a").count == 2 && ("a" + alone).count == 2 && (alone + alone).count == 2
                && TerminalWidth.width(of: Character(scalar)) == width
            #expect(ok, "U+\(String(value, radix: 16))")
            if !ok { return }
        }
        #expect(measured > 30_000)
        #expect(TerminalWidth.of("Stay with Premium".unicodeScalars) == 17)
        #expect(TerminalWidth.of("日本語とعربي".unicodeScalars) == 12)
        #expect(TerminalWidth.of("e\u{301}日\u{3099}".unicodeScalars) == 3)
        #expect(TerminalWidth.of("👨\u{200D}👩\u{200D}👧 ok".unicodeScalars) == 5)
        // Read from UTF-8, a range of a line's scalars measures what the same scalars do.
        for text in ["", "<source>Stay</source>", "Grüße, 日本語とعربي", "e\u{301}x 👨\u{200D}👩 \u{1F600}", "ก\u{E31}บ한\u{11A8}"] {
            let scalars = Array(text.unicodeScalars)
            for lower in 0...scalars.count {
                for upper in lower...scalars.count {
                    #expect(TerminalWidth.of(text, scalars: lower..<upper) == TerminalWidth.of(scalars[lower..<upper]), "\(text) \(lower)..<\(upper)")
                }
            }
        }
    }
}
