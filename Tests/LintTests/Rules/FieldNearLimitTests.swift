@testable import Lint
import Diagnostics
import Model
import Testing

@Suite struct FieldNearLimitTests {
    @Test func warnsAboveEightyPercentOfSourceLimits() throws {
        // 80% of 66 is 52.8: 52 units are fine, 53 are not.
        let fine = FieldNearLimit().check(LintFixture.context(messages: [LintFixture.message(header: String(repeating: "a", count: 52))]))
        #expect(fine.isEmpty)
        let found = try #require(FieldNearLimit().check(LintFixture.context(messages: [LintFixture.message(header: String(repeating: "a", count: 60))])).first)
        #expect(found.severity == .warning)
        #expect(found.message == "header has 60 UTF-16 units, 90% of Apple's limit of 66; translations often run longer")
        #expect(found.location.column == 13 + 52)
    }

    @Test func leavesTextsOverTheLimitToFieldTooLong() {
        #expect(FieldNearLimit().check(LintFixture.context(messages: [LintFixture.message(header: String(repeating: "a", count: 67))])).isEmpty)
    }

    @Test func ignoresTranslations() {
        let context = LintFixture.context(translations: ["de-DE": [.header: String(repeating: "ä", count: 60)]])
        #expect(FieldNearLimit().check(context).isEmpty)
    }
}
