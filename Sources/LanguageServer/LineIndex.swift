/// Where each line of a document starts, to turn msgc's positions (1-based line, column in
/// Unicode scalars) into LSP's (0-based line, character in UTF-16 code units) and back.
///
/// Lines break at LF, CR LF and a lone CR, as LSP defines them and as msgc's locations count
/// them in YAML and XML.
public struct LineIndex: Sendable {
    public let text: [UInt8]
    /// Byte offset of each line's first byte.
    public private(set) var lineStarts: [Int] = [0]
    /// For each line of more than `stride` bytes, where every `stride`th scalar starts and the
    /// UTF-16 units before it: a position on a long line is found from the nearest one, not by
    /// walking the line from its start for every finding (thousands of findings on a line of a
    /// few hundred kilobytes took minutes).
    private var checkpoints: [Int: [Checkpoint]] = [:]
    static let stride = 256

    struct Checkpoint: Sendable {
        var offset: Int
        var utf16: Int
    }

    public init(_ text: [UInt8]) {
        self.text = text
        var index = 0
        while index < text.count {
            switch text[index] {
            case 0x0A:
                lineStarts.append(index + 1)
            case 0x0D:
                if index + 1 < text.count, text[index + 1] == 0x0A { index += 1 }
                lineStarts.append(index + 1)
            default: break
            }
            index += 1
        }
        for line in lineStarts.indices {
            let range = lineBytes(line)
            guard range.count > Self.stride else { continue }
            var marks: [Checkpoint] = []
            var offset = range.lowerBound
            var utf16 = 0
            var scalars = 0
            while offset < range.upperBound {
                if scalars % Self.stride == 0 { marks.append(Checkpoint(offset: offset, utf16: utf16)) }
                let (length, units) = Self.scalar(at: offset, in: text, end: range.upperBound)
                offset += length
                utf16 += units
                scalars += 1
            }
            checkpoints[line] = marks
        }
    }

    /// The last checkpoint of `line` for which `isBefore` holds, with the scalars before it;
    /// the line's start when there is none.
    private func checkpoint(_ line: Int, where isBefore: (Checkpoint) -> Bool) -> (Checkpoint, scalars: Int) {
        let start = Checkpoint(offset: lineBytes(line).lowerBound, utf16: 0)
        guard let marks = checkpoints[line], let first = marks.first, isBefore(first) else { return (start, 0) }
        var low = 0
        var high = marks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if isBefore(marks[middle]) { low = middle } else { high = middle - 1 }
        }
        return (marks[low], low * Self.stride)
    }

    public init(_ text: String) { self.init(Array(text.utf8)) }

    /// An LSP position.
    public struct Position: Hashable, Sendable {
        public var line: Int
        public var character: Int
        public init(line: Int, character: Int) {
            self.line = line
            self.character = character
        }
    }

    /// The byte range of line `line` (0-based), without its line break.
    func lineBytes(_ line: Int) -> Range<Int> {
        guard line >= 0, line < lineStarts.count else { return text.count..<text.count }
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : text.count
        while end > start, text[end - 1] == 0x0A || text[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// The LSP position of msgc's `line` (1-based) and `column` (1-based, in scalars). A column
    /// past the line's end is the line's end; a line past the document's end is its end.
    public func position(line: Int, column: Int) -> Position {
        let zeroLine = line - 1
        guard zeroLine < lineStarts.count else {
            let last = lineStarts.count - 1
            return Position(line: last, character: utf16Length(ofLine: last))
        }
        let line = max(0, zeroLine)
        let range = lineBytes(line)
        let target = max(0, column - 1)
        var mark = Checkpoint(offset: range.lowerBound, utf16: 0)
        var scalars = 0
        if let marks = checkpoints[line] {
            let nearest = min(target / Self.stride, marks.count - 1)
            mark = marks[nearest]
            scalars = nearest * Self.stride
        }
        var character = mark.utf16
        var index = mark.offset
        while index < range.upperBound, scalars < target {
            let (length, units) = Self.scalar(at: index, in: text, end: range.upperBound)
            index += length
            character += units
            scalars += 1
        }
        return Position(line: max(0, zeroLine), character: character)
    }

    /// The byte offset of an LSP position, clamped to its line.
    public func offset(of position: Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return text.count }
        let range = lineBytes(position.line)
        let (mark, _) = checkpoint(position.line) { $0.utf16 <= position.character }
        var index = mark.offset
        var character = mark.utf16
        while index < range.upperBound, character < position.character {
            let (length, units) = Self.scalar(at: index, in: text, end: range.upperBound)
            index += length
            character += units
        }
        return index
    }

    /// msgc's 1-based line and scalar column of an LSP position.
    public func lineAndColumn(of position: Position) -> (line: Int, column: Int) {
        let line = min(max(0, position.line), lineStarts.count - 1)
        let offset = self.offset(of: Position(line: line, character: position.character))
        let (mark, before) = checkpoint(line) { $0.offset <= offset }
        var column = before + 1
        var index = mark.offset
        while index < offset {
            index += Self.scalar(at: index, in: text, end: offset).length
            column += 1
        }
        return (line + 1, column)
    }

    /// The UTF-16 length of line `line`.
    private func utf16Length(ofLine line: Int) -> Int {
        let range = lineBytes(line)
        let (mark, _) = checkpoint(line) { _ in true }
        var index = mark.offset
        var units = mark.utf16
        while index < range.upperBound {
            let (length, count) = Self.scalar(at: index, in: text, end: range.upperBound)
            index += length
            units += count
        }
        return units
    }

    /// The UTF-8 length of the scalar at `index` and its UTF-16 length (a byte that starts no
    /// valid sequence counts as one byte and one unit, as a replacement character).
    static func scalar(at index: Int, in text: [UInt8], end: Int) -> (length: Int, utf16: Int) {
        let byte = text[index]
        let length = switch byte {
        case 0..<0x80: 1
        case 0xC0..<0xE0: 2
        case 0xE0..<0xF0: 3
        case 0xF0..<0xF8: 4
        default: 1
        }
        guard index + length <= end else { return (1, 1) }
        return (length, length == 4 ? 2 : 1)
    }
}

/// The line indexes of the documents one check (or one request) turns positions in, each made
/// once, when first asked for.
///
/// Every finding with a related location (a stale unit's note points at its target) needs the
/// index of the note's document. Made afresh for each, the index of a 1 MB XLIFF file was
/// rebuilt once per finding: 709 times per keystroke, 2.2-2.6 s in all, where the whole check
/// takes a fraction of that (BENCHMARKS.md).
struct LineIndexes {
    private var indexes: [String: LineIndex] = [:]
    private let make: (String) -> LineIndex

    /// `make` gives the index of a root-relative path.
    init(_ make: @escaping (String) -> LineIndex) {
        self.make = make
    }

    mutating func index(for path: String) -> LineIndex {
        if let index = indexes[path] { return index }
        let index = make(path)
        indexes[path] = index
        return index
    }
}
