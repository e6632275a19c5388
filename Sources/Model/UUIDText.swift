/// Parsing of UUIDs written as text.
public enum UUIDText {
    /// The 16 bytes of a UUID written `8-4-4-4-12` in hexadecimal, any case.
    public static func parse(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for (index, character) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = hexValue(character) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
