import Bundle
import Diagnostics
import Foundation
import Model
import Testing

/// The state file's optional `defaults` (`msgc state fetch --defaults`): read, written canonically,
/// and absent from older files.
@Suite struct StateDefaultsTests {
    static let product = "com.example.news.premium.yearly"

    static func state(_ defaults: String?) -> [UInt8] {
        Array("""
            {"messages": {"messageIdentifiers": []}, "images": {"imageIdentifiers": []}\(defaults.map { ", \"defaults\": \($0)" } ?? "")}
            """.utf8)
    }

    @Test func anOlderFileHasNoDefaultsAndIsWrittenAsBefore() throws {
        let (state, diagnostics) = StateFileParser.parse(bytes: Self.state(nil), path: "state.json")
        #expect(diagnostics.isEmpty)
        let read = try #require(state)
        #expect(read.defaults == nil)
        #expect(!String(decoding: read.json.canonicalBytes, as: UTF8.self).contains("defaults"))
    }

    @Test func defaultsAreReadAndWrittenCanonicallyWithNoneAsNull() throws {
        let text = """
            [{"product": "\(Self.product)", "locale": "en-US", "messageIdentifier": "EA1A3351-D822-5C73-AFC9-FCE5155B48E5"},
             {"product": "\(Self.product)", "locale": "de-DE", "messageIdentifier": null}]
            """
        let (state, diagnostics) = StateFileParser.parse(bytes: Self.state(text), path: "state.json")
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        let read = try #require(state)
        #expect(read.defaults?.map(\.locale) == ["en-US", "de-DE"])
        #expect(read.defaults?.first?.messageIdentifier == "ea1a3351-d822-5c73-afc9-fce5155b48e5")
        #expect(read.defaults?.last?.messageIdentifier == nil)
        let written = read.json.canonicalBytes
        let again = try #require(StateFileParser.parse(bytes: written, path: "again.json").0)
        #expect(again.json.canonicalBytes == written, "the writer is not canonical")
        let output = String(decoding: written, as: UTF8.self)
        #expect(output.contains("\"messageIdentifier\": null"))
        #expect(output.range(of: "de-DE")!.lowerBound < output.range(of: "en-US")!.lowerBound, "defaults are not sorted")
    }

    @Test(arguments: [
        #"{"product": "a/b", "locale": "en-US", "messageIdentifier": null}"#,
        #"{"product": "p", "locale": "en US", "messageIdentifier": null}"#,
        #"{"product": "p", "locale": "en-US"}"#,
        #"{"product": "p", "locale": "en-US", "messageIdentifier": 7}"#,
    ])
    func anEntryThatCannotBeUsedMakesTheFileUnusable(_ entry: String) {
        let (state, diagnostics) = StateFileParser.parse(bytes: Self.state("[\(entry)]"), path: "state.json")
        #expect(state == nil)
        #expect(diagnostics.contains { $0.code == "STA001" }, "\(diagnostics.map(\.message))")
    }

    /// Each message names the entry where the file writes it, counting entries left out.
    @Test func messagesNameEntriesByTheirPlaceInTheFile() {
        let entries = """
            [{"product": "p", "locale": "en-US", "messageIdentifier": "../x"},
             {"product": "p", "locale": "en-US", "messageIdentifier": null},
             {"product": "p", "locale": "en-US", "messageIdentifier": "EA1A3351-D822-5C73-AFC9-FCE5155B48E5"},
             {"product": "p", "locale": 5, "messageIdentifier": null}]
            """
        let (state, diagnostics) = StateFileParser.parse(bytes: Self.state(entries), path: "state.json")
        #expect(state == nil)
        #expect(diagnostics.map(\.message) == [
            "defaults[0].messageIdentifier '../x' is not a UUID; msgc ignores this entry",
            "defaults[2] names p/en-US again with another message than defaults[1]; msgc cannot tell which Apple serves",
            "defaults[3] needs \"locale\", a string",
        ])
        #expect(diagnostics.map(\.location.line) == [1, 3, 4])
        #expect(diagnostics.map(\.location.column) == [148, 2, 29])
        let (_, wrongKind) = StateFileParser.parse(bytes: Self.state(#"[{"product": "p", "locale": "en-US", "messageIdentifier": 7}]"#), path: "s.json")
        #expect(wrongKind.map(\.message) == ["defaults[0].messageIdentifier must be a string or null, not a number"])
        let (_, notAList) = StateFileParser.parse(bytes: Self.state("null"), path: "s.json")
        #expect(notAList.map(\.message) == ["\"defaults\" must be an array, not null"])
    }

    @Test func anIdentifierThatIsNotAUUIDIsLeftOut() throws {
        let (state, diagnostics) = StateFileParser.parse(
            bytes: Self.state(#"[{"product": "p", "locale": "en-US", "messageIdentifier": "../x"}]"#), path: "state.json")
        #expect(diagnostics.map(\.code) == ["STA004"])
        #expect(try #require(state).defaults?.isEmpty == true)
    }
}
