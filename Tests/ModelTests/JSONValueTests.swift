@testable import Model
import Testing

@Suite struct JSONValueTests {
    @Test func writesCanonicalBytes() {
        let value: JSONValue = [
            "z": "Über / straße",
            "a": [1, true, nil],
            "m": ["b": "\"quoted\"\n", "a": [:], "c": []],
        ]
        #expect(value.canonicalText == """
            {
              "a": [
                1,
                true,
                null
              ],
              "m": {
                "a": {},
                "b": "\\"quoted\\"\\n",
                "c": []
              },
              "z": "Über / straße"
            }

            """)
    }

    @Test func escapesControlCharactersOnly() {
        let value = JSONValue.string("a\u{01}b\u{7F}\u{2028}é")
        #expect(value.canonicalText == "\"a\\u0001b\u{7F}\u{2028}é\"\n")
    }

    /// Strings are passed eight bytes at a time where none needs an escape: every character
    /// that needs one is escaped wherever it falls in a word, next to ASCII and to multi-byte
    /// UTF-8 alike.
    @Test func escapesAtEveryPositionOfAWord() {
        let escapes: [(Character, String)] = [
            ("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\u{0}", "\\u0000"), ("\u{1F}", "\\u001f"), ("\t", "\\t"),
        ]
        for filler in ["a", "é", "日", "\u{7F}", "\u{FF}"] {
            for length in 0...20 {
                for position in 0...length {
                    for (character, escaped) in escapes {
                        var text = String(repeating: filler, count: length)
                        text.insert(character, at: text.index(text.startIndex, offsetBy: position))
                        let expected = "\"" + String(repeating: filler, count: position) + escaped
                            + String(repeating: filler, count: length - position) + "\"\n"
                        #expect(JSONValue.string(text).canonicalText == expected, "\(filler) × \(length), at \(position)")
                    }
                }
            }
        }
        for value in UInt8(0)...UInt8(255) {
            let word = UInt64(value) << 40 | 0x4141_0041_4141_4141 & ~(0xFF << 40)
            let needs = value < 0x20 || value == UInt8(ascii: "\"") || value == UInt8(ascii: "\\")
            #expect(JSONValue.mayNeedEscape(word) == needs, "byte \(value)")
        }
    }

    /// The streaming writer writes numbers' digits itself and copies keys as written: the same
    /// bytes as the value model.
    @Test func writerNumbersAndKeysMatchTheValueModel() {
        for number in [0, 7, 10, 99, 100, 12_345, -1, -10, Int.max, Int.min] {
            var writer = CanonicalJSONWriter()
            writer.openObject()
            writer.member("a\"b", number)
            writer.member("n", number)
            writer.member("\u{E9}", number)  // one scalar, two bytes
            writer.closeObject()
            let expected: JSONValue = ["a\"b": .integer(number), "n": .integer(number), "\u{E9}": .integer(number)]
            #expect(writer.bytes + [0x0A] == expected.canonicalBytes, "\(number)")
        }
    }

    @Test func sortsKeysByUTF8Bytes() {
        let value: JSONValue = ["é": 1, "z": 2, "Z": 3]
        #expect(value.canonicalText == "{\n  \"Z\": 3,\n  \"z\": 2,\n  \"é\": 1\n}\n")
    }
}

@Suite struct ModelTests {
    @Test(arguments: ["header", "body", "image.alt", "bullets.1.text", "bullets.5.alt"])
    func messageFieldRoundTrips(_ text: String) {
        #expect(MessageField(text)?.description == text)
    }

    @Test(arguments: ["bullets.0.text", "bullets.01.text", "bullets.1", "title", "bullets.1.image"])
    func rejectsMalformedFields(_ text: String) {
        #expect(MessageField(text) == nil)
    }

    @Test func unitIDsSplitAtTheLastTwoSlashes() {
        let location = SourceLocation(path: "translations/de-DE.xliff", line: 3)
        let unit = TranslationUnit(
            id: Located("com.example.app.yearly/winback/bullets.2.alt", at: location), source: Located("x", at: location),
            target: nil, state: .untranslated, location: location)
        #expect(unit.parsedID?.product == "com.example.app.yearly")
        #expect(unit.parsedID?.key == "winback")
        #expect(unit.parsedID?.field == .bulletAlt(1))
    }

    @Test func sourceFileLines() {
        let file = SourceFile(path: "a.yaml", text: "one\ntwo\r\nthree")
        #expect(file.line(1) == "one")
        #expect(file.line(2) == "two")
        #expect(file.line(3) == "three")
        #expect(file.line(4) == nil)
    }

    @Test func locatedOffsetsMapToColumns() {
        let plain = Located("Stay with Premium", at: SourceLocation(path: "m.yaml", line: 4, column: 13), style: .plain)
        #expect(plain.location(atScalarOffset: 5, length: 4) == SourceLocation(path: "m.yaml", line: 4, column: 18, endLine: 4, endColumn: 22))
        let quoted = Located("Stay", at: SourceLocation(path: "m.yaml", line: 4, column: 13), style: .quoted(hasEscapes: false))
        #expect(quoted.location(atScalarOffset: 0).column == 14)
        let escaped = Located("Stay", at: SourceLocation(path: "m.yaml", line: 4, column: 13), style: .quoted(hasEscapes: true))
        #expect(escaped.location(atScalarOffset: 2) == escaped.location)
    }

    /// A JWT's header and claims: canonical keys and escapes, no whitespace, no final newline.
    @Test func compactBytesAreCanonicalWithoutWhitespace() {
        let value: JSONValue = ["typ": "JWT", "kid": "A\"B/é", "exp": 1_700_000_300, "list": [1, nil, true], "empty": [:]]
        #expect(String(decoding: value.compactBytes, as: UTF8.self)
            == #"{"empty":{},"exp":1700000300,"kid":"A\"B/é","list":[1,null,true],"typ":"JWT"}"#)
    }

    @Test func lengthMeasuresCountTheReferenceExamples() {
        let family = "👨‍👩‍👧"
        #expect(LengthMeasure.graphemes.count(family) == 1)
        #expect(LengthMeasure.scalars.count(family) == 5)
        #expect(LengthMeasure.utf16.count(family) == 8)
        #expect(LengthMeasure.utf8.count(family) == 18)
    }
}
