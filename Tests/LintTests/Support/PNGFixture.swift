import CZlib
import Diagnostics

/// Makes image files for tests: real PNGs (8-bit, all pixels black, compressed with zlib) and
/// deliberately broken ones.
enum PNGFixture {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The bytes of an example image.
    static func bytes(for image: ExampleImage) -> [UInt8] {
        switch image {
        case .png(let width, let height, let colorType, let hasTransparencyChunk):
            return png(width: width, height: height, colorType: colorType, hasTransparencyChunk: hasTransparencyChunk)
        case .pngWithBadCRC(let width, let height):
            var bytes = png(width: width, height: height)
            bytes[8 + 8 + 13] ^= 0xFF  // first byte of IHDR's CRC
            return bytes
        case .truncatedPNG(let width, let height):
            return Array(png(width: width, height: height).prefix(40))
        case .jpeg:
            return jpeg
        }
    }

    /// A complete, decodable PNG whose pixels are all zero.
    static func png(width: Int, height: Int, colorType: UInt8 = 2, hasTransparencyChunk: Bool = false) -> [UInt8] {
        let bytesPerPixel = switch colorType {
        case 0: 1
        case 4: 2
        case 6: 4
        default: 3
        }
        let raw = [UInt8](repeating: 0, count: height * (1 + width * bytesPerPixel))
        var chunks = [chunk("IHDR", header(width: width, height: height, colorType: colorType))]
        if hasTransparencyChunk { chunks.append(chunk("tRNS", colorType == 0 ? [0, 0] : [0, 0, 0, 0, 0, 0])) }
        chunks.append(chunk("IDAT", deflate(raw)))
        chunks.append(chunk("IEND", []))
        return signature + chunks.flatMap { $0 }
    }

    /// A PNG whose IHDR claims any size, with a token IDAT: for checks that read only the header.
    static func headerOnlyPNG(width: Int, height: Int, colorType: UInt8 = 2, extraChunks: [[UInt8]] = []) -> [UInt8] {
        var bytes = signature + chunk("IHDR", header(width: width, height: height, colorType: colorType))
        for extra in extraChunks { bytes += extra }
        return bytes + chunk("IDAT", deflate([0])) + chunk("IEND", [])
    }

    static func header(width: Int, height: Int, bitDepth: UInt8 = 8, colorType: UInt8) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let crc = UInt32(truncatingIfNeeded: CZlib.crc32(CZlib.crc32(0, nil, 0), typeBytes + data, uInt(typeBytes.count + data.count)))
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc)
    }

    static func deflate(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&output, &length, data, uLong(data.count), 9)
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        return Array(output.prefix(Int(length)))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The start of a JFIF file: SOI, an APP0 segment, then EOI.
    static let jpeg: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
        0x00, 0xFF, 0xD9,
    ]
}
