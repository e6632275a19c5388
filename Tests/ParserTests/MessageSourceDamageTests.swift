import Model
@testable import Parser
import Testing

/// Which messages a source's errors kept from being read whole: by name where its product and
/// key were read, else as unnamed. Their translations wait for the writer's fix.
@Suite struct MessageSourceDamageTests {
    func damage(_ text: String) -> DamagedMessageSource? {
        MessageSourceParser.read(bytes: Array(text.utf8), path: "messages/a.yaml").damage
    }

    static let good = """
          - key: good
            product: p.yearly
            type: text
            header: Fine
            body: Fine too
        """

    @Test func aCleanSourceIsNotDamaged() {
        #expect(damage("messages:\n" + Self.good + "\n") == nil)
    }

    @Test func aMisspeltTypeNamesItsMessage() throws {
        let found = try #require(damage("messages:\n" + Self.good + """

              - key: winback
                product: p.yearly
                type: txt
                header: Stay
                body: Keep it

            """))
        #expect(found.path == "messages/a.yaml")
        #expect(found.messageIDs == ["p.yearly/winback"])
        #expect(!found.hasUnnamedMessages)
    }

    @Test func aMessageReadWithAnErrorIsNamedToo() throws {
        // No header: the message is kept, but its header unit waits for the fix.
        let found = try #require(damage("messages:\n  - { key: winback, product: p.yearly, type: text, body: Keep it }\n"))
        #expect(found.messageIDs == ["p.yearly/winback"])
    }

    @Test(arguments: [
        "messages:\n  - key: [unclosed\n",  // not YAML
        "messages:\n  - product: p.yearly\n    type: text\n    header: A\n    body: B\n",  // no key
        "messages:\n  - just text\n",  // not a mapping
        "message:\n  - { key: a, product: p, type: text, header: A, body: B }\n",  // no `messages`
    ])
    func anUnreadablePartNamesNothing(_ text: String) throws {
        let found = try #require(damage(text))
        #expect(found.hasUnnamedMessages)
    }
}
