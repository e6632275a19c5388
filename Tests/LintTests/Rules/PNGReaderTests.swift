@testable import Lint
@testable import Parser
import Model
import Testing

@Suite struct PNGReaderTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func readsACorrectRGBImage() throws {
        let info = try PNGReader.read(PNGFixture.png(width: 3840, height: 160)).get()
        #expect(info == PNGInfo(widthPixels: 3840, heightPixels: 160, bitDepth: 8, colorType: 2, hasTransparencyChunk: false))
        #expect(!info.hasAlphaChannel)
    }

    @Test(arguments: [UInt8(4), 6])
    func seesAlphaColorTypes(colorType: UInt8) throws {
        let info = try PNGReader.read(PNGFixture.png(width: 1024, height: 1024, colorType: colorType)).get()
        #expect(info.hasAlphaChannel)
    }

    @Test func seesATransparencyChunk() throws {
        let info = try PNGReader.read(PNGFixture.png(width: 1024, height: 1024, hasTransparencyChunk: true)).get()
        #expect(info.hasTransparencyChunk && !info.hasAlphaChannel)
    }

    @Test func namesAJPEGRenamedToPNG() {
        #expect(PNGReader.read(PNGFixture.jpeg) == .failure(.notPNG(detectedFormat: "JPEG")))
        #expect(PNGReader.read(Array("GIF89a".utf8)) == .failure(.notPNG(detectedFormat: "GIF")))
        #expect(PNGReader.read([]) == .failure(.notPNG(detectedFormat: nil)))
    }

    @Test func reportsTruncation() {
        let whole = PNGFixture.png(width: 1024, height: 1024)
        for length in [4, 20, 40, whole.count - 1, whole.count - 12] {
            guard case .failure(.corrupt) = PNGReader.read(Array(whole.prefix(length))) else {
                Issue.record("a PNG cut to \(length) of \(whole.count) bytes was accepted")
                continue
            }
        }
    }

    @Test func reportsABadCRCInAnyChunk() {
        var bytes = PNGFixture.png(width: 1024, height: 1024)
        bytes[bytes.count - 20] ^= 0x01  // inside IDAT's data
        guard case .failure(.corrupt(let reason)) = PNGReader.read(bytes) else {
            Issue.record("bad CRC accepted")
            return
        }
        #expect(reason.contains("bad CRC"))
        #expect(reason.contains("IDAT"))
    }

    @Test func requiresIHDRFirstAndImageData() {
        let noIHDR = PNGFixture.signature + PNGFixture.chunk("IDAT", PNGFixture.deflate([0])) + PNGFixture.chunk("IEND", [])
        #expect(PNGReader.read(noIHDR) == .failure(.corrupt("the first chunk is 'IDAT', not IHDR")))
        let noIDAT = PNGFixture.signature + PNGFixture.chunk("IHDR", PNGFixture.header(width: 1, height: 1, colorType: 2))
            + PNGFixture.chunk("IEND", [])
        #expect(PNGReader.read(noIDAT) == .failure(.corrupt("the file has no IDAT chunk, so no image data")))
    }

    @Test func rejectsImpossibleHeaders() {
        let badDepth = PNGFixture.signature + PNGFixture.chunk("IHDR", PNGFixture.header(width: 1, height: 1, bitDepth: 3, colorType: 2))
        guard case .failure(.corrupt(let reason)) = PNGReader.read(badDepth) else {
            Issue.record("bit depth 3 accepted")
            return
        }
        #expect(reason.contains("bit depth 3"))
        let zeroWidth = PNGFixture.headerOnlyPNG(width: 0, height: 10)
        guard case .failure(.corrupt) = PNGReader.read(zeroWidth) else {
            Issue.record("zero width accepted")
            return
        }
    }

    /// The reader never decodes pixels, so a header claiming ten billion pixels costs nothing.
    @Test func readsAHugeClaimedSizeWithoutAllocating() throws {
        let info = try PNGReader.read(PNGFixture.headerOnlyPNG(width: 100_000, height: 100_000)).get()
        #expect(info.widthPixels == 100_000 && info.heightPixels == 100_000)
    }
}
