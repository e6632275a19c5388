/// The CRC-32 that PNG chunks carry (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320, reflected).
///
/// Written here rather than taken from zlib so that Lint needs no C library for twenty lines.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC of `bytes`, continuing from `crc` (start with 0).
    public static func checksum<C: Collection>(_ bytes: C, continuing crc: UInt32 = 0) -> UInt32 where C.Element == UInt8 {
        var value = ~crc
        for byte in bytes { value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
        return ~value
    }
}
