import Diagnostics
@testable import Lint
import Model
import Parser
import Testing

@Suite struct FieldTooLongTests {
    static func run(header: String, measure: LengthMeasure = .utf16, translations: [String: [MessageField: String]] = [:]) -> [Diagnostic] {
        FieldTooLong().check(LintFixture.context(
            messages: [LintFixture.message(header: header)], config: LintFixture.config(measure: measure), translations: translations))
    }

    @Test func exactlyTheLimitPasses() {
        #expect(Self.run(header: String(repeating: "a", count: 66)).isEmpty)
    }

    @Test func pointsAtTheCharacterThatCrossesTheLimit() throws {
        let found = try #require(Self.run(header: String(repeating: "a", count: 66) + "bcde").first)
        #expect(found.message == "header has 70 UTF-16 units; Apple's limit is 66 (after NFC: 70 graphemes, 70 scalars, 70 UTF-16 units, 70 UTF-8 bytes)")
        #expect(found.location == SourceLocation(path: LintFixture.sourcePath, line: 6, column: 13 + 66, endLine: 6, endColumn: 13 + 70))
        #expect(found.subject == Subject(product: LintFixture.product, key: "winback"))
    }

    /// 66 decomposed é are 132 scalars as written but 66 UTF-16 units after NFC: within the limit.
    @Test func countsAfterNFC() {
        #expect(Self.run(header: String(repeating: "e\u{301}", count: 66)).isEmpty)
        let found = Self.run(header: String(repeating: "e\u{301}", count: 67))
        #expect(found.count == 1)
        // The 67th é starts at scalar 132 of the text as written.
        #expect(found.first?.location.column == 13 + 132)
        #expect(found.first?.location.endColumn == 13 + 134)
    }

    /// 👨‍👩‍👧 is 1 grapheme, 5 scalars, 8 UTF-16 units and 18 UTF-8 bytes.
    @Test func emojiZWJSequencesCountDifferentlyPerMeasure() {
        let family = "👨‍👩‍👧"
        let header = String(repeating: "a", count: 60) + family
        #expect(Self.run(header: header, measure: .graphemes).isEmpty)
        #expect(Self.run(header: header, measure: .scalars).isEmpty)
        let found = Self.run(header: header, measure: .utf16)
        #expect(found.first?.message == "header has 68 UTF-16 units; Apple's limit is 66 (after NFC: 61 graphemes, 65 scalars, 68 UTF-16 units, 78 UTF-8 bytes)")
        #expect(found.first?.location.column == 13 + 60)
    }

    @Test func cjkCostsThreeUTF8Bytes() {
        let header = String(repeating: "日", count: 30)
        #expect(Self.run(header: header).isEmpty)
        let found = Self.run(header: header, measure: .utf8)
        #expect(found.first?.message.hasPrefix("header has 90 UTF-8 bytes; Apple's limit is 66") == true)
        #expect(found.first?.location.column == 13 + 22)
    }

    @Test func translationsCarryTheirLocale() throws {
        let long = "Bleiben Sie bei Premium und sparen Sie 50 % bei Ihrer nächsten Verlängerung"
        let found = try #require(Self.run(header: "Stay with Premium", translations: ["de-DE": [.header: long]]).first)
        #expect(found.subject?.locale == "de-DE")
        #expect(found.location.path == "translations/de-DE.xliff")
        #expect(found.message.hasPrefix("de-DE header has 75 UTF-16 units"))
    }

    @Test func arabicWithHarakatCountsScalars() {
        let word = "مَرْحَبًا"  // 5 graphemes, 9 scalars
        let header = Array(repeating: word, count: 7).joined(separator: " ")
        #expect(Self.run(header: header, measure: .graphemes).isEmpty)
        #expect(Self.run(header: header).count == 1)
    }

    /// A block scalar whose lines are the value's lines is located in them, not at its `>` or `|`.
    @Test(arguments: [">-", ">", "|-", "|", ">- # a comment"])
    func blockScalarPointsAtTheCharacterThatCrossesTheLimit(indicator: String) throws {
        let header = "Stay with us, this header is definitely going to be longer than sixty-six"
        let found = try #require(Self.runParsed(header: "\(indicator)\n      \(header)\n").first)
        #expect(found.location == SourceLocation(
            path: LintFixture.sourcePath, line: 7, column: 7 + 66, endLine: 7, endColumn: 7 + header.unicodeScalars.count))
    }

    @Test func foldedLinesAreJoinedBySpaces() throws {
        let found = try #require(Self.runParsed(header: ">-\n      Stay with us, this header is definitely\r\n      going to be longer than sixty-six\n").first)
        #expect(found.location == SourceLocation(path: LintFixture.sourcePath, line: 8, column: 7 + 26, endLine: 8, endColumn: 7 + 33))
    }

    /// A paragraph break, kept trailing lines or an explicit indentation leave no exact place.
    @Test(arguments: [">-\n      Stay with us,\n\n      this header is definitely going to be longer than sixty-six\n",
                      "|+\n      Stay with us, this header is definitely going to be longer than sixty-six\n\n\n",
                      ">2-\n        Stay with us, this header is definitely going to be longer than sixty-six\n"])
    func blockScalarsThatDoNotMapLineByLineKeepTheIndicator(header: String) throws {
        let found = try #require(Self.runParsed(header: header).first)
        #expect(found.location == SourceLocation(path: LintFixture.sourcePath, line: 6, column: 13))
    }

    /// LEN001 for a message read from YAML whose header is written as `header: HEADER`, on line 6.
    static func runParsed(header: String) -> [Diagnostic] {
        let text = "messages:\n  - key: winback\n    product: \(LintFixture.product)\n    type: text\n    default: true\n"
            + "    header: \(header)    body: Keep your plan\n"
        let (messages, source, diagnostics) = MessageSourceParser.parse(bytes: Array(text.utf8), path: LintFixture.sourcePath)
        #expect(diagnostics.isEmpty)
        return FieldTooLong().check(LintFixture.context(messages: messages, sourceFiles: source.map { [$0] } ?? []))
    }

    @Test func hugeTextsAreMeasuredQuickly() {
        let found = Self.run(header: String(repeating: "Premium ", count: 20_000))
        #expect(found.first?.message.hasPrefix("header has 160000 UTF-16 units") == true)
        #expect(found.first?.location.column == 13 + 66)
    }
}
