import Diagnostics
import Foundation
import Model
@testable import Bundle
import Testing

@Suite struct StateFileParserTests {
    static func parse(_ text: String) -> (StateFile?, [Diagnostic]) {
        StateFileParser.parse(bytes: Array(text.utf8), path: "state.json")
    }

    static let valid = """
        { "messages": { "messageIdentifiers": [
            { "messageIdentifier": "0A1B2C3D-0000-5000-8000-000000000001", "messageState": "APPROVED" },
            { "messageIdentifier": "0a1b2c3d-0000-5000-8000-000000000002", "messageState": "IN_REVIEW", "extra": 1 }
          ] },
          "images": { "imageIdentifiers": [
            { "imageIdentifier": "0a1b2c3d-0000-5000-8000-0000000000aa", "imageState": "REJECTED", "imageSize": "FULL_SIZE" }
          ] } }
        """

    /// One identifier listed twice with different states: msgc cannot tell which Apple holds,
    /// so the file is not used at all (never taken as approval); an identical repeat is noise.
    @Test func anIdentifierListedTwiceWithDifferentStatesIsAnError() throws {
        let contradicting = """
            { "messages": { "messageIdentifiers": [
                { "messageIdentifier": "0a1b2c3d-0000-5000-8000-000000000001", "messageState": "APPROVED" },
                { "messageIdentifier": "0A1B2C3D-0000-5000-8000-000000000001", "messageState": "REJECTED" } ] },
              "images": { "imageIdentifiers": [
                { "imageIdentifier": "0a1b2c3d-0000-5000-8000-0000000000aa", "imageState": "APPROVED", "imageSize": "FULL_SIZE" },
                { "imageIdentifier": "0a1b2c3d-0000-5000-8000-0000000000aa", "imageState": "APPROVED", "imageSize": "BULLET_POINT" } ] } }
            """
        let (state, diagnostics) = Self.parse(contradicting)
        #expect(state == nil)
        #expect(diagnostics.map(\.code) == ["STA001", "STA001"])
        #expect(diagnostics.first?.message == "messages.messageIdentifiers[1] lists '0A1B2C3D-0000-5000-8000-000000000001' again as REJECTED, but messages.messageIdentifiers[0] on line 2 lists it as APPROVED; msgc cannot tell which Apple holds")
        #expect(diagnostics.first?.location.line == 3)

        let repeated = contradicting.replacingOccurrences(of: "REJECTED", with: "APPROVED")
            .replacingOccurrences(of: "BULLET_POINT", with: "FULL_SIZE")
        let (kept, none) = Self.parse(repeated)
        #expect(none.isEmpty)
        #expect(kept?.messages.count == 1)
        #expect(kept?.images.count == 1)
    }

    @Test func readsApplesListsAndKeepsUnknownStatesRaw() throws {
        let (state, diagnostics) = Self.parse(Self.valid)
        #expect(diagnostics.isEmpty)
        let parsed = try #require(state)
        #expect(parsed.messages.map(\.identifier) == ["0a1b2c3d-0000-5000-8000-000000000001", "0a1b2c3d-0000-5000-8000-000000000002"])
        #expect(parsed.message("0a1b2c3d-0000-5000-8000-000000000001")?.state == .approved)
        #expect(parsed.message("0A1B2C3D-0000-5000-8000-000000000002")?.state == .other("IN_REVIEW"))
        #expect(parsed.message("0a1b2c3d-0000-5000-8000-000000000002")?.state.rawValue == "IN_REVIEW")
        #expect(parsed.image("0A1B2C3D-0000-5000-8000-0000000000AA")?.state == .rejected)
        #expect(parsed.image("0a1b2c3d-0000-5000-8000-0000000000aa")?.imageSize == "FULL_SIZE")
        #expect(parsed.messages[0].location == SourceLocation(path: "state.json", line: 2, column: 5))
    }

    @Test func acceptsAByteOrderMarkAndEmptyLists() {
        let (state, diagnostics) = StateFileParser.parse(
            bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"messages":{"messageIdentifiers":[]},"images":{"imageIdentifiers":[]}}"#.utf8), path: "s.json")
        #expect(diagnostics.isEmpty)
        #expect(state?.messages.isEmpty == true)
    }

    @Test(arguments: [
        ("", "state file is not valid JSON: the file ends where a JSON value should be", 1, 1),
        ("{\n  \"messages\": {,\n}", "state file is not valid JSON: expected a member name in double quotes, found ','", 2, 16),
        ("{\"messages\": {\"messageIdentifiers\": []}, \"images\": {\"imageIdentifiers\": []}} x",
         "state file is not valid JSON: unexpected 'x' after the end of the JSON value", 1, 78),
        ("{\"a\": 1, \"a\": 2}", "state file is not valid JSON: member 'a' appears twice in one object", 1, 10),
        ("{\"a\": \"é\u{01}\"}", "state file is not valid JSON: control character U+0001 inside a string; JSON requires it escaped", 1, 9),
        ("[]", "state file must be a JSON object with \"messages\" and \"images\", not an array", 1, 1),
        ("{\"images\": {\"imageIdentifiers\": []}}", "state file has no \"messages\" member (Apple's Get Message List response)", 1, 1),
        // Read as Apple's libraries read it, a null member is an absent one.
        ("{\"messages\": null, \"images\": {\"imageIdentifiers\": []}}", "state file has no \"messages\" member (Apple's Get Message List response)", 1, 1),
        ("{\"messages\": {}, \"images\": {}, \"fetchedAt\": null}", "\"fetchedAt\" must be a string, not null", 1, 45),
        ("{\"messages\": [], \"images\": {\"imageIdentifiers\": []}}", "\"messages\" must be an object with \"messageIdentifiers\", not an array", 1, 14),
        ("{\"messages\": {\"messageIdentifiers\": {}}, \"images\": {\"imageIdentifiers\": []}}",
         "\"messages.messageIdentifiers\" must be an array, not an object", 1, 37),
        ("{\"messages\": {\"messageIdentifiers\": [{\"messageIdentifier\": 7, \"messageState\": \"APPROVED\"}]}, \"images\": {\"imageIdentifiers\": []}}",
         "messages.messageIdentifiers[0].messageIdentifier must be a string, not a number", 1, 60),
        ("{\"messages\": {\"messageIdentifiers\": []}, \"images\": {\"imageIdentifiers\": [{\"imageIdentifier\": \"0a1b2c3d-0000-5000-8000-0000000000aa\", \"imageSize\": true}]}}",
         "images.imageIdentifiers[0].imageSize must be a string, not a boolean", 1, 147),
    ])
    func refusesWhatIsNotAStateFile(text: String, message: String, line: Int, column: Int) {
        let (state, diagnostics) = Self.parse(text)
        #expect(state == nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.code == "STA001")
        #expect(diagnostics.first?.severity == .error)
        #expect(diagnostics.first?.message == message)
        #expect(diagnostics.first?.location == SourceLocation(path: "state.json", line: line, column: column))
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let (state, diagnostics) = Self.parse(String(repeating: "[", count: 100_000))
        #expect(state == nil)
        #expect(diagnostics.first?.message.contains("nested deeper than 64 levels") == true)
    }

    @Test func reportsAMissingOrUnreadableFile() {
        let (state, diagnostics) = StateFileParser.load(URL(fileURLWithPath: "/nonexistent/state.json"), displayPath: "state.json")
        #expect(state == nil)
        #expect(diagnostics.first?.message == "state file 'state.json' does not exist")
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let node = try JSONDocument.parse(Array(#"["a\u00e9\ud83d\ude00\n\/", -1.5e3, true, null]"#.utf8))
        guard case .array(let values) = node.value, case .string(let text) = values[0].value,
              case .number(let number) = values[1].value else { Issue.record("shape"); return }
        #expect(text == "aé😀\n/")
        #expect(number == "-1.5e3")
        #expect(throws: JSONDocument.SyntaxError.self) { try JSONDocument.parse(Array(#"["\ud83d"]"#.utf8)) }
        #expect(throws: JSONDocument.SyntaxError.self) { try JSONDocument.parse([0x22, 0xFF, 0x22]) }
    }

    /// Apple's libraries decode every member as optional: a missing or null list is empty, an
    /// image without imageSize (uploaded before API 1.4) has no known size, an entry without a
    /// state is kept with none (never approval), unknown members are ignored.
    @Test(arguments: [
        #"{"messages": {}, "images": {}}"#,
        #"{"messages": {"messageIdentifiers": null}, "images": {"imageIdentifiers": null}}"#,
        #"{"messages": {"other": 1}, "images": {"imageIdentifiers": [], "next": "x"}}"#,
    ])
    func readsMissingOrNullListsAsEmpty(text: String) throws {
        let (state, diagnostics) = Self.parse(text)
        #expect(diagnostics.isEmpty)
        let parsed = try #require(state)
        #expect(parsed.messages.isEmpty && parsed.images.isEmpty)
    }

    @Test func readsImagesWithoutSizeAndEntriesWithoutState() throws {
        let (state, diagnostics) = Self.parse("""
            {"messages": {"messageIdentifiers": [{"messageIdentifier": "0a1b2c3d-0000-5000-8000-000000000001", "messageState": null}]},
             "images": {"imageIdentifiers": [{"imageIdentifier": "0a1b2c3d-0000-5000-8000-0000000000aa", "imageState": "APPROVED"}]}}
            """)
        #expect(diagnostics.isEmpty)
        let parsed = try #require(state)
        #expect(parsed.image("0a1b2c3d-0000-5000-8000-0000000000aa")?.imageSize == nil)
        #expect(parsed.image("0a1b2c3d-0000-5000-8000-0000000000aa")?.state == .approved)
        #expect(parsed.message("0a1b2c3d-0000-5000-8000-000000000001")?.state != .approved)
    }

    /// An identifier becomes a request path and a manifest entry: only a UUID is used; anything
    /// else is a warning and the entry is left out, the rest of the file kept.
    @Test func leavesOutEntriesWhoseIdentifierIsNotAUUID() throws {
        let (state, diagnostics) = Self.parse("""
            {"messages": {"messageIdentifiers": [
              {"messageIdentifier": "../default/PRODUCT/en-US", "messageState": "APPROVED"},
              {"messageState": "APPROVED"},
              {"messageIdentifier": "0a1b2c3d-0000-5000-8000-000000000001", "messageState": "APPROVED"}]},
             "images": {"imageIdentifiers": [{"imageIdentifier": "0a1b2c3d-0000-5000-8000-0000000000aa%2f..", "imageState": "APPROVED"}]}}
            """)
        let parsed = try #require(state)
        #expect(parsed.messages.map(\.identifier) == ["0a1b2c3d-0000-5000-8000-000000000001"])
        #expect(parsed.images.isEmpty)
        #expect(diagnostics.map(\.code) == ["STA004", "STA004", "STA004"])
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(diagnostics.first?.message == "messages.messageIdentifiers[0].messageIdentifier '../default/PRODUCT/en-US' is not a UUID; msgc ignores this entry")
        #expect(diagnostics.first?.location == SourceLocation(path: "state.json", line: 2, column: 25))
    }

    /// What state fetch writes: canonical JSON, entries sorted, the same bytes whatever order
    /// Apple listed them in, read back to the same state.
    @Test func theCanonicalStateFileIsByteStableAndReadsBack() throws {
        let forward = try #require(Self.parse(Self.valid).0)
        let reversed = StateFile(messages: forward.messages.reversed(), images: forward.images)
        #expect(forward.json.canonicalBytes == reversed.json.canonicalBytes)
        let (again, diagnostics) = StateFileParser.parse(bytes: forward.json.canonicalBytes, path: "state.json")
        #expect(diagnostics.isEmpty)
        #expect(again?.messages.map(\.identifier) == forward.messages.map(\.identifier).sorted())
        #expect(again?.message("0a1b2c3d-0000-5000-8000-000000000002")?.state == .other("IN_REVIEW"))
        #expect(again?.image("0a1b2c3d-0000-5000-8000-0000000000aa")?.imageSize == "FULL_SIZE")
    }
}
