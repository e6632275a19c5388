/// Where one JSON object or array ends in a stream of bytes, found byte by byte without parsing it.
///
/// A frame's `Content-Length` is the client's word for where its message ends; when the word is
/// too large, waiting for the bytes it promises waits for the next message's, or for bytes the
/// client never sends while it waits for an answer. Following the brackets and strings of the
/// body tells where the message really ended. It checks only what it needs (brackets balance,
/// strings end, nothing outside a string that JSON never has there, such as the letters of a
/// header); the parser still judges the body. Its state is a few integers however deep the nesting.
struct JSONExtent: Equatable {
    enum State: Equatable {
        /// The value has not ended yet.
        case reading
        /// The byte fed last closed the outermost object or array.
        case complete
        /// A byte no JSON object or array could hold there, or a body that is not one.
        case invalid
    }

    private(set) var state = State.reading
    private var depth = 0
    private var inString = false
    private var escaped = false

    mutating func feed(_ byte: UInt8) {
        guard state == .reading else { return }
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            } else if byte < 0x20 {
                state = .invalid
            }
            return
        }
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            return
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            guard depth > 0 else { state = .invalid; return }
            depth -= 1
            if depth == 0 { state = .complete }
        case UInt8(ascii: "\""):
            guard depth > 0 else { state = .invalid; return }
            inString = true
        default:
            // Outside strings an object or array holds only punctuation, numbers and the
            // letters of true, false and null.
            guard depth > 0, Self.valueBytes[Int(byte)] else { state = .invalid; return }
        }
    }

    private static let valueBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in ",:-+.0123456789eEtrufalsn".utf8 { table[Int(byte)] = true }
        return table
    }()
}
