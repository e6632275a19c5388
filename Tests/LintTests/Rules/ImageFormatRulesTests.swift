@testable import Lint
import Diagnostics
import Model
import Testing

/// IMG002–IMG004 on real files: each finds its own problem and stays quiet about the others.
@Suite struct ImageFormatRulesTests {
    static func run(_ bytes: [UInt8]) -> [String] {
        let context = LintFixture.context(messages: [LintFixture.message(image: "images/hero.png")], images: ["images/hero.png": bytes])
        return (ImageNotPNG().check(context) + CorruptPNG().check(context) + ImageHasTransparency().check(context)).map(\.code)
    }

    @Test func correctImagePasses() {
        #expect(Self.run(PNGFixture.png(width: 3840, height: 160)).isEmpty)
    }

    @Test func jpegRenamedIsNotAPNG() {
        let context = LintFixture.context(messages: [LintFixture.message(image: "images/hero.png")], images: ["images/hero.png": PNGFixture.jpeg])
        let found = ImageNotPNG().check(context)
        #expect(found.map(\.message) == ["full-size image 'images/hero.png' is a JPEG file, not a PNG"])
        #expect(found.first?.location == SourceLocation(path: LintFixture.sourcePath, line: 9, column: 20, endLine: 9, endColumn: 35))
        #expect(Self.run(PNGFixture.jpeg) == ["IMG002"])
    }

    @Test func truncatedAndBadCRCAreCorrupt() {
        #expect(Self.run(PNGFixture.bytes(for: .truncatedPNG(width: 3840, height: 160))) == ["IMG003"])
        #expect(Self.run(PNGFixture.bytes(for: .pngWithBadCRC(width: 3840, height: 160))) == ["IMG003"])
    }

    @Test func alphaAndTransparencyChunkAreTransparency() {
        #expect(Self.run(PNGFixture.png(width: 3840, height: 160, colorType: 6)) == ["IMG004"])
        #expect(Self.run(PNGFixture.png(width: 3840, height: 160, colorType: 4)) == ["IMG004"])
        #expect(Self.run(PNGFixture.png(width: 3840, height: 160, hasTransparencyChunk: true)) == ["IMG004"])
    }

    @Test func missingFilesAreLeftToImageFileNotFound() {
        let context = LintFixture.context(messages: [LintFixture.message(image: "images/hero.png")])
        #expect(ImageNotPNG().check(context).isEmpty && CorruptPNG().check(context).isEmpty)
    }
}
