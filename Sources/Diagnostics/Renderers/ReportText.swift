import Model

/// A report as a renderer writes it: UTF-8 bytes, appended to piece by piece and handed on as
/// text a part at a time (`write(count:to:part:)`). Every renderer writes through one.
///
/// Appending a piece copies its bytes. Appending it to a `String` cost about 380 instructions
/// more each time, in the string's own bookkeeping: most of the human renderer's time on a
/// report of 20,000 findings, each made of a few dozen pieces.
struct ReportText {
    private var bytes: [UInt8] = []

    static func += (text: inout ReportText, piece: String) {
        text.bytes.append(contentsOf: piece.utf8)
    }

    static func += (text: inout ReportText, piece: Substring) {
        text.bytes.append(contentsOf: piece.utf8)
    }

    /// Appends what `writer` has written so far, which it then forgets.
    mutating func append(movingFrom writer: inout CanonicalJSONWriter) {
        writer.moveBytes(to: &bytes)
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// The text written so far, which is then emptied. The pieces are whole strings, so the
    /// bytes are whole characters.
    mutating func take() -> String {
        defer { bytes.removeAll(keepingCapacity: true) }
        return String(decoding: bytes, as: UTF8.self)
    }
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
        count: Int, to write: (String) -> Void, part: @Sendable (_ indices: Range<Int>, _ text: inout ReportText) -> Void
    ) {
        let parts = stride(from: 0, to: count, by: partSize).map { $0..<min($0 + partSize, count) }
        guard parts.count > 1 else {
            var text = ReportText()
            part(0..<count, &text)
            if !text.isEmpty { write(text.take()) }
            return
        }
        for first in stride(from: 0, to: parts.count, by: partsAtOnce) {
            let texts = Array(parts[first..<min(first + partsAtOnce, parts.count)]).concurrentMap { indices in
                var text = ReportText()
                part(indices, &text)
                return text.take()
            }
            for text in texts where !text.isEmpty { write(text) }
        }
    }
}
