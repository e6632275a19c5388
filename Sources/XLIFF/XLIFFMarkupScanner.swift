import Foundation
import Model

/// One piece of markup found by `XLIFFMarkupScanner`.
struct XLIFFScannedTag: Sendable {
    enum Kind: Sendable {
        case start
        case emptyElement
        case end
        case doctype
    }

    var kind: Kind
    /// The qualified name as written (`target`, `slr:profiles`); empty for a DOCTYPE.
    var qualifiedName: String
    /// Byte offset of the `<` that opens the tag.
    var start: Int
    /// Byte offset just after the closing `>`: where an element's content begins.
    var contentStart: Int
    /// Each attribute's value as written: from just after its opening quote to its closing quote.
    var attributeValues: [XLIFFScannedAttributeValue]

    func attributeValue(_ qualifiedName: String) -> XLIFFScannedAttributeValue? {
        attributeValues.first { $0.name == qualifiedName }
    }
}

/// Where an attribute value is written in the text.
struct XLIFFScannedAttributeValue: Sendable {
    /// The attribute's qualified name.
    var name: String
    /// Byte offset just after the opening quote.
    var start: Int
    /// Byte offset of the closing quote.
    var endOffset: Int
}

/// Finds tags, as byte offsets, in the UTF-8 text of an XML document (`XLIFFLineMap` turns an
/// offset into a line and column).
///
/// It is not a parser: it relies on libxml2 for well-formedness and only has to skip comments,
/// processing instructions, CDATA sections and quoted attribute values correctly, which is all
/// it takes to find tags in XML (a raw `<` cannot occur anywhere else). The reader uses it
/// where libxml2 does not say enough: to find a DOCTYPE before libxml2 sees one, to name the
/// element a truncated file leaves open, and to find an attribute value libxml2 had to
/// normalize in the tag as written.
struct XLIFFMarkupScanner {
    private let bytes: [UInt8]
    private var index: Int

    /// Scans `bytes` (UTF-8) from offset `start`.
    init(utf8 bytes: [UInt8], start: Int = 0) {
        self.bytes = bytes
        self.index = start
    }

    /// The byte offset the scanner has reached.
    var position: Int { index }

    /// The next start, empty-element, end or DOCTYPE tag, or nil at the end of the text.
    mutating func nextTag() -> XLIFFScannedTag? {
        while let markup = nextMarkup() {
            if let tag = markup.tag { return tag }
        }
        return nil
    }

    /// The offset of the `<` that opens the first piece of markup (a tag, comment, processing
    /// instruction, CDATA section or declaration) longer than `limit` bytes, or nil.
    mutating func firstMarkup(longerThan limit: Int) -> Int? {
        while let markup = nextMarkup() {
            if position - markup.start > limit { return markup.start }
        }
        return nil
    }

    /// The next piece of markup: where it starts, and the tag it is (nil for a comment, a
    /// processing instruction or a CDATA section); nil at the end of the text.
    private mutating func nextMarkup() -> (start: Int, tag: XLIFFScannedTag?)? {
        while index < bytes.count {
            advance { $0 == UInt8(ascii: "<") }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                advance()
                continue
            }
            let start = position
            let next = bytes[index + 1]
            if next == UInt8(ascii: "?") {
                skip(past: Array("?>".utf8))
                return (start, nil)
            } else if next == UInt8(ascii: "!") {
                if hasPrefix("<!--") {
                    skip(past: Array("-->".utf8))
                    return (start, nil)
                } else if hasPrefix("<![CDATA[") {
                    skip(past: Array("]]>".utf8))
                    return (start, nil)
                } else {
                    skipDeclaration()
                    return (start, XLIFFScannedTag(kind: .doctype, qualifiedName: "", start: start, contentStart: position,
                                                   attributeValues: []))
                }
            } else if next == UInt8(ascii: "/") {
                advance(by: 2)
                let name = readName()
                advance { $0 == UInt8(ascii: ">") }
                advance()
                return (start, XLIFFScannedTag(kind: .end, qualifiedName: name, start: start, contentStart: position,
                                               attributeValues: []))
            } else {
                advance()
                return (start, readStartTag(from: start))
            }
        }
        return nil
    }

    // MARK: - Pieces

    private mutating func readStartTag(from start: Int) -> XLIFFScannedTag {
        let name = readName()
        var attributes: [XLIFFScannedAttributeValue] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                advance()
                return XLIFFScannedTag(kind: .start, qualifiedName: name, start: start, contentStart: position,
                                       attributeValues: attributes)
            }
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") {
                advance(by: 2)
                return XLIFFScannedTag(kind: .emptyElement, qualifiedName: name, start: start, contentStart: position,
                                       attributeValues: attributes)
            }
            if Self.isSpace(byte) {
                advance()
                continue
            }
            let attributeName = readName()
            if attributeName.isEmpty { advance() }
            advance { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: ">") }
            guard index < bytes.count, bytes[index] != UInt8(ascii: ">") else { continue }
            let quote = bytes[index]
            advance()
            let valueStart = position
            advance { $0 == quote }
            attributes.append(XLIFFScannedAttributeValue(name: attributeName, start: valueStart, endOffset: index))
            advance()
        }
        return XLIFFScannedTag(kind: .start, qualifiedName: name, start: start, contentStart: position,
                               attributeValues: attributes)
    }

    private mutating func readName() -> String {
        let begin = index
        advance { Self.isSpace($0) || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "=") }
        return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    /// Skips `<!DOCTYPE …>` including an internal subset in brackets and quoted literals.
    private mutating func skipDeclaration() {
        var bracketDepth = 0
        var quote: UInt8?
        advance(by: 2)
        while index < bytes.count {
            let byte = bytes[index]
            advance()
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if byte == UInt8(ascii: "]") {
                bracketDepth -= 1
            } else if byte == UInt8(ascii: ">"), bracketDepth <= 0 {
                return
            }
        }
    }

    private func hasPrefix(_ text: String) -> Bool {
        var offset = index
        for byte in text.utf8 {
            guard offset < bytes.count, bytes[offset] == byte else { return false }
            offset += 1
        }
        return true
    }

    private mutating func skip(past terminator: [UInt8]) {
        while index < bytes.count {
            if bytes[index] == terminator[0], index + terminator.count <= bytes.count,
               bytes[index..<(index + terminator.count)].elementsEqual(terminator) {
                advance(by: terminator.count)
                return
            }
            advance()
        }
    }

    /// Advances up to the first byte that `isStop` accepts (or the end).
    private mutating func advance(until isStop: (UInt8) -> Bool) {
        while index < bytes.count, !isStop(bytes[index]) { index += 1 }
    }

    private mutating func advance(by count: Int = 1) {
        index = min(index + count, bytes.count)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

extension ArraySlice where Element == UInt8 {
    /// Whether these bytes are exactly `text`'s UTF-8. Compares two buffers: a generic
    /// `elementsEqual` over `String.UTF8View` retains the string once per byte, which made it
    /// a tenth of the cost of reading XLIFF (BENCHMARKS.md).
    func isUTF8(of text: String) -> Bool {
        var text = text
        return text.withUTF8 { isSameBytes(as: $0) }
    }

    /// Whether these bytes are exactly `other`, compared with `memcmp`.
    func isSameBytes(as other: [UInt8]) -> Bool {
        other.withUnsafeBufferPointer { isSameBytes(as: $0) }
    }

    private func isSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        withUnsafeBufferPointer { $0.isSameBytes(as: other) }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes are exactly `other`, compared with `memcmp`.
    func isSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (isEmpty || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }
}
