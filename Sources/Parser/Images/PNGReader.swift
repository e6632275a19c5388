import Model

/// Reads a PNG's structure: the signature, every chunk's length and CRC, the IHDR chunk (which
/// must come first) and the IEND chunk that must close the file.
///
/// Only chunk headers and IHDR are interpreted; image data is checked by CRC, never inflated,
/// so a file that claims 100000 × 100000 pixels costs nothing beyond its own bytes.
public enum PNGReader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func read(_ bytes: [UInt8]) -> Result<PNGInfo, PNGProblem> {
        guard bytes.count >= signature.count, Array(bytes[0..<signature.count]) == signature else {
            if bytes.count < signature.count, signature.starts(with: bytes), !bytes.isEmpty {
                return .failure(.corrupt("the file ends after \(bytes.count) bytes, inside the PNG signature"))
            }
            return .failure(.notPNG(detectedFormat: detectFormat(bytes)))
        }
        var offset = signature.count
        var info: PNGInfo?
        var sawImageData = false
        var chunkIndex = 0
        while true {
            guard offset + 8 <= bytes.count else {
                return .failure(.corrupt(offset == bytes.count
                    ? "the file ends without an IEND chunk" : "the file ends inside a chunk header at byte \(offset)"))
            }
            let length = Int(bigEndian32(bytes, at: offset))
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                return .failure(.corrupt("chunk \(chunkIndex + 1) at byte \(offset) has an invalid type"))
            }
            guard length <= 0x7FFF_FFFF else {
                return .failure(.corrupt("chunk '\(type)' at byte \(offset) claims \(length) bytes, more than PNG allows"))
            }
            let dataStart = offset + 8
            guard dataStart + length + 4 <= bytes.count else {
                let missing = dataStart + length + 4 - bytes.count
                return .failure(.corrupt("the file is truncated: chunk '\(type)' at byte \(offset) needs \(missing) more bytes"))
            }
            let stored = bigEndian32(bytes, at: dataStart + length)
            let computed = CRC32.checksum(bytes[(offset + 4)..<(dataStart + length)])
            guard stored == computed else {
                return .failure(.corrupt("chunk '\(type)' at byte \(offset) has a bad CRC (stored \(hex(stored)), computed \(hex(computed)))"))
            }
            if chunkIndex == 0 {
                guard type == "IHDR" else { return .failure(.corrupt("the first chunk is '\(type)', not IHDR")) }
                switch header(bytes[dataStart..<(dataStart + length)]) {
                case .success(let parsed): info = parsed
                case .failure(let problem): return .failure(problem)
                }
            } else {
                switch type {
                case "IHDR": return .failure(.corrupt("a second IHDR chunk at byte \(offset)"))
                case "IDAT": sawImageData = true
                case "tRNS": info?.hasTransparencyChunk = true
                case "IEND":
                    guard sawImageData, let info else { return .failure(.corrupt("the file has no IDAT chunk, so no image data")) }
                    return .success(info)
                default: break
                }
            }
            offset = dataStart + length + 4
            chunkIndex += 1
        }
    }

    private static func header(_ data: ArraySlice<UInt8>) -> Result<PNGInfo, PNGProblem> {
        guard data.count == 13 else { return .failure(.corrupt("the IHDR chunk has \(data.count) bytes instead of 13")) }
        let start = data.startIndex
        let width = Int(bigEndian32(data, at: start))
        let height = Int(bigEndian32(data, at: start + 4))
        let bitDepth = data[start + 8]
        let colorType = data[start + 9]
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            return .failure(.corrupt("the IHDR chunk gives an impossible size of \(width) × \(height) pixels"))
        }
        let allowedDepths: [UInt8] = switch colorType {
        case 0: [1, 2, 4, 8, 16]
        case 3: [1, 2, 4, 8]
        case 2, 4, 6: [8, 16]
        default: []
        }
        guard !allowedDepths.isEmpty else { return .failure(.corrupt("the IHDR chunk gives colour type \(colorType), which PNG does not define")) }
        guard allowedDepths.contains(bitDepth) else {
            return .failure(.corrupt("the IHDR chunk gives bit depth \(bitDepth), which colour type \(colorType) does not allow"))
        }
        guard data[start + 10] == 0, data[start + 11] == 0, data[start + 12] <= 1 else {
            return .failure(.corrupt("the IHDR chunk gives a compression, filter or interlace method PNG does not define"))
        }
        return .success(PNGInfo(widthPixels: width, heightPixels: height, bitDepth: bitDepth, colorType: colorType, hasTransparencyChunk: false))
    }

    /// Names common image formats by their first bytes, for a helpful message.
    static func detectFormat(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if starts(Array("GIF8".utf8)) { return "GIF" }
        if starts(Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "WebP" }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            return ["heic", "heix", "mif1", "heim", "heis"].contains(brand) ? "HEIC" : (brand.hasPrefix("avi") ? "AVIF" : nil)
        }
        if starts([0x42, 0x4D]) { return "BMP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts(Array("<svg".utf8)) || starts(Array("<?xml".utf8)) { return "SVG or XML" }
        return nil
    }

    private static func bigEndian32<C: Collection>(_ bytes: C, at offset: C.Index) -> UInt32 where C.Element == UInt8, C.Index == Int {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
