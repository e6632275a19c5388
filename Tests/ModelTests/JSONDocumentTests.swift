@testable import Model
import Foundation
import Testing

/// The JSON reader on inputs shaped to make a careless reader slow or wrong. The large inputs
/// are a megabyte each: a reader linear in its input reads each in a fraction of a second, the
/// reader that copied a string at every escape took about half a minute for one. (The same
/// shape through `msgc coverage --state`, with a hang guard, is in CoverageCommandTests.)
@Suite struct JSONDocumentTests {
    static func string(_ json: String) throws -> String {
        let node = try JSONDocument.parse(Array(json.utf8))
        guard case .string(let text) = node.value else { throw JSONDocument.SyntaxError(message: "not a string", line: 0, column: 0) }
        return text
    }

    /// Runs of text between escapes, ASCII and not: each run used to be appended by copying
    /// every scalar read so far.
    @Test(arguments: [#"a\""#, #"é\""#, #"éééé\n"#, #"\u00e9x"#, #"日本\ud83d\ude00"#])
    func aLongStringOfEscapesBetweenRunsIsReadWhole(_ unit: String) throws {
        let count = (1 << 20) / unit.utf8.count
        let text = try Self.string("\"" + String(repeating: unit, count: count) + "\"")
        let expected = try Self.string("\"" + unit + "\"")
        #expect(text.unicodeScalars.count == expected.unicodeScalars.count * count)
        #expect(text.hasPrefix(expected + expected))
        #expect(text.hasSuffix(expected))
    }

    @Test func manyMembersLongNumbersAndLongKeysAreRead() throws {
        let members = (0..<50_000).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let object = try JSONDocument.parse(Array(("{" + members + "}").utf8))
        guard case .object(let list) = object.value else { Issue.record("not an object"); return }
        #expect(list.count == 50_000)
        #expect(object.member("k49999").map { "\($0.value)" } == "number(\"49999\")")

        let digits = String(repeating: "9", count: 1 << 20)
        let number = try JSONDocument.parse(Array(("[-" + digits + ".5e+" + digits + "]").utf8))
        guard case .array(let values) = number.value, case .number(let written) = values.first?.value else { Issue.record("not a number"); return }
        #expect(written.utf8.count == 2 * digits.utf8.count + 5)

        let key = String(repeating: #"\"é"#, count: 1 << 18)
        let keyed = try JSONDocument.parse(Array(("{\"" + key + "\": 1}").utf8))
        guard case .object(let keyedMembers) = keyed.value else { Issue.record("not an object"); return }
        #expect(keyedMembers.first?.key.unicodeScalars.count == 2 << 18)
    }

    /// Bad bytes are still found after escapes, wherever a run starts and ends.
    @Test func invalidUTF8AfterAnEscapeIsAnError() {
        for bytes: [UInt8] in [
            [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // "\n<FF>"
            [0x22, 0x61, 0x5C, 0x6E, 0xC3, 0x22],  // a truncated é before the closing quote
            [0x22, 0xC0, 0xAF, 0x22],  // an overlong '/'
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // a surrogate written as UTF-8
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // past U+10FFFF
        ] {
            #expect { try JSONDocument.parse(bytes) } throws: { ($0 as? JSONDocument.SyntaxError)?.message == "the string is not valid UTF-8" }
        }
    }
}
