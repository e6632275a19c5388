import Model
import Testing
@testable import XLIFF

/// How `msgc extract` adds units to an existing `.orphans` file.
@Suite struct OrphansMergeTests {
    static func unit(_ id: String, source: String = "Stay", target: String?, notes: [String] = []) -> TranslationUnit {
        let here = SourceLocation(path: "de-DE.xliff.orphans", line: 1, column: 1)
        return TranslationUnit(
            id: Located(id, at: here), source: Located(source, at: here), target: target.map { Located($0, at: here) },
            state: target == nil ? .untranslated : .translated, location: here,
            notes: notes.map { TranslationNote(author: "anna", text: $0) })
    }

    @Test func newOrphansFollowTheEarlierOnes() throws {
        let merged = try XLIFFExport.mergeOrphans([Self.unit("a", target: "A")], [Self.unit("b", target: "B")]).get()
        #expect(merged.map(\.id.value) == ["a", "b"])
    }

    @Test func oneIDKeepsTheTranslationAndBothUnitsNotes() throws {
        let earlier = Self.unit("a", target: "A", notes: ["first"])
        let merged = try XLIFFExport.mergeOrphans([earlier], [Self.unit("a", target: nil, notes: ["second"])]).get()
        #expect(merged.count == 1)
        #expect(merged[0].target?.value == "A")
        #expect(merged[0].notes.map(\.text) == ["first", "second"])
    }

    @Test func twoTranslationsOfOneIDAreAConflict() {
        let result = XLIFFExport.mergeOrphans([Self.unit("a", target: "A")], [Self.unit("a", target: "Other")])
        #expect(result == .failure(XLIFFExport.OrphansConflict(text: "a")))
        let source = XLIFFExport.mergeOrphans([Self.unit("a", target: "A")], [Self.unit("a", source: "Go", target: "A")])
        #expect(source == .failure(XLIFFExport.OrphansConflict(text: "a")))
    }
}
