import Model

/// A report as a renderer writes it: UTF-8 bytes, appended to piece by piece and handed on a
/// part at a time (`write(count:to:part:)`). Every renderer writes through one. The bytes go
/// out as they are: they were made from strings, so they are whole characters of valid UTF-8,
/// and making a `String` of each part checked them all again on the way to a file descriptor.
///
/// Appending a piece copies its bytes. Appending it to a `String` cost about 380 instructions
/// more each time, in the string's own bookkeeping, and a finding is made of a few dozen pieces.
struct ReportText {
    private var bytes: [UInt8] = []

    // Through `withUTF8`: a string's contiguous bytes are copied at once, where appending its
    // `utf8` view went through the generic sequence path (about 170 instructions for a piece
    // of a few bytes, and a report is made of a few dozen pieces a finding).
    static func += (text: inout ReportText, piece: String) {
        var piece = piece
        piece.withUTF8 { text.bytes.append(contentsOf: $0) }
    }

    static func += (text: inout ReportText, piece: Substring) {
        text.bytes.append(contentsOf: piece.utf8)
    }

    /// Appends `text` with each byte `replacement` has a replacement for written as that
    /// replacement, the runs between them copied at once. Only ASCII bytes may be replaced (a
    /// byte of a longer character never is), so the bytes stay whole characters; a renderer's
    /// escapes write into the report this way rather than through a string of their own.
    mutating func append(_ text: String, escaping replacement: (UInt8) -> StaticString?) {
        var text = text
        text.withUTF8 { source in
            var runStart = 0
            for index in source.indices where source[index] < 0x80 {
                guard let escape = replacement(source[index]) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
                escape.withUTF8Buffer { bytes.append(contentsOf: $0) }
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...]))
        }
    }

    /// Appends `count` spaces (none when `count` is not positive).
    mutating func appendSpaces(_ count: Int) { bytes.append(repeating: UInt8(ascii: " "), count: count) }

    /// Appends `count` tildes, a marker's tail (none when `count` is not positive).
    mutating func appendTildes(_ count: Int) { bytes.append(repeating: UInt8(ascii: "~"), count: count) }

    /// Appends what `writer` has written so far, which it then forgets.
    mutating func append(movingFrom writer: inout CanonicalJSONWriter) {
        writer.moveBytes(to: &bytes)
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// The bytes written so far: whole characters, the pieces being whole strings.
    var utf8: [UInt8] { bytes }
}

extension ReportText {
    /// Diagnostics in one part of a report: the text of this many is held at a time.
    static let partSize = 64

    /// A report of `count` diagnostics, handed to `write` part by part: `part` appends the text
    /// of the diagnostics at `indices` (with whatever comes between them) to the text it is
    /// given, as a renderer's loop over them would.
    static func write(count: Int, to write: ([UInt8]) -> Void, part: (_ indices: Range<Int>, _ text: inout ReportText) -> Void) {
        for first in stride(from: 0, to: max(count, 1), by: partSize) {
            var text = ReportText()
            part(first..<min(first + partSize, count), &text)
            if !text.isEmpty { write(text.utf8) }
        }
    }
}

