import Model
import Testing

@Suite("A localized message's field texts")
struct FieldTextsTests {
    static func text(_ value: String) -> Located<String> {
        Located(value, at: SourceLocation(path: "translations/de-DE.xliff", line: 3, column: 7))
    }

    @Test("texts come out in field order whatever order they were set in")
    func fieldOrder() {
        var texts = FieldTexts()
        texts[.bulletAlt(1)] = Self.text("alt 2")
        texts[.header] = Self.text("Bleiben")
        texts[.bulletText(1)] = Self.text("text 2")
        texts[.body] = Self.text("Weiterlesen")
        texts[.bulletText(0)] = Self.text("text 1")
        #expect(texts.map(\.field) == [.header, .body, .bulletText(0), .bulletText(1), .bulletAlt(1)])
        #expect(texts.map(\.text.value) == ["Bleiben", "Weiterlesen", "text 1", "text 2", "alt 2"])
        #expect(texts.count == 5)
    }

    @Test("a field is found, replaced and removed; a missing one is nil")
    func lookUp() {
        var texts: FieldTexts = [.body: Self.text("B"), .header: Self.text("H")]
        #expect(texts.map(\.field) == [.header, .body])
        #expect(texts[.header]?.value == "H")
        #expect(texts[.imageAlt] == nil)
        texts[.header] = Self.text("H2")
        #expect(texts[.header]?.value == "H2")
        #expect(texts.count == 2)
        texts[.header] = nil
        texts[.imageAlt] = nil
        #expect(texts.map(\.field) == [.body])
        #expect(texts[.header] == nil)
    }

    @Test("made from a dictionary, the same as set one field at a time")
    func fromDictionary() {
        let dictionary: [MessageField: Located<String>] = [
            .bulletText(2): Self.text("c"), .imageAlt: Self.text("i"), .header: Self.text("h"), .bulletAlt(0): Self.text("a"),
        ]
        var oneByOne = FieldTexts()
        for (field, text) in dictionary { oneByOne[field] = text }
        let made = FieldTexts(dictionary)
        #expect(made.map(\.field) == [.header, .imageAlt, .bulletAlt(0), .bulletText(2)])
        #expect(made.map(\.field) == oneByOne.map(\.field))
        #expect(made.map(\.text.value) == oneByOne.map(\.text.value))
    }
}
