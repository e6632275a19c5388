import Model

/// A report as a renderer writes it: UTF-8 bytes, appended to piece by piece and handed on a
/// part at a time (`write(count:to:part:)`). Every renderer writes through one. The bytes go
/// out as they are: they were made from strings, so they are whole characters of valid UTF-8,
/// and making a `String` of each part checked them all again on the way to a file descriptor.
///
/// Appending a piece copies its bytes. Appending it to a `String` cost about 380 instructions
/// more each time, in the string's own bookkeeping: most of the human renderer's time on a
/// report of 20,000 findings, each made of a few dozen pieces.
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
    /// Diagnostics in one part of a report made on several cores, and parts made at once before
    /// they are handed on: about a thousand findings' text is held at a time.
    static let partSize = 64
    static let partsAtOnce = 16

    /// A report of `count` diagnostics made in parts on every core at once and handed to
    /// `write` in order, part by part: `part` appends the text of the diagnostics at `indices`
    /// (with whatever comes between them) to the text it is given, as a renderer's loop over
    /// them would. A report of one part is made on the calling thread alone.
    ///
    /// Each part's text is the same whichever thread makes it, so the report is the same bytes
    /// as one made in a single loop. Rendering is the last thing a command does after its rules
    /// have run on every core; at 20,000 findings it took a quarter of the run on one.
    static func write(
        count: Int, to write: ([UInt8]) -> Void, part: @Sendable (_ indices: Range<Int>, _ text: inout ReportText) -> Void
    ) {
        let parts = stride(from: 0, to: count, by: partSize).map { $0..<min($0 + partSize, count) }
        guard parts.count > 1 else {
            var text = ReportText()
            part(0..<count, &text)
            if !text.isEmpty { write(text.utf8) }
            return
        }
        for first in stride(from: 0, to: parts.count, by: partsAtOnce) {
            let texts = Array(parts[first..<min(first + partsAtOnce, parts.count)]).concurrentMap { indices in
                var text = ReportText()
                part(indices, &text)
                return text.utf8
            }
            for text in texts where !text.isEmpty { write(text) }
        }
    }
}
