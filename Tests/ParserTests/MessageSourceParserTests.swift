import Diagnostics
import Foundation
import Model
@testable import Parser
import Testing

@Suite struct MessageSourceParserTests {
    func parse(_ text: String) -> ([Message], [Diagnostic]) {
        let (messages, _, diagnostics) = MessageSourceParser.parse(bytes: Array(text.utf8), path: "messages/a.yaml")
        return (messages, diagnostics)
    }

    static let full = """
        messages:
          - key: winback
            product: com.example.app.yearly
            type: text
            default: true
            header: Stay with Premium
            body: "Keep your plan: save 50% on your next renewal."
            headerPosition: above-image
            image: { file: images/hero.png, alt: Readers with the morning edition }
            bullets:
              - { text: Unlimited articles, image: images/check.png, alt: Check mark }
              - text: Offline reading
                image: images/offline.png
                alt: A cloud with an arrow
            note: >-
              Shown when a yearly subscriber cancels.
              Warm, not pushy.
        """

    @Test func readsAFullMessage() throws {
        let (messages, diagnostics) = parse(Self.full)
        #expect(diagnostics.isEmpty)
        let message = try #require(messages.first)
        #expect(message.id == "com.example.app.yearly/winback")
        #expect(message.type.value == .text)
        #expect(message.isDefaultMessage)
        #expect(message.headerPosition?.value == .aboveImage)
        #expect(message.body?.value == "Keep your plan: save 50% on your next renewal.")
        #expect(message.body?.style == .quoted(hasEscapes: false))
        #expect(message.image?.file?.value == "images/hero.png")
        #expect(message.bullets.count == 2)
        #expect(message.bullets[1].alt?.value == "A cloud with an arrow")
        #expect(message.note?.value == "Shown when a yearly subscriber cancels. Warm, not pushy.")
        #expect(message.fields.map(\.field.description) == [
            "header", "body", "image.alt", "bullets.1.text", "bullets.1.alt", "bullets.2.text", "bullets.2.alt",
        ])
        #expect(message.header?.location == SourceLocation(path: "messages/a.yaml", line: 6, column: 13))
        #expect(message.header?.location(atScalarOffset: 5).column == 18)
    }

    @Test func missingRequiredFieldsPointAtTheMessage() {
        let (messages, diagnostics) = parse("""
            messages:
              - key: winback
                product: com.example.app.yearly
                type: text
                header: Stay
            """)
        #expect(messages.count == 1)
        #expect(diagnostics.map(\.code) == ["PRS005"])
        #expect(diagnostics[0].message == "message has no 'body'")
        #expect(diagnostics[0].location.line == 2)
        #expect(diagnostics[0].location.column == 5)
    }

    @Test func emptyValueIsMissing() {
        let (_, diagnostics) = parse("messages:\n  - key: a\n    product: p\n    type: text\n    header:\n    body: b\n")
        #expect(diagnostics.map(\.message) == ["'header' of message has no value"])
    }

    @Test func unknownKeysAndWrongTypes() {
        let (_, diagnostics) = parse("""
            messages:
              - key: winback
                product: com.example.app.yearly
                type: text
                heder: Stay
                body: [Keep]
                default: maybe
                image: images/hero.png
                bullets: { text: x }
            """)
        let messages = diagnostics.sorted(by: Diagnostic.outputOrder).map { "\($0.location.line!):\($0.code) \($0.message)" }
        #expect(messages == [
            "2:PRS005 message has no 'header'",
            "5:PRS003 unknown key 'heder' in message",
            "6:PRS004 'body' must be text, not a list",
            "7:PRS004 'default' must be true or false, not 'maybe'",
            "8:PRS004 'image' must be a mapping with 'file' and 'alt', not text",
            "9:PRS004 'bullets' must be a list, not a mapping",
        ])
        #expect(diagnostics.first { $0.code == "PRS003" }?.fixIts.first?.message == "did you mean 'header'?")
    }

    @Test func typeOutsideItsSet() {
        let (messages, diagnostics) = parse("messages:\n  - key: a\n    product: p\n    type: promo\n    header: h\n    body: b\n")
        #expect(messages.isEmpty)
        #expect(diagnostics.map(\.code) == ["PRS006"])
        #expect(diagnostics[0].location == SourceLocation(path: "messages/a.yaml", line: 4, column: 11, endLine: 4, endColumn: 16))
    }

    @Test func invalidKeyGetsASuggestion() {
        let (_, diagnostics) = parse("messages:\n  - key: Winback Offer\n    product: p\n    type: text\n    header: h\n    body: b\n")
        #expect(diagnostics.map(\.code) == ["PRS010"])
        #expect(diagnostics[0].fixIts.first?.message == "use 'winback-offer'")
    }

    @Test func malformedYAMLReportsLibyamlsPosition() {
        let (messages, diagnostics) = parse("messages:\n  - key: winback\n    header: \"Stay with Premium\n")
        #expect(messages.isEmpty)
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].code == "PRS001")
        #expect(diagnostics[0].message.hasPrefix("malformed YAML: "))
        // Where the quote opens, not where libyaml gives up (issue 44).
        #expect(diagnostics[0].location.line == 3)
    }

    @Test func duplicateYAMLKeys() {
        let (_, diagnostics) = parse("messages:\n  - key: a\n    key: b\n")
        #expect(diagnostics.map(\.code) == ["PRS007"])
        #expect(diagnostics[0].message == "mapping gives the key 'key' more than once")
    }

    @Test func invalidUTF8PointsAtTheByte() {
        var bytes = Array("messages:\n  - key: a\n    header: Caf".utf8)
        bytes.append(0xE9)  // Windows-1252 é
        bytes += Array(" au lait\n".utf8)
        let (_, _, diagnostics) = MessageSourceParser.parse(bytes: bytes, path: "messages/a.yaml")
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].code == "PRS002")
        #expect(diagnostics[0].location == SourceLocation(path: "messages/a.yaml", line: 3, column: 16))
        #expect(diagnostics[0].message == "file is not valid UTF-8: byte 0xE9 at offset 36 does not start a valid sequence")
    }

    @Test(arguments: [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE2, 0x82]] as [[UInt8]])
    func rejectsOverlongSurrogatesAndTruncatedSequences(_ sequence: [UInt8]) {
        let (_, _, diagnostics) = MessageSourceParser.parse(bytes: Array("messages: ".utf8) + sequence, path: "m.yaml")
        #expect(diagnostics.map(\.code) == ["PRS002"])
    }

    @Test func acceptsAByteOrderMark() {
        let (_, _, diagnostics) = MessageSourceParser.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("messages: []\n".utf8), path: "m.yaml")
        #expect(diagnostics.isEmpty)
    }

    @Test func refusesAbsurdNesting() {
        let deep = "messages: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let (messages, diagnostics) = parse(deep)
        #expect(messages.isEmpty)
        #expect(diagnostics.map(\.code) == ["PRS009"])
    }

    @Test func refusesDeepBlockNesting() {
        let deep = "messages:\n" + String(repeating: "- ", count: 50_000) + "x\n"
        let (_, diagnostics) = parse(deep)
        #expect(diagnostics.map(\.code) == ["PRS009"])
    }

    @Test func crlfLinesLocateLikeLineFeeds() throws {
        let text = Self.full.replacingOccurrences(of: "Stay with Premium", with: "Stay with us\tnow")
        let (lfMessages, lfDiagnostics) = parse(text)
        let (crlfMessages, crlfDiagnostics) = parse(text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(lfDiagnostics.isEmpty && crlfDiagnostics.isEmpty)
        let lf = try #require(lfMessages.first)
        let crlf = try #require(crlfMessages.first)
        #expect(crlf.header?.location(atScalarOffset: 12).column == 25)
        #expect(crlf.body?.valueSpan == SourceLocation(path: "messages/a.yaml", line: 7, column: 12, endLine: 7, endColumn: 58))
        #expect(crlf.fields.map { $0.text.location(atScalarOffset: 3) } == lf.fields.map { $0.text.location(atScalarOffset: 3) })
        #expect(crlf.fields.map(\.text.style) == lf.fields.map(\.text.style))
    }

    @Test func crlfUnknownKeyGetsItsEdit() throws {
        let (_, diagnostics) = parse("messages:\r\n  - key: a\r\n    heder: x\r\n")
        let unknown = try #require(diagnostics.first { $0.code == "PRS003" })
        #expect(unknown.location == SourceLocation(path: "messages/a.yaml", line: 3, column: 5, endLine: 3, endColumn: 10))
        #expect(unknown.fixIts.first?.edits.map(\.replacement) == ["header"])
    }

    @Test(arguments: [("\u{0B}", "U+000B"), ("\u{1B}", "U+001B"), ("\u{7F}", "U+007F")])
    func controlCharacterIsLocated(character: String, name: String) throws {
        let (_, diagnostics) = parse("messages:\r\n  - key: é\n    header: x\(character)y\n")
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostics.map(\.code) == ["PRS001"])
        #expect(diagnostic.location == SourceLocation(path: "messages/a.yaml", line: 3, column: 14, endLine: 3, endColumn: 15))
        #expect(diagnostic.message.contains(name))
        #expect(!diagnostic.message.contains("offset"))
    }

    @Test func controlCharacterAfterAByteOrderMarkIsLocated() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("messages:\n  - key: \u{1B}\n".utf8)
        let (_, _, diagnostics) = MessageSourceParser.parse(bytes: bytes, path: "m.yaml")
        #expect(diagnostics.map(\.location) == [SourceLocation(path: "m.yaml", line: 2, column: 10, endLine: 2, endColumn: 11)])
    }

    @Test(arguments: ["\u{2028}", "\u{2029}", "\u{85}", "\r"])
    func breaksOnlyLibyamlCountsKeepLocations(separator: String) throws {
        let (messages, diagnostics) = parse("""
            messages:
              - key: a
                product: p
                type: text
                header: "Stay\(separator)with us"
                body: "Keep it"
                boddy: b
            """)
        #expect(diagnostics.map(\.code) == ["PRS003"])
        #expect(diagnostics.first?.location == SourceLocation(path: "messages/a.yaml", line: 7, column: 5, endLine: 7, endColumn: 10))
        let body = try #require(messages.first?.body)
        #expect(body.valueSpan == SourceLocation(path: "messages/a.yaml", line: 6, column: 12, endLine: 6, endColumn: 19))
    }

    @Test(arguments: ["\u{2028}", "\u{85}", "\r"])
    func breakInAPlainScalarIsReportedOnItsLine(separator: String) throws {
        let text = "messages:\n  - key: a\n    header: Stay\(separator)with us\n    body: b\n"
        let (_, diagnostics) = parse(text)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.code == "PRS001")
        #expect(diagnostic.location.line == 4)
        #expect(diagnostic.notes.map(\.location) == [SourceLocation(path: "messages/a.yaml", line: 3, column: 18)])
    }

    @Test func quotedUnknownKeyIsReplacedInsideItsQuotes() throws {
        let (_, diagnostics) = parse("messages:\n  - key: a\n    \"heder\": x\n")
        let unknown = try #require(diagnostics.first { $0.code == "PRS003" })
        let span = SourceLocation(path: "messages/a.yaml", line: 3, column: 6, endLine: 3, endColumn: 11)
        #expect(unknown.location == span)
        #expect(unknown.fixIts.first?.edits == [FixIt.Edit(location: span, replacement: "header")])
    }

    @Test func duplicateKeyPointsAtTheSecondOccurrence() throws {
        let (_, diagnostics) = parse("""
            messages:
              - key: a
                product: p
                type: text
                header: h
                # the body
                body: b
                note: n
                body: c
            """)
        let duplicate = try #require(diagnostics.first)
        #expect(diagnostics.map(\.code) == ["PRS007"])
        #expect(duplicate.location.line == 9)
        #expect(duplicate.location.column == 5)
        #expect(duplicate.notes.map(\.location) == [SourceLocation(path: "messages/a.yaml", line: 7, column: 5)])
    }

    @Test func duplicateKeyInAnInnerMappingIsReportedFirst() throws {
        let (_, diagnostics) = parse("messages:\n  - key: a\n    image: { file: x, file: y }\n    key: b\n")
        #expect(diagnostics.map(\.message) == ["mapping gives the key 'file' more than once"])
        #expect(diagnostics.first?.location.line == 3)
        #expect(diagnostics.first?.location.column == 23)
    }
}
