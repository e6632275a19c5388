import Diagnostics
@testable import Lint
import Model
import Testing

@Suite struct WrongImageDimensionsTests {
    static func diagnostics(fullSize: (Int, Int)? = nil, bullet: (Int, Int)? = nil, sameFile: Bool = false) -> [Diagnostic] {
        var images: [String: [UInt8]] = [:]
        if let fullSize { images["images/hero.png"] = PNGFixture.headerOnlyPNG(width: fullSize.0, height: fullSize.1) }
        if let bullet { images["images/check.png"] = PNGFixture.headerOnlyPNG(width: bullet.0, height: bullet.1) }
        let message = LintFixture.message(
            image: fullSize == nil ? nil : "images/hero.png",
            bullets: bullet == nil && !sameFile ? [] : [.init(image: sameFile ? "images/hero.png" : "images/check.png")])
        return WrongImageDimensions().check(LintFixture.context(messages: [message], images: images))
    }

    @Test(arguments: [(3840, 160), (3840, 2160), (3840, 1000)])
    func acceptsFullSizeImages(width: Int, height: Int) {
        #expect(Self.diagnostics(fullSize: (width, height)).isEmpty)
    }

    @Test(arguments: [(3839, 160), (3841, 800), (3840, 159), (3840, 2161), (1920, 1080), (1024, 1024), (100_000, 100_000)])
    func rejectsOtherFullSizeImages(width: Int, height: Int) {
        let found = Self.diagnostics(fullSize: (width, height))
        #expect(found.count == 1)
        #expect(found.first?.message == "full-size image 'images/hero.png' is \(width) × \(height) pixels; Apple requires exactly 3840 wide and 160 to 2160 high")
    }

    @Test(arguments: [(1023, 1024), (1024, 1023), (512, 512), (2048, 2048)])
    func rejectsOtherBulletSizes(width: Int, height: Int) {
        let found = Self.diagnostics(bullet: (width, height))
        #expect(found.map(\.message) == ["bullet 1 image 'images/check.png' is \(width) × \(height) pixels; Apple requires exactly 1024 × 1024"])
    }

    @Test func acceptsBulletIcons() {
        #expect(Self.diagnostics(bullet: (1024, 1024)).isEmpty)
    }

    /// A 3840 × 1024 file fits the full-size slot, not the bullet slot: only the bullet use is wrong.
    @Test func checksAnImageUsedInBothRolesForEach() {
        let found = Self.diagnostics(fullSize: (3840, 1024), sameFile: true)
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("bullet 1 image") == true)
        #expect(found.first?.location.line == 11)
    }
}
