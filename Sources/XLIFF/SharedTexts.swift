import Foundation

/// Texts a reader expects to read many times over, found by their UTF-8 bytes: a text read
/// that is one of them becomes that `String`, shared, rather than a new one.
///
/// Every locale's file of a project holds the same unit ids and (until a message changes) the
/// same source texts: forty locales read them forty times. Looking the bytes up here costs a
/// hash of a few words and one comparison, where making each a `String` of its own cost a copy,
/// a check of its UTF-8 and an allocation, freed again at the end of the run.
public struct SharedTexts: Sendable, Equatable {
    /// The texts and their lookup table, in one object: a copy of `SharedTexts` is one
    /// reference. The readers of a project's files look texts up on both cores at once, and
    /// each copy of a reference is an atomic count the two cores take turns to write; four
    /// arrays made four such counts for every unit read.
    private let table: Table

    private final class Table: Sendable {
        let texts: [String]
        /// Every text's UTF-8, one after another; text `index` ends at `ends[index]`.
        let utf8: [UInt8]
        let ends: [Int]
        /// Open addressing, a power of two long and at most half full: index + 1 of the text
        /// whose hash leads here, 0 where none does.
        let slots: [Int32]

        init(texts: [String], utf8: [UInt8], ends: [Int], slots: [Int32]) {
            self.texts = texts
            self.utf8 = utf8
            self.ends = ends
            self.slots = slots
        }
    }

    public init(_ texts: some Sequence<String>) {
        let texts = Array(texts)
        var capacity = 8
        while capacity < texts.count * 2 { capacity *= 2 }
        var unique: [String] = []
        var utf8: [UInt8] = []
        var ends: [Int] = []
        var slots = [Int32](repeating: 0, count: capacity)
        // Each text goes where looking it up ends: found, it is a repeat and is left out.
        for var text in texts {
            let (slot, found) = text.withUTF8 { Self.probe(UnsafeRawBufferPointer($0), slots: slots, utf8: utf8, ends: ends) }
            guard found == nil else { continue }
            unique.append(text)
            utf8 += text.utf8
            ends.append(utf8.count)
            slots[slot] = Int32(unique.count)
        }
        table = Table(texts: unique, utf8: utf8, ends: ends, slots: slots)
    }

    /// How many different texts there are.
    public var count: Int { table.texts.count }

    public func contains(_ text: String) -> Bool {
        index(of: text) != nil
    }

    /// Where `text` is among the texts (0 up to `count`), if it is one of them.
    public func index(of text: String) -> Int? {
        guard !table.texts.isEmpty else { return nil }
        var text = text
        return text.withUTF8 { Self.probe(UnsafeRawBufferPointer($0), slots: table.slots, utf8: table.utf8, ends: table.ends).index }
    }

    /// The text whose UTF-8 is `bytes`, if it is one of them.
    public func text(matching bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard !table.texts.isEmpty else { return nil }
        return Self.probe(UnsafeRawBufferPointer(bytes), slots: table.slots, utf8: table.utf8, ends: table.ends).index.map { table.texts[$0] }
    }

    /// Where the text whose UTF-8 is `bytes` is in `slots`, with its index; or the empty slot
    /// where it would go.
    private static func probe(
        _ bytes: UnsafeRawBufferPointer, slots: [Int32], utf8: [UInt8], ends: [Int]
    ) -> (slot: Int, index: Int?) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash(bytes)) & mask
        return utf8.withUnsafeBytes { all in
            while case let entry = Int(slots[slot]), entry != 0 {
                let index = entry - 1
                let start = index == 0 ? 0 : ends[index - 1]
                if ends[index] - start == bytes.count, bytes.isEmpty || memcmp(all.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0 {
                    return (slot, index)
                }
                slot = (slot + 1) & mask
            }
            return (slot, nil)
        }
    }

    public static func == (lhs: SharedTexts, rhs: SharedTexts) -> Bool { lhs.table.texts == rhs.table.texts }

    /// A hash of `bytes` eight at a time, each word mixed in by a multiply and a shift.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 29)
    }
}

/// What a project's messages lead the XLIFF reader to expect in each locale's file: the unit id
/// of every message field, and every field's source text. The reader shares these strings
/// (`SharedTexts`), and tells a unit that is a message's field from one that is none's.
public struct ExpectedUnits: Sendable, Equatable {
    public let ids: SharedTexts
    public let sources: SharedTexts

    public init(ids: some Sequence<String>, sources: some Sequence<String>) {
        self.ids = SharedTexts(ids)
        self.sources = SharedTexts(sources)
    }
}
