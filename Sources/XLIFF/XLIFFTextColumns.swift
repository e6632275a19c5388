import Model

/// Finds where each scalar of an XLIFF source or target is written, for a text on one line
/// whose written form is not its value.
///
/// The collector sees a text only as libxml2 hands it over: decoded characters, with
/// references expanded and the text inside code elements (`<ph>`, `<x/>`) dropped. This walks
/// the text as written, from just after its start tag to its end tag, beside the decoded
/// UTF-8, and matches the two up: a literal scalar must be the same bytes, a reference
/// (`&amp;`, `&#x200B;`) the one scalar it stands for, and a 2.0 `<cp/>` the scalar the
/// collector put in its place; a comment or processing instruction adds nothing, a CDATA
/// section its content, and text inside a code element nothing. Which element a tag starts is
/// not worked out again here: the collector lists what each inline element did, in document
/// order. Anything that does not match up gives nil, and the text is then located by its
/// start only.
enum XLIFFTextColumns {
    /// What an inline element does to the text, as the collector decided.
    enum InlineStart {
        /// Its text is part of the source or target (1.2 `g`, `mrk`; 2.0 `pc`, `mrk`, `sm`).
        case keepsText
        /// Its text is not (code elements and unknown ones).
        case dropsText
        /// A 2.0 `<cp hex="…"/>`: one scalar where the element is.
        case codePoint
    }

    /// The columns of `decoded`'s scalars, counted from the start of `written`, which is the
    /// text as written on one line; nil when the two do not match up.
    static func columns(written: ArraySlice<UInt8>, decoded: [UInt8], inlineStarts: [InlineStart]) -> ScalarColumns? {
        var walk = Walk(written: written, decoded: decoded)
        return walk.run(inlineStarts: inlineStarts) ? ScalarColumns(columnOffsets: walk.offsets) : nil
    }

    private struct Walk {
        let written: ArraySlice<UInt8>
        let decoded: [UInt8]
        /// The column offset of each decoded scalar met so far.
        var offsets: [Int] = []
        var index: Int
        var column = 0
        /// The next byte of `decoded` to match.
        var next = 0

        init(written: ArraySlice<UInt8>, decoded: [UInt8]) {
            self.written = written
            self.decoded = decoded
            self.index = written.startIndex
            offsets.reserveCapacity(decoded.count + 1)
        }

        mutating func run(inlineStarts: [InlineStart]) -> Bool {
            var starts = inlineStarts.makeIterator()
            // For each open inline element, whether it drops its text.
            var open: [Bool] = []
            var droppedDepth = 0
            let end = written.endIndex
            while index < end {
                switch written[index] {
                case UInt8(ascii: "<"):
                    if hasPrefix("<!--") {
                        guard skip(past: "-->") else { return false }
                    } else if hasPrefix("<?") {
                        guard skip(past: "?>") else { return false }
                    } else if hasPrefix("<![CDATA[") {
                        guard let close = firstIndex(of: "]]>", from: index + 9) else { return false }
                        index += 9
                        column += 9
                        while index < close {
                            guard literal(isDropped: droppedDepth > 0) else { return false }
                        }
                        index += 3
                        column += 3
                    } else {
                        let tagStart = index
                        let tagColumn = column
                        guard skipTag() else { return false }
                        if written[tagStart + 1] == UInt8(ascii: "/") {
                            guard let drops = open.popLast() else { return false }
                            if drops { droppedDepth -= 1 }
                            continue
                        }
                        guard let start = starts.next() else { return false }
                        if start == .codePoint, droppedDepth == 0 {
                            guard matchAny(at: tagColumn) else { return false }
                        }
                        if written[index - 2] != UInt8(ascii: "/") {
                            open.append(start == .dropsText)
                            if start == .dropsText { droppedDepth += 1 }
                        }
                    }
                case UInt8(ascii: "&"):
                    guard let semicolon = written[index...].firstIndex(of: UInt8(ascii: ";")),
                          let scalar = Self.referencedScalar(written[(index + 1)..<semicolon]) else { return false }
                    if droppedDepth == 0 {
                        guard decodedHas(scalar) else { return false }
                        offsets.append(column)
                        next += UTF8.width(scalar)
                    }
                    // A reference is ASCII: one column a byte.
                    column += semicolon + 1 - index
                    index = semicolon + 1
                default:
                    guard literal(isDropped: droppedDepth > 0) else { return false }
                }
            }
            guard next == decoded.count, open.isEmpty, starts.next() == nil else { return false }
            offsets.append(column)
            return true
        }

        /// One scalar written as itself, which the decoded text has next unless it is dropped.
        private mutating func literal(isDropped: Bool) -> Bool {
            let length = Self.sequenceLength(written[index])
            guard index + length <= written.endIndex else { return false }
            if !isDropped {
                guard next + length <= decoded.count,
                      written[index..<(index + length)].elementsEqual(decoded[next..<(next + length)]) else { return false }
                offsets.append(column)
                next += length
            }
            index += length
            column += 1
            return true
        }

        /// Takes the decoded text's next scalar, whatever it is, as written at `tagColumn`.
        private mutating func matchAny(at tagColumn: Int) -> Bool {
            guard next < decoded.count else { return false }
            offsets.append(tagColumn)
            next += Self.sequenceLength(decoded[next])
            return next <= decoded.count
        }

        private func decodedHas(_ scalar: Unicode.Scalar) -> Bool {
            var matches = true
            var position = next
            UTF8.encode(scalar) { byte in
                matches = matches && position < decoded.count && decoded[position] == byte
                position += 1
            }
            return matches
        }

        /// Moves past a start, end or empty-element tag, whose attribute values may hold `>`.
        private mutating func skipTag() -> Bool {
            var cursor = index + 1
            var quote: UInt8?
            while cursor < written.endIndex {
                let byte = written[cursor]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                cursor += 1
            }
            guard cursor < written.endIndex else { return false }
            advanceColumns(to: cursor + 1)
            return true
        }

        private mutating func skip(past terminator: StaticString) -> Bool {
            guard let close = firstIndex(of: terminator, from: index + 2) else { return false }
            advanceColumns(to: close + terminator.utf8CodeUnitCount)
            return true
        }

        private mutating func advanceColumns(to target: Int) {
            column += written[index..<target].withUnsafeBufferPointer(UTF8Bytes.scalarCount)
            index = target
        }

        private func hasPrefix(_ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { wanted in
                index + wanted.count <= written.endIndex && written[index..<(index + wanted.count)].elementsEqual(wanted)
            }
        }

        private func firstIndex(of terminator: StaticString, from start: Int) -> Int? {
            terminator.withUTF8Buffer { wanted in
                var position = start
                while position + wanted.count <= written.endIndex {
                    if written[position..<(position + wanted.count)].elementsEqual(wanted) { return position }
                    position += 1
                }
                return nil
            }
        }

        /// The bytes of the UTF-8 sequence that `lead` starts (the text is valid UTF-8).
        static func sequenceLength(_ lead: UInt8) -> Int {
            lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        }

        /// The scalar a predefined entity or character reference stands for, from the name
        /// between `&` and `;`.
        static func referencedScalar(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
            switch String(decoding: name, as: UTF8.self) {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            case let reference where reference.hasPrefix("#x"):
                return UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            case let reference where reference.hasPrefix("#"):
                return UInt32(reference.dropFirst(1), radix: 10).flatMap(Unicode.Scalar.init)
            default:
                return nil
            }
        }
    }
}
