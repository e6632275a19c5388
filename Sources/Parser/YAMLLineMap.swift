internal import Yams

/// Converts libyaml's lines and columns to msgc's, for files where the two count lines differently.
///
/// libyaml breaks a line at a carriage return alone, U+0085, U+2028 and U+2029 as well as at a
/// line feed. msgc breaks lines where editors do, at line feeds only (a carriage return just
/// before one is part of the break), as `SourceFile.line` does for snippets. Every position
/// libyaml gives is converted, or lines after such a character would be off by one each time,
/// and snippets, columns and fix-it edits with them.
struct YAMLLineMap {
    /// For each line libyaml counts, msgc's 1-based line it starts on and the Unicode scalars
    /// before it there; empty when every line break of the text is one msgc counts too.
    private var starts: [(line: Int, scalarsBefore: Int)] = []

    init(_ text: String) {
        guard Self.hasBreaksOnlyLibYAMLCounts(text) else { return }
        let bytes = Array(text.utf8)
        var line = 1
        var scalarsBefore = 0
        var starts = [(line: 1, scalarsBefore: 0)]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isCRLF = byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")
            if byte == UInt8(ascii: "\n") || isCRLF {
                line += 1
                scalarsBefore = 0
                index += isCRLF ? 2 : 1
                starts.append((line, 0))
                continue
            }
            let breakLength = Self.lengthOfBreakOnlyLibYAMLCounts(in: bytes, at: index)
            if byte & 0xC0 != 0x80 { scalarsBefore += 1 }
            if breakLength > 0 {
                index += breakLength
                starts.append((line, scalarsBefore))
            } else {
                index += 1
            }
        }
        self.starts = starts
    }

    /// msgc's line and column of libyaml's 1-based `line` and `column`.
    func position(line: Int, column: Int) -> (line: Int, column: Int) {
        guard line >= 1 && line <= starts.count else { return (line, column) }
        let start = starts[line - 1]
        return (start.line, start.scalarsBefore + column)
    }

    func position(of mark: Mark) -> (line: Int, column: Int) {
        position(line: mark.line, column: mark.column)
    }

    /// Whether `text` has a carriage return alone, U+0085, U+2028 or U+2029. Every YAML file is
    /// checked, so this looks at bytes and keeps nothing.
    private static func hasBreaksOnlyLibYAMLCounts(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "\r") && byte != UInt8(ascii: "\n") { return true }
            if previous == 0xC2 && byte == 0x85 { return true }
            if beforePrevious == 0xE2 && previous == 0x80 && (byte == 0xA8 || byte == 0xA9) { return true }
            beforePrevious = previous
            previous = byte
        }
        return previous == UInt8(ascii: "\r")
    }

    /// The byte count of a line break libyaml counts and msgc does not at `index`, or 0.
    private static func lengthOfBreakOnlyLibYAMLCounts(in bytes: [UInt8], at index: Int) -> Int {
        switch bytes[index] {
        case UInt8(ascii: "\r"):
            return 1
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85:
            return 2
        case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
            return 3
        default:
            return 0
        }
    }
}
