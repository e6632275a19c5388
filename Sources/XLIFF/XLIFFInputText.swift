import Model

/// The text of an XLIFF file as UTF-8, after checking that its encoding is one msgc reads.
///
/// msgc reads UTF-8 (with or without a byte order mark) and UTF-16 (little or big endian, with a
/// byte order mark, or without one when an XML declaration follows, which XML's encoding
/// detection handles). This UTF-8 text is what libxml2 parses and what byte offsets count in;
/// bad bytes are found here, with a precise location, before libxml2 sees them.
struct XLIFFInputText {
    enum Encoding: String, Sendable {
        case utf8 = "UTF-8"
        case utf16LittleEndian = "UTF-16LE"
        case utf16BigEndian = "UTF-16BE"
    }

    /// Why the bytes cannot be read as text.
    struct Failure: Error, Sendable {
        var message: String
        var line: Int?
        var column: Int?
        /// How many scalars the problem covers, when it is a span.
        var length: Int?
    }

    var encoding: Encoding
    /// The text as UTF-8, without a byte order mark.
    var utf8: [UInt8]
    /// Where the text starts in `utf8` (3 when a UTF-8 byte order mark is kept in place).
    var start: Int

    /// Encodings an XML declaration may name, lower-cased.
    private static let acceptedDeclaredEncodings: Set<String> = [
        "utf-8", "utf8", "utf-16", "utf-16le", "utf-16be", "us-ascii", "ascii",
    ]

    static func decode(_ bytes: [UInt8]) -> Result<XLIFFInputText, Failure> {
        let prefix = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (prefix[0], prefix[1], prefix[2], prefix[3]) {
        case (0x00, 0x00, 0xFE, 0xFF), (0xFF, 0xFE, 0x00, 0x00), (0x00, 0x00, 0x00, 0x3C), (0x3C, 0x00, 0x00, 0x00):
            return .failure(Failure(message: "file is UTF-32 encoded; msgc reads XLIFF in UTF-8 or UTF-16", line: 1, column: 1))
        case (0xEF, 0xBB, 0xBF, _):
            return decodeUTF8(bytes, start: 3)
        case (0xFF, 0xFE, _, _):
            return decodeUTF16(bytes, start: 2, bigEndian: false)
        case (0xFE, 0xFF, _, _):
            return decodeUTF16(bytes, start: 2, bigEndian: true)
        case (0x3C, 0x00, 0x3F, 0x00):
            return decodeUTF16(bytes, start: 0, bigEndian: false)
        case (0x00, 0x3C, 0x00, 0x3F):
            return decodeUTF16(bytes, start: 0, bigEndian: true)
        case (0x3C, 0x00, _, 0x00), (0x00, 0x3C, 0x00, _):
            return .failure(Failure(
                message: "file looks like UTF-16 with neither a byte order mark nor an XML declaration; "
                    + "save it as UTF-8, or as UTF-16 with a byte order mark",
                line: 1, column: 1))
        default:
            return decodeUTF8(bytes, start: 0)
        }
    }

    // MARK: - UTF-8

    private static func decodeUTF8(_ bytes: [UInt8], start: Int) -> Result<XLIFFInputText, Failure> {
        if let failure = checkDeclaredEncoding(bytes, start: start) { return .failure(failure) }
        if !isValidUTF8(bytes, start: start), let failure = locateInvalidUTF8(bytes, start: start) { return .failure(failure) }
        return .success(XLIFFInputText(encoding: .utf8, utf8: bytes, start: start))
    }

    /// Whether the bytes from `start` are well-formed UTF-8 (RFC 3629, as
    /// `UTF8Text.firstInvalidUTF8`). XLIFF is mostly ASCII markup, so ASCII bytes are passed 32
    /// or 8 at a time, and other sequences are checked in place. (The standard library's validation
    /// took as long as libxml2's parsing of the text.)
    private static func isValidUTF8(_ bytes: [UInt8], start: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            let count = raw.count
            var index = start
            @inline(__always) func continuation(_ offset: Int) -> Bool {
                index + offset < count && raw[index + offset] & 0xC0 == 0x80
            }
            let highBits: UInt64 = 0x8080_8080_8080_8080
            while index < count {
                // Runs of markup and English notes 32 bytes at a time, then a word at a time.
                while index + 32 <= count {
                    let words = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
                    guard words & highBits == 0 else { break }
                    index += 32
                }
                if index + 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & highBits == 0 {
                    index += 8
                    continue
                }
                // A word that holds other bytes: each character that starts in it is checked in
                // turn, ASCII ones too, before words are tried again (translated text mixes them).
                let wordEnd = min(index + 8, count)
                while index < wordEnd {
                    let first = raw[index]
                    switch first {
                    case 0x00...0x7F:
                        index += 1
                    case 0xC2...0xDF:
                        guard continuation(1) else { return false }
                        index += 2
                    case 0xE0...0xEF:
                        guard continuation(1), continuation(2) else { return false }
                        let second = raw[index + 1]
                        if first == 0xE0 && second < 0xA0 { return false }  // overlong
                        if first == 0xED && second > 0x9F { return false }  // surrogate
                        index += 3
                    case 0xF0...0xF4:
                        guard continuation(1), continuation(2), continuation(3) else { return false }
                        let second = raw[index + 1]
                        if first == 0xF0 && second < 0x90 { return false }  // overlong
                        if first == 0xF4 && second > 0x8F { return false }  // above U+10FFFF
                        index += 4
                    default:
                        return false
                    }
                }
            }
            return true
        }
    }

    /// The first byte that breaks UTF-8, with its line and column (in scalars): found by the
    /// validator message sources use, placed by the line map the reader uses.
    private static func locateInvalidUTF8(_ bytes: [UInt8], start: Int) -> Failure? {
        guard let index = UTF8Text.firstInvalidUTF8(in: bytes[start...]) else { return nil }
        var lines = XLIFFLineMap(utf8: bytes, start: start)
        let (line, column) = lines.position(at: index)
        let shown = bytes[index..<min(index + 4, bytes.count)]
            .map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }
        return Failure(
            message: "file is not valid UTF-8: byte \(shown.first ?? "") does not start or continue a "
                + "character (bytes \(shown.joined(separator: " ")))",
            line: line, column: column)
    }

    // MARK: - UTF-16

    private static func decodeUTF16(_ bytes: [UInt8], start: Int, bigEndian: Bool) -> Result<XLIFFInputText, Failure> {
        let count = (bytes.count - start) / 2
        var utf8: [UInt8] = []
        utf8.reserveCapacity(count + count / 2)
        var line = 1
        var column = 1
        var unitIndex = 0
        func unit(_ index: Int) -> UInt16 {
            let offset = start + 2 * index
            let high = UInt16(bytes[offset + (bigEndian ? 0 : 1)])
            let low = UInt16(bytes[offset + (bigEndian ? 1 : 0)])
            return high << 8 | low
        }
        while unitIndex < count {
            let first = unit(unitIndex)
            var scalar: Unicode.Scalar?
            var length = 1
            switch first {
            case 0xD800...0xDBFF:
                if unitIndex + 1 < count, case let second = unit(unitIndex + 1), (0xDC00...0xDFFF).contains(second) {
                    scalar = Unicode.Scalar((UInt32(first) - 0xD800) << 10 + (UInt32(second) - 0xDC00) + 0x10000)
                    length = 2
                }
            case 0xDC00...0xDFFF:
                scalar = nil
            default:
                scalar = Unicode.Scalar(first)
            }
            guard let scalar else {
                return .failure(Failure(
                    message: "file is not valid UTF-16: unpaired surrogate 0x\(String(first, radix: 16, uppercase: true))",
                    line: line, column: column))
            }
            utf8.append(contentsOf: UTF8.encode(scalar)!)
            if scalar == "\n" || (scalar == "\r" && (unitIndex + 1 >= count || unit(unitIndex + 1) != 0x0A)) {
                line += 1
                column = 1
            } else if scalar != "\r" {
                column += 1
            }
            unitIndex += length
        }
        if (bytes.count - start) % 2 != 0 {
            return .failure(Failure(message: "file is not valid UTF-16: it has an odd number of bytes (truncated?)",
                                    line: line, column: column))
        }
        if let failure = checkDeclaredEncoding(utf8, start: 0) { return .failure(failure) }
        return .success(XLIFFInputText(encoding: bigEndian ? .utf16BigEndian : .utf16LittleEndian, utf8: utf8, start: 0))
    }

    // MARK: - Declaration

    /// Refuses an XML declaration naming an encoding other than UTF-8 or UTF-16. libxml2 would
    /// convert Latin-1 or, through iconv, many others, but what iconv offers differs between
    /// machines, and the tools translators use all write UTF-8.
    private static func checkDeclaredEncoding(_ bytes: [UInt8], start: Int) -> Failure? {
        let declarationStart = Array("<?xml".utf8)
        guard bytes.count >= start + declarationStart.count,
              bytes[start..<(start + declarationStart.count)].elementsEqual(declarationStart) else { return nil }
        let limit = min(bytes.count, start + 256)
        guard let end = (start..<limit).first(where: { bytes[$0] == UInt8(ascii: ">") }) else { return nil }
        let declaration = bytes[start..<end]
        let keyword = Array("encoding".utf8)
        guard let keywordStart = declaration.indices.first(where: {
            $0 + keyword.count <= end && bytes[$0..<($0 + keyword.count)].elementsEqual(keyword)
        }) else { return nil }
        var index = keywordStart + keyword.count
        while index < end, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "'") { index += 1 }
        guard index < end else { return nil }
        let quote = bytes[index]
        let valueStart = index + 1
        guard let valueEnd = (valueStart..<end).first(where: { bytes[$0] == quote }) else { return nil }
        let name = String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
        guard !acceptedDeclaredEncodings.contains(name.lowercased()) else { return nil }
        // The declaration is ASCII and on line 1, so the column is the byte distance.
        return Failure(message: "file declares encoding '\(name)'; msgc reads XLIFF in UTF-8 or UTF-16",
                       line: 1, column: valueStart - start + 1, length: name.unicodeScalars.count)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
