import Model

/// Renders diagnostics the way compilers do: `path:line:col: error: message [CODE]`, the
/// source line with a gutter and a marker under the span, then notes and fix-its.
public enum HumanRenderer {
    public static func render(_ diagnostics: [Diagnostic], options: RenderOptions) -> String {
        var output: [UInt8] = []
        write(diagnostics, options: options) { output += $0 }
        return String(decoding: output, as: UTF8.self)
    }

    /// The same text, handed to `write` in parts as it is made (`ReportText`).
    public static func write(_ diagnostics: [Diagnostic], options: RenderOptions, to write: ([UInt8]) -> Void) {
        let style = Style(enabled: options.useColor)
        let files = ReportFiles(options: options, forTerminal: true, snippets: true)
        ReportText.write(count: diagnostics.count, to: write) { indices, output in
            for index in indices { append(diagnostics[index], files: files, style: style, to: &output) }
        }
    }

    private static func append(_ diagnostic: Diagnostic, files: ReportFiles, style: Style, to output: inout ReportText) {
        style.append(.bold, to: &output) { position(diagnostic.location, files: files, to: &$0); $0 += ":" }
        output += " "
        let label = diagnostic.severity.rawValue + ":"
        switch diagnostic.severity {
        case .error: style.append(label, .red, to: &output)
        case .warning: style.append(label, .magenta, to: &output)
        case .note: style.append(label, .cyan, to: &output)
        }
        output += " "
        style.append(TerminalText.escaped(diagnostic.message), .bold, to: &output)
        output += " ["
        output += diagnostic.code
        output += "]\n"
        // A note, or a finding about a file as a whole (what it still lacks): a snippet of its
        // last line with a marker would point at nothing.
        if diagnostic.severity != .note && !diagnostic.isAboutWholeFile {
            snippet(for: diagnostic.location, files: files, style: style, to: &output)
        }
        for note in diagnostic.notes {
            output += "  "
            style.append("= note:", .cyan, to: &output)
            output += " "
            output += TerminalText.escaped(note.message)
            if let location = note.location {
                output += " ("
                position(location, files: files, to: &output)
                output += ")"
            }
            output += "\n"
        }
        for fixIt in diagnostic.fixIts {
            output += "  "
            style.append("= fix:", .green, to: &output)
            output += " "
            output += TerminalText.escaped(fixIt.message)
            output += "\n"
        }
    }

    private static func position(_ location: SourceLocation, files: ReportFiles, to output: inout ReportText) {
        output += files.path(location.file)
        if let line = location.line {
            output += ":"
            output += String(line)
            if let column = location.column {
                output += ":"
                output += String(column)
            }
        }
    }

    /// The most characters of a source line a snippet shows. A longer line (a minified XLIFF
    /// file, a hostile one nested 100,000 deep) is cut to this many around the column, with
    /// `…` where it was cut.
    static let maxSnippetScalars = 160

    private static func snippet(for location: SourceLocation, files: ReportFiles, style: Style, to output: inout ReportText) {
        guard let lineNumber = location.line, let source = files.source(location.file),
              let wholeLine = source.line(lineNumber) else { return }
        // A line longer than a snippet shows (a one-line XLIFF file of a megabyte, with a
        // finding every few hundred characters) is first cut, in its own scalars, to
        // `maxSnippetScalars` on either side of the column: each scalar shows as one or more, so
        // the window below lies inside the cut, and a snippet costs the same on any line.
        let (rawLine, skipped, cutAfter) = window(of: wholeLine, around: location.column ?? 1)
        // Invisible and control characters shown as `<U+200B>`: columns count the line's own
        // scalars, and are moved to where each is shown.
        let (shownLine, offsets) = TerminalText.snippetLine(rawLine)
        func shownColumn(_ lineColumn: Int) -> Int {
            let column = lineColumn - skipped
            guard let offsets, column >= 1 else { return column }
            return column - 1 < offsets.count ? offsets[column - 1] + 1 : offsets[offsets.count - 1] + column - offsets.count + 1
        }
        // Scalars counted from UTF-8: nearly every line is shown whole, and is then walked only
        // up to the end of its marker.
        let scalarCount = shownLine.unicodeScalarCount
        let isWhole = scalarCount <= maxSnippetScalars && skipped == 0 && !cutAfter
        let lower: Int
        let upper: Int
        let line: String
        let cut: [Unicode.Scalar]
        if !isWhole {
            let anchor = min(max(shownColumn(location.column ?? 1) - 1, 0), scalarCount)
            lower = max(0, min(anchor - maxSnippetScalars / 4, scalarCount - maxSnippetScalars))
            upper = lower + maxSnippetScalars
            cut = Array(shownLine.unicodeScalars.dropFirst(lower).prefix(maxSnippetScalars))
            line = (lower > 0 || skipped > 0 ? "…" : "") + String(String.UnicodeScalarView(cut)) + (upper < scalarCount || cutAfter ? "…" : "")
        } else {
            lower = 0
            upper = scalarCount
            cut = []
            line = shownLine
        }
        let gutter = String(lineNumber)
        output += " "
        output.appendSpaces(gutter.utf8.count)
        output += " "
        style.append("|", .blue, to: &output)
        output += "\n "
        style.append(gutter, .blue, to: &output)
        output += " "
        style.append("|", .blue, to: &output)
        output += " "
        output += line
        output += "\n"
        guard let column = location.column.map(shownColumn) else { return }
        let shown = upper - lower
        let start = lower + min(max(column - 1 - lower, 0), shown)
        var end = start + 1
        if location.endLine == lineNumber, let endColumn = location.endColumn.map(shownColumn) {
            end = lower + min(max(endColumn - 1 - lower, start - lower + 1), max(shown, start - lower + 1))
        }
        let before: Int
        let marked: Int
        if isWhole {
            before = TerminalWidth.of(shownLine, scalars: 0..<start)
            marked = TerminalWidth.of(shownLine, scalars: start..<max(start, min(end, upper)))
        } else {
            before = (lower > 0 || skipped > 0 ? 1 : 0) + TerminalWidth.of(cut[0..<(start - lower)])
            marked = TerminalWidth.of(cut[(start - lower)..<(min(end, upper) - lower)])
        }
        output += " "
        output.appendSpaces(gutter.utf8.count)
        output += " "
        style.append("|", .blue, to: &output)
        output += " "
        output.appendSpaces(before)
        style.append(.green, to: &output) { output in
            output += "^"
            output.appendTildes(marked - 1)
        }
        output += "\n"
    }

    /// `line` cut to `maxSnippetScalars` scalars on either side of scalar `column` (1-based),
    /// with how many scalars were cut before and whether any were cut after; the line itself
    /// when it is not much longer than that. Found from the line's UTF-8 (a scalar starts at
    /// each byte that is not a continuation byte), without decoding it.
    static func window(of line: String, around column: Int) -> (line: String, skipped: Int, cutAfter: Bool) {
        let reach = maxSnippetScalars
        guard line.utf8.count > 2 * reach + 1 else { return (line, 0, false) }
        var line = line
        return line.withUTF8 { bytes in
            // Where scalar `wanted` starts; the end and the count of scalars when the line has fewer.
            func byteIndex(ofScalar wanted: Int) -> (index: Int, scalars: Int) {
                var scalar = -1
                for index in 0..<bytes.count where bytes[index] & 0xC0 != 0x80 {
                    scalar += 1
                    if scalar == wanted { return (index, scalar) }
                }
                return (bytes.count, scalar + 1)
            }
            let anchor = max(column - 1, 0)
            let (end, counted) = byteIndex(ofScalar: anchor + reach)
            // Past the line's end (a column beyond it), the window is its last scalars.
            let first = end == bytes.count ? max(0, min(anchor, counted) - reach) : max(0, anchor - reach)
            let start = byteIndex(ofScalar: first).index
            if start == 0 && end == bytes.count { return (String(decoding: bytes, as: UTF8.self), 0, false) }
            return (String(decoding: bytes[start..<end], as: UTF8.self), first, end < bytes.count)
        }
    }

    struct Style {
        let enabled: Bool

        enum Code: String {
            case bold = "1", red = "1;31", magenta = "1;35", cyan = "1;36", green = "1;32", blue = "1;34"
        }

        /// What `body` appends, between the escape sequences of `code` when colour is on.
        func append(_ code: Code, to output: inout ReportText, _ body: (inout ReportText) -> Void) {
            guard enabled else { return body(&output) }
            output += "\u{1B}["
            output += code.rawValue
            output += "m"
            body(&output)
            output += "\u{1B}[0m"
        }

        func append(_ text: String, _ code: Code, to output: inout ReportText) {
            append(code, to: &output) { $0 += text }
        }
    }
}

/// How many terminal cells text takes: grapheme clusters, two cells for East Asian wide ones.
enum TerminalWidth {
    static func of<C: Collection>(_ scalars: C) -> Int where C.Element == Unicode.Scalar {
        // Printable ASCII and the letters of the scripts most snippets are in: each such scalar
        // is a grapheme cluster of its own, whatever such scalars stand beside it, so their
        // widths add up without grapheme breaking or Unicode property lookups, which cost more
        // than the rest of a snippet's line.
        var total = 0
        for scalar in scalars {
            guard let width = ownClusterWidth(scalar) else { return clusterWidth(of: scalars) }
            total += width
        }
        return total
    }

    /// The cells of the scalars at offsets `range` of `text`: `of(_:)` read straight from the
    /// text's UTF-8, where walking a string's scalars checked each index and cost more than
    /// measuring them.
    static func of(_ text: String, scalars range: Range<Int>) -> Int {
        var text = text
        let measured: Int? = text.withUTF8 { bytes in
            var index = 0
            var offset = 0
            var total = 0
            while index < bytes.count, offset < range.upperBound {
                // A String's UTF-8 is valid, which is all the decoder asks.
                let value = UTF8Bytes.decodeScalar(bytes, at: &index)
                if offset >= range.lowerBound {
                    guard let scalar = Unicode.Scalar(value), let width = ownClusterWidth(scalar) else { return nil }
                    total += width
                }
                offset += 1
            }
            return total
        }
        return measured ?? clusterWidth(of: text.unicodeScalars.dropFirst(range.lowerBound).prefix(range.count))
    }

    /// The cells of `scalar` when it is a grapheme cluster of its own beside any scalar this
    /// also answers for (Unicode's grapheme break property Other, neither an emoji nor a
    /// control): nil for the rest, marks, joiners and Hangul jamo among them. A test holds each
    /// range to what grapheme breaking and `width(of:)` make of it.
    static func ownClusterWidth(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF,  // ASCII, Latin-1 and Latin Extended (not the soft hyphen)
             0x370...0x377, 0x37A...0x37F, 0x384...0x38A, 0x38C, 0x38E...0x3A1, 0x3A3...0x3FF,  // Greek
             0x400...0x482, 0x48A...0x52F,  // Cyrillic, without its combining marks
             0x5D0...0x5EA,  // Hebrew letters
             0x620...0x64A, 0x660...0x66F, 0x671...0x6D5,  // Arabic letters and digits
             0xE01...0xE30, 0xE32, 0xE3F...0xE46:  // Thai consonants and the vowels that stand alone
            return 1
        case 0x3000...0x3029, 0x3030...0x303E, 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC...0x30FF,  // CJK punctuation, kana
             0x4E00...0x9FFF,  // CJK ideographs
             0xAC00...0xD7A3,  // Hangul syllables
             0xFF01...0xFF60:  // fullwidth forms
            return 2
        default:
            return nil
        }
    }

    /// The cells of each grapheme cluster, added up.
    static func clusterWidth<C: Collection>(of scalars: C) -> Int where C.Element == Unicode.Scalar {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text).reduce(0) { $0 + width(of: $1) }
    }

    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.properties.generalCategory == .control { return 0 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return first.properties.isEmojiPresentation ? 2 : 1
        }
    }
}

