/// What msgc learns from a PNG file without decoding a single pixel.
public struct PNGInfo: Hashable, Sendable {
    public var widthPixels: Int
    public var heightPixels: Int
    public var bitDepth: UInt8
    /// 0 greyscale, 2 RGB, 3 palette, 4 greyscale with alpha, 6 RGB with alpha.
    public var colorType: UInt8
    /// Whether the file has a `tRNS` chunk, which makes some colour or palette entry transparent.
    public var hasTransparencyChunk: Bool

    public init(widthPixels: Int, heightPixels: Int, bitDepth: UInt8, colorType: UInt8, hasTransparencyChunk: Bool) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.hasTransparencyChunk = hasTransparencyChunk
    }

    /// Whether the colour type carries an alpha channel.
    public var hasAlphaChannel: Bool { colorType == 4 || colorType == 6 }

    /// "RGBA" for messages.
    public var colorTypeName: String {
        switch colorType {
        case 0: "greyscale"
        case 2: "RGB"
        case 3: "palette"
        case 4: "greyscale with alpha"
        case 6: "RGBA"
        default: "colour type \(colorType)"
        }
    }
}

/// Why a file is not a usable PNG.
public enum PNGProblem: Hashable, Sendable, Error {
    /// The file does not start with the PNG signature; `detectedFormat` names what it is when known.
    case notPNG(detectedFormat: String?)
    /// The file starts like a PNG but its structure is broken; the text says how.
    case corrupt(String)
}
