/// A report as a renderer writes it: UTF-8 bytes, appended to piece by piece and handed on as
/// text about 64 KiB at a time. Every renderer writes through one.
///
/// Appending a piece copies its bytes. Appending it to a `String` cost about 380 instructions
/// more each time, in the string's own bookkeeping: most of the human renderer's time on a
/// report of 20,000 findings, each made of a few dozen pieces.
import Model

struct ReportText {
    private var bytes: [UInt8] = []

    static func += (text: inout ReportText, piece: String) {
        text.bytes.append(contentsOf: piece.utf8)
    }

    static func += (text: inout ReportText, piece: Substring) {
        text.bytes.append(contentsOf: piece.utf8)
    }

    static func += (text: inout ReportText, piece: [UInt8]) {
        text.bytes += piece
    }

    /// Appends what `writer` has written so far, which it then forgets.
    mutating func append(movingFrom writer: inout CanonicalJSONWriter) {
        writer.moveBytes(to: &bytes)
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// Whether enough is written to hand it on.
    var isFull: Bool { bytes.count >= 1 << 16 }

    /// The text written so far, which is then emptied. The pieces are whole strings, so the
    /// bytes are whole characters.
    mutating func take() -> String {
        defer { bytes.removeAll(keepingCapacity: true) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
