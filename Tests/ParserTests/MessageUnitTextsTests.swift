import Foundation
import Model
@testable import Parser
import Testing

@Suite("XLIFF reader: message strings shared with units")
struct MessageUnitTextsTests {
    static let messagesYAML = """
        messages:
          - key: welcome
            product: com.example.app.yearly
            type: text
            header: Keep learning together with us
            body: Your plan gives everyone their own profile and their own progress.
          - key: cafe
            product: com.example.app.yearly
            type: text
            header: Café au lait for everyone who stays
            body: A second body that is long enough to be stored on the heap.

        """

    static func messages() throws -> [Message] {
        let (messages, _, diagnostics) = MessageSourceParser.parse(bytes: Array(messagesYAML.utf8), path: "messages/a.yaml")
        #expect(diagnostics.isEmpty)
        try #require(messages.count == 2)
        return messages
    }

    /// Where a string's UTF-8 is stored: two strings with the same address share storage.
    static func storage(_ text: String) -> UInt {
        var text = text
        return text.withUTF8 { UInt(bitPattern: $0.baseAddress) }
    }

    static func unit(_ id: String, _ source: String, _ target: String = "Übersetzt und lang genug für den Speicher") -> String {
        #"<trans-unit id="\#(id)"><source>\#(source)</source><target state="translated">\#(target)</target></trans-unit>"#
    }

    /// A file with the units out of order, a stale source, a source that is canonically the
    /// message's but not the same bytes (NFD), a source written with a reference, a repeated id
    /// and an id no message has.
    static let xliff = """
        <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
        <file source-language="en-US" target-language="de-DE"><body>
        \(unit("com.example.app.yearly/cafe/body", "A second body that is long enough to be stored on the heap."))
        \(unit("com.example.app.yearly/welcome/header", "Keep learning together with us"))
        \(unit("com.example.app.yearly/welcome/body", "Your plan gives everyone their old profile and their own progress."))
        \(unit("com.example.app.yearly/cafe/header", "Cafe\u{301} au lait for everyone who stays"))
        \(unit("com.example.app.yearly/welcome/header", "Keep learning together with us"))
        \(unit("com.example.app.yearly/gone/header", "Keep learning together with us"))
        </body></file></xliff>
        """

    @Test("a unit keeps the message's id and source string where the bytes are the same, and reads as without them")
    func sharesOnlyTheSameBytes() throws {
        let messages = try Self.messages()
        let table = MessageUnitTexts(messages: messages)
        let bytes = Array(Self.xliff.utf8)
        let (shared, sharedDiagnostics) = XLIFFReader.read(bytes: bytes, path: "translations/de-DE.xlf", messageTexts: table)
        let (plain, plainDiagnostics) = XLIFFReader.read(bytes: bytes, path: "translations/de-DE.xlf")

        #expect(shared == plain)
        #expect(sharedDiagnostics == plainDiagnostics)
        #expect(sharedDiagnostics.map(\.code) == ["XLF009"])
        try #require(shared.units.count == 5)

        let welcome = messages[0]
        let cafe = messages[1]
        let units = shared.units
        // Out of order: found by id all the same.
        #expect(Self.storage(units[0].source.value) == Self.storage(cafe.body!.value))
        #expect(Self.storage(units[1].source.value) == Self.storage(welcome.header!.value))
        #expect(Self.storage(units[0].id.value) == Self.storage(table.id(at: 3)))
        #expect(Self.storage(units[1].id.value) == Self.storage(table.id(at: 0)))
        // A stale source and a source in NFD are the unit's own, byte for byte as written.
        #expect(Self.storage(units[2].source.value) != Self.storage(welcome.body!.value))
        #expect(Self.storage(units[3].source.value) != Self.storage(cafe.header!.value))
        #expect(Array(units[3].source.value.utf8) == Array("Cafe\u{301} au lait for everyone who stays".utf8))
        #expect(Self.storage(units[3].id.value) == Self.storage(table.id(at: 2)))
        // An id no message has.
        #expect(units[4].id.value == "com.example.app.yearly/gone/header")
        #expect(Self.storage(units[4].source.value) != Self.storage(welcome.header!.value))
    }

    @Test("an id is matched byte for byte, not by canonical equivalence")
    func idsMatchByBytes() throws {
        let yaml = """
            messages:
              - key: caf\u{E9}-offer-for-everyone
                product: com.example.app.yearly
                type: text
                header: A header long enough to be stored on the heap

            """
        let (messages, _, _) = MessageSourceParser.parse(bytes: Array(yaml.utf8), path: "messages/a.yaml")
        let table = MessageUnitTexts(messages: messages)
        #expect(table.match("com.example.app.yearly/caf\u{E9}-offer-for-everyone/header", hint: 5).entry == 0)
        #expect(table.match("com.example.app.yearly/cafe\u{301}-offer-for-everyone/header", hint: 0).entry == nil)
        #expect(table.match("com.example.app.yearly/cafe\u{301}-offer-for-everyone/header", hint: 1).entry == nil)
        #expect(table.source(at: 0, ifUTF8: Array("A header long enough to be stored on the heap".utf8)) != nil)
        #expect(table.source(at: 0, ifUTF8: Array("A header long enough to be stored on the heap.".utf8)) == nil)
    }

    @Test("repeated unit ids are found as they are without the table, whichever way they are written")
    func repeatedIDs() throws {
        // Two messages with one id (lint reports the second), and a key in NFC.
        let yaml = """
            messages:
              - key: caf\u{E9}
                product: com.example.app.yearly
                type: text
                header: A header long enough to be stored on the heap
              - key: twice
                product: com.example.app.yearly
                type: text
                header: The first message with this key, long enough
              - key: twice
                product: com.example.app.yearly
                type: text
                header: The second message with this key, long enough

            """
        let (messages, _, _) = MessageSourceParser.parse(bytes: Array(yaml.utf8), path: "messages/a.yaml")
        try #require(messages.count == 3)
        let xliff = """
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
            <file source-language="en-US" target-language="de-DE"><body>
            \(Self.unit("com.example.app.yearly/cafe\u{301}/header", "A header long enough to be stored on the heap"))
            \(Self.unit("com.example.app.yearly/caf\u{E9}/header", "A header long enough to be stored on the heap"))
            \(Self.unit("com.example.app.yearly/twice/header", "The second message with this key, long enough"))
            \(Self.unit("com.example.app.yearly/twice/header", "The first message with this key, long enough"))
            \(Self.unit("com.example.app.yearly/gone/header", "Text"))
            \(Self.unit("com.example.app.yearly/gone/header", "Text"))
            \(Self.unit("com.example.app.yearly/other/header", "Text"))
            </body></file></xliff>
            """
        let bytes = Array(xliff.utf8)
        let (shared, sharedDiagnostics) = XLIFFReader.read(
            bytes: bytes, path: "translations/de-DE.xlf", messageTexts: MessageUnitTexts(messages: messages))
        let (plain, plainDiagnostics) = XLIFFReader.read(bytes: bytes, path: "translations/de-DE.xlf")
        #expect(shared == plain)
        #expect(sharedDiagnostics == plainDiagnostics)
        #expect(sharedDiagnostics.map(\.code) == ["XLF009", "XLF009", "XLF009"])
        #expect(shared.units.map(\.location.line) == [3, 5, 7, 9])
    }

    @Test("a content tree's units share their messages' strings")
    func contentTreeShares() throws {
        let tree = try TemporaryTree([
            "msgc.yaml": TemporaryTree.config,
            "messages/a.yaml": Self.messagesYAML,
            "translations/de-DE.xlf": Self.xliff,
        ])
        let (catalog, _) = ContentTree(root: tree.root).load()
        let welcome = try #require(catalog.messages.first { $0.key.value == "welcome" })
        let file = try #require(catalog.translationFiles.first)
        let header = try #require(file.units.first { $0.id.value == "com.example.app.yearly/welcome/header" })
        #expect(Self.storage(header.source.value) == Self.storage(welcome.header!.value))
    }
}
