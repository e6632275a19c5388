import Diagnostics
@testable import Lint
import Testing

@Suite struct TooManyUploadsTests {
    static func context(messageCount: Int) -> LintContext {
        let messages = (0..<messageCount).map { LintFixture.message(key: "m\($0)", isDefault: $0 == 0, line: 2 + $0 * 12) }
        return LintFixture.context(messages: messages)
    }

    @Test func twoThousandMessagesFit() {
        #expect(TooManyUploads().check(Self.context(messageCount: 2000)).isEmpty)
    }

    @Test func twoThousandAndOneDoNot() {
        let found = TooManyUploads().check(Self.context(messageCount: 2001))
        #expect(found.map(\.message) == ["a build would ship 2001 messages; Apple holds at most 2000 per app"])
    }
}
