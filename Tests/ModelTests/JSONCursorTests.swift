import Model
import Testing

/// The one located reader of JSON: paths, places, the two readings, wrong kinds, and how
/// messages name a value.
@Suite struct JSONCursorTests {
    static func cursor(_ text: String, _ reading: JSONCursor.Reading = .strict, naming: JSONCursor.Naming = .memberName) throws -> JSONCursor {
        try JSONCursor.parse(Array(text.utf8), file: "f.json", reading: reading, naming: naming)
    }

    /// The `JSONReadError` `body` throws, or nil.
    static func failure<T>(_ body: () throws -> T) -> JSONReadError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? JSONReadError
        }
    }

    static let nested = """
        {
          "defaults": [
            {"product": "p", "locale": "de-DE"},
            {"product": "p", "locale": 7}
          ]
        }
        """

    @Test func aValueKnowsItsPathLineAndColumn() throws {
        let root = try Self.cursor(Self.nested)
        #expect(root.path == "")
        let entries = try root.objects("defaults")
        #expect(entries.map(\.path) == ["defaults[0]", "defaults[1]"])
        let locale = try entries[1].required("locale")
        #expect(locale.path == "defaults[1].locale")
        #expect((locale.line, locale.column) == (4, 32))
        #expect(locale.location == SourceLocation(path: "f.json", line: 4, column: 32))
        #expect(try entries[0].string("locale") == "de-DE")
    }

    @Test func aWrongKindIsAnErrorAtTheValueWithItsPath() throws {
        let root = try Self.cursor(Self.nested)
        let entry = try root.objects("defaults")[1]
        let error = try #require(Self.failure { try entry.string("locale") })
        #expect(error.message == "\"locale\" must be a string, not a number")
        #expect(error.path == "defaults[1].locale")
        #expect((error.line, error.column, error.width) == (4, 32, 1))
        #expect(error.description == "f.json:4:32: \"locale\" must be a string, not a number")
        #expect(error.location == SourceLocation(path: "f.json", line: 4, column: 32))
    }

    @Test func aMissingMemberIsAnErrorAtItsObject() throws {
        let entry = try Self.cursor(Self.nested).objects("defaults")[0]
        let error = try #require(Self.failure { try entry.string("messageIdentifier") })
        #expect(error.description == "f.json:3:5: missing \"messageIdentifier\"")
        #expect(error.path == "defaults[0]")
    }

    @Test func aSyntaxErrorIsLocatedAndPrefixed() {
        let error = Self.failure { try Self.cursor("{\n  \"a\": ,\n}") }
        #expect(error?.description == "f.json:2:8: not valid JSON: expected a JSON value, found ','")
        #expect(error?.width == nil)
        let state = Self.failure {
            try JSONCursor.parse([], file: "s.json", reading: .lenient, naming: .path, syntaxPrefix: "state file is not valid JSON: ")
        }
        #expect(state?.message == "state file is not valid JSON: the file ends where a JSON value should be")
    }

    /// Strict: `null` is a value (no string, but an absent optional one); lenient: `null` is absence.
    @Test func nullIsAValueReadStrictlyAndAbsenceReadLeniently() throws {
        let text = #"{"a": null, "b": 1}"#
        let strict = try Self.cursor(text)
        #expect(strict.member("a")?.isNull == true)
        #expect(Self.failure { try strict.string("a") }?.message == "\"a\" must be a string, not null")
        #expect(try strict.optionalString("a") == nil)
        #expect(Self.failure { try strict.optionalString("b") }?.message == "\"b\" must be a string or null, not a number")
        #expect(strict.members.map(\.key) == ["a", "b"])

        let lenient = try Self.cursor(text, .lenient, naming: .path)
        #expect(lenient.member("a") == nil)
        #expect(lenient.has("a"))
        #expect(try lenient.optionalString("a") == nil)
        #expect(Self.failure { try lenient.string("a") }?.message == "the document has no \"a\"")
        #expect(Self.failure { try lenient.optionalString("b") }?.message == "\"b\" must be a string, not a number")
        #expect(lenient.members.map(\.key) == ["b"])
        #expect(lenient.read(.strict).member("a")?.isNull == true)
    }

    @Test func unknownMembersAreRefusedOnlyReadStrictly() throws {
        let text = #"{"id": "x", "extra": 1}"#
        let error = Self.failure { try Self.cursor(text).refuseUnknownMembers(["id"], in: "a product") }
        #expect(error?.description == "f.json:1:1: unknown member \"extra\" in a product; msgc writes id")
        #expect(Self.failure { try Self.cursor(text, .lenient).refuseUnknownMembers(["id"], in: "a product") } == nil)
        #expect(Self.failure { try Self.cursor("[]", .lenient).refuseUnknownMembers(["id"], in: "a product") }?.message
            == "a product must be an object, not an array")
    }

    @Test(arguments: [
        ("\"x\"", "a string"), ("true", "a boolean"), ("null", "null"), ("[1]", "an array"), ("{}", "an object"), ("1.5", "a number"),
    ])
    func wrongKindsAreNamedInMessages(value: String, kind: String) throws {
        let root = try Self.cursor("{\"v\": \(value)}")
        let member = try root.required("v")
        let expected: [(String, () throws -> Void)] = [
            ("a string", { _ = try member.string() }), ("true or false", { _ = try member.bool() }),
            ("an array", { _ = try member.array() }), ("an object", { _ = try member.object() }), ("a number", { _ = try member.number() }),
        ]
        for (wanted, read) in expected where wanted != kind && !(wanted == "true or false" && kind == "a boolean") {
            #expect(Self.failure(read)?.message == "\"v\" must be \(wanted), not \(kind)")
        }
    }

    @Test func integersAreWholeNumbersThatFit() throws {
        let root = try Self.cursor(#"{"a": 12, "b": -3, "c": 1.0, "d": 1e3, "e": 99999999999999999999, "f": "1"}"#)
        #expect(try root.integer("a") == 12)
        #expect(try root.integer("b") == -3)
        for key in ["c", "d", "e", "f"] {
            #expect(Self.failure { try root.integer(key) }?.message == "\"\(key)\" must be a whole number")
        }
        #expect(try root.optionalInteger("missing") == nil)
        #expect(JSONCursor.integer("42") == 42)
        #expect(JSONCursor.integer("4.2e1") == nil)
    }

    @Test func convertedStringsFailAtTheirMember() throws {
        enum Mode: String { case weighted, firstUsable = "first-usable" }
        let root = try Self.cursor("{\n  \"choice\": \"random\"\n}")
        let error = Self.failure { try root.string("choice", as: Mode.init(rawValue:)) { "\"choice\" must be first-usable or weighted, not '\($0)'" } }
        #expect(error?.description == "f.json:2:13: \"choice\" must be first-usable or weighted, not 'random'")
        #expect(try root.optionalString("other", as: Mode.init(rawValue:)) { _ in "unused" } == nil)
        let good = try Self.cursor(#"{"choice": "first-usable"}"#)
        #expect(try good.string("choice", as: Mode.init(rawValue:)) { _ in "unused" } == .firstUsable)
    }

    /// Each naming as its readers' messages have always said it.
    @Test func namingsSayWhatTheirReadersSay() throws {
        let text = #"{"a": {"b": [{"c": 1}]}}"#
        func message(_ naming: JSONCursor.Naming) throws -> [String?] {
            let root = try Self.cursor(text, .strict, naming: naming)
            let list = try root.required("a").required("b")
            let entry = try list.array()[0]
            return [
                Self.failure { try root.required("a").string() }?.message,
                Self.failure { try list.string() }?.message,
                Self.failure { try entry.string() }?.message,
                Self.failure { try entry.string("c") }?.message,
                Self.failure { try entry.string("d") }?.message,
            ]
        }
        #expect(try message(.memberName) == [
            "\"a\" must be a string, not an object", "\"b\" must be a string, not an array", "an entry of \"b\" must be a string, not an object",
            "\"c\" must be a string, not a number", "missing \"d\"",
        ])
        #expect(try message(.path) == [
            "\"a\" must be a string, not an object", "\"a.b\" must be a string, not an array", "a.b[0] must be a string, not an object",
            "a.b[0].c must be a string, not a number", "a.b[0] has no \"d\"",
        ])
        #expect(try message(.quotedPath) == [
            "'a' must be a string, not an object", "'a.b' must be a string, not an array", "'a.b[0]' must be a string, not an object",
            "'a.b[0].c' must be a string, not a number", "'a.b[0]' has no 'd'",
        ])
    }

    /// As deep as the parser allows, every step is in the path and the place is exact.
    @Test func deepNestingKeepsItsPath() throws {
        let depth = JSONDocument.maxDepth - 1
        let text = String(repeating: "{\"k\": [", count: depth / 2) + "true" + String(repeating: "]}", count: depth / 2)
        var cursor = try Self.cursor(text)
        for _ in 0..<(depth / 2) { cursor = try #require(try cursor.array("k").first) }
        #expect(cursor.path == String(repeating: "k[0].", count: depth / 2 - 1) + "k[0]")
        #expect(try cursor.bool() == true)
        #expect(cursor.column == depth / 2 * 7 + 1)
        let error = Self.failure { try cursor.string() }
        #expect(error?.path == cursor.path)
        #expect(error?.message == "an entry of \"k\" must be a string, not a boolean")
        #expect(Self.failure { try Self.cursor(String(repeating: "[", count: JSONDocument.maxDepth + 1)) }?.message
            == "not valid JSON: JSON nested deeper than 64 levels")
    }

    @Test func writtenWidthsArePlainTextLengths() throws {
        let root = try Self.cursor(#"{"s": "héllo", "n": -12.5, "t": true, "f": false, "z": null, "a": [1], "o": {}}"#)
        let widths = try ["s", "n", "t", "f", "z", "a", "o"].map { try root.required($0).writtenWidth }
        #expect(widths == [7, 5, 4, 5, 4, 1, 1])
    }

    @Test func aProblemWithTheWholeFileHasNoPlace() {
        let error = JSONReadError("'m.json' is not the manifest of an msgc bundle", file: "m.json")
        #expect(error.description == "'m.json' is not the manifest of an msgc bundle")
        #expect(error.location == SourceLocation(path: "m.json"))
    }
}
