import Model
import Testing

@Suite struct ScalarColumnsTests {
    @Test func keepsRunsAndAnswersEveryOffset() throws {
        // "a&b" written `a&amp;b`, then the end.
        let columns = try #require(ScalarColumns(columnOffsets: [0, 1, 6, 7]))
        #expect(columns.count == 3)
        #expect((0...3).map(columns.columnOffset(atScalar:)) == [0, 1, 6, 7])
        #expect(columns.columnOffset(atScalar: -4) == 0)
        #expect(columns.columnOffset(atScalar: 40) == 7)
    }

    @Test func textStartingAfterATag() throws {
        // `<g id="1">ab</g>`: the text starts at column offset 10, and ends after `</g>`.
        let columns = try #require(ScalarColumns(columnOffsets: [10, 11, 16]))
        #expect((0...2).map(columns.columnOffset(atScalar:)) == [10, 11, 16])
    }

    @Test func mappedValueSpansItsWrittenForm() throws {
        let columns = try #require(ScalarColumns(columnOffsets: [0, 1, 6, 7]))
        let text = Located("a&b", at: SourceLocation(path: "t.xliff", line: 3, column: 20), style: .mapped(columns))
        #expect(text.location(atScalarOffset: 1) == SourceLocation(path: "t.xliff", line: 3, column: 21, endLine: 3, endColumn: 26))
        #expect(text.valueSpan == SourceLocation(path: "t.xliff", line: 3, column: 20, endLine: 3, endColumn: 27))
    }

    @Test func emptyListHasNoColumns() {
        #expect(ScalarColumns(columnOffsets: []) == nil)
    }
}
