@testable import LanguageServer
import Foundation
import Testing

/// msgc's positions (1-based lines, columns in scalars) against LSP's (0-based, UTF-16 units).
@Suite struct LineIndexTests {
    /// Emoji (two UTF-16 units, four UTF-8 bytes), CJK (one unit, three bytes) and Arabic
    /// (one unit, two bytes) on one line.
    @Test func everyScriptOnOneLine() {
        let line = "alt: \"🎉 限定 عرض\", tilte: x"
        let index = LineIndex("first\n" + line + "\n")
        let before = line[..<line.range(of: "tilte")!.lowerBound]
        let column = before.unicodeScalars.count + 1
        #expect(column == 18)
        let position = index.position(line: 2, column: column)
        // The emoji is one scalar but two UTF-16 units: one character more than columns.
        #expect(position == .init(line: 1, character: before.utf16.count))
        #expect(position.character == 18)
        #expect(index.lineAndColumn(of: position) == (2, column))
        #expect(index.offset(of: position) == "first\n".utf8.count + before.utf8.count)
    }

    @Test func emojiCountsTwoUnits() {
        let index = LineIndex("🎉x")
        #expect(index.position(line: 1, column: 2) == .init(line: 0, character: 2))
        #expect(index.lineAndColumn(of: .init(line: 0, character: 2)) == (1, 2))
        #expect(index.offset(of: .init(line: 0, character: 2)) == 4)
    }

    @Test func lineBreaksAreLFCRLFAndLoneCR() {
        let index = LineIndex("a\nb\r\nc\rd")
        #expect(index.lineStarts == [0, 2, 5, 7])
        #expect(index.position(line: 4, column: 1) == .init(line: 3, character: 0))
        #expect(index.position(line: 3, column: 2) == .init(line: 2, character: 1))
        #expect(index.lineAndColumn(of: .init(line: 1, character: 1)) == (2, 2))
    }

    @Test func noFinalNewlineAndPositionsPastTheEnd() {
        let index = LineIndex("ab\ncd")
        #expect(index.position(line: 2, column: 3) == .init(line: 1, character: 2))
        #expect(index.position(line: 2, column: 99) == .init(line: 1, character: 2))
        #expect(index.position(line: 9, column: 1) == .init(line: 1, character: 2))
        #expect(index.offset(of: .init(line: 7, character: 0)) == 5)
        #expect(index.offset(of: .init(line: 0, character: 99)) == 2)
    }

    /// A line of thousands of scalars of every width: every column maps as a walk from the
    /// line's start maps it (the index starts from a checkpoint every 256 scalars).
    @Test func aLongLineMapsEveryColumnAsAWalkFromItsStart() {
        let units = ["a", "é", "限", "🎉", "عر", "x\u{301}"]
        let line = (0..<1500).map { units[$0 % units.count] }.joined()
        let index = LineIndex("first\n" + line + "\nlast")
        let scalars = Array(line.unicodeScalars)
        var utf16 = 0
        var utf8 = "first\n".utf8.count
        for column in 1...(scalars.count + 1) {
            let position = index.position(line: 2, column: column)
            #expect(position == .init(line: 1, character: utf16), "column \(column)")
            #expect(index.lineAndColumn(of: position) == (2, column), "column \(column)")
            #expect(index.offset(of: position) == utf8, "column \(column)")
            if column <= scalars.count {
                utf16 += scalars[column - 1].utf16.count
                utf8 += scalars[column - 1].utf8.count
            }
        }
        #expect(index.position(line: 2, column: 99_999) == .init(line: 1, character: line.utf16.count))
        #expect(index.position(line: 9, column: 1) == .init(line: 2, character: 4))
        #expect(index.offset(of: .init(line: 1, character: 99_999)) == "first\n".utf8.count + line.utf8.count)
    }
}
