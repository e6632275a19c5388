@testable import Lint
import Diagnostics
import Model
import Testing

/// IMG006–IMG011: what a message may carry, and images nobody uses.
@Suite struct MessageShapeRulesTests {
    @Test func offerMessagesCarryNoMedia() {
        let offer = LintFixture.message(key: "half", type: .promotionalOffer, isDefault: false, image: "images/hero.png", bullets: [.init()])
        let switchPlan = LintFixture.message(key: "monthly", type: .switchPlan, isDefault: false, bullets: [.init(), .init()], line: 20)
        let found = MediaOnOfferMessage().check(LintFixture.context(messages: [offer, switchPlan]))
        #expect(found.map(\.message) == [
            "a promotional-offer message cannot have an image; Apple shows the offer in its place",
            "a promotional-offer message cannot have bullet points; it has 1",
            "a switch-plan message cannot have bullet points; it has 2",
        ])
        #expect(MediaOnOfferMessage().check(LintFixture.context(messages: [LintFixture.message(image: "images/hero.png", bullets: [.init()])])).isEmpty)
    }

    @Test func aboveImageNeedsAnImage() {
        let without = LintFixture.message(headerPosition: .aboveImage)
        let found = HeaderAboveMissingImage().check(LintFixture.context(messages: [without]))
        #expect(found.count == 1)
        #expect(found.first?.fixIts.first?.edits.first?.replacement == "above-body")
        #expect(HeaderAboveMissingImage().check(LintFixture.context(messages: [LintFixture.message(headerPosition: .aboveImage, image: "images/hero.png")])).isEmpty)
    }

    @Test func atMostFiveBullets() {
        let five = LintFixture.message(bullets: Array(repeating: .init(), count: 5))
        #expect(TooManyBullets().check(LintFixture.context(messages: [five])).isEmpty)
        let seven = LintFixture.message(bullets: Array(repeating: .init(), count: 7))
        let found = TooManyBullets().check(LintFixture.context(messages: [seven]))
        #expect(found.map(\.message) == ["message has 7 bullet points; Apple allows at most 5"])
        #expect(found.first?.location.line == 2 + 9 + 5)
        #expect(found.first?.fixIts.first?.message == "remove 2 bullet points")
    }

    @Test func bulletsNeedAllThreeParts() {
        let message = LintFixture.message(bullets: [.init(), .init(image: nil), .init(text: nil, image: nil, alt: nil)])
        let found = IncompleteBullet().check(LintFixture.context(messages: [message]))
        #expect(found.map(\.message) == ["bullet 2 has no image", "bullet 3 has no text, image or alt"])
    }

    @Test func imagesNeedAltText() {
        #expect(MissingAltText().check(LintFixture.context(messages: [LintFixture.message(image: "images/hero.png", alt: nil)])).count == 1)
        #expect(MissingAltText().check(LintFixture.context(messages: [LintFixture.message(image: "images/hero.png")])).isEmpty)
    }

    @Test func unusedImagesAreWarnedAbout() {
        let message = LintFixture.message(image: "images/./hero.png", bullets: [.init(image: "images/icons/../check.png")])
        let context = LintFixture.context(
            messages: [message], imageFilesOnDisk: ["images/check.png", "images/hero.png", "images/old.png"])
        let found = UnusedImage().check(context)
        #expect(found.map(\.location) == [SourceLocation(path: "images/old.png")])
        #expect(found.first?.severity == .warning)
    }
}
