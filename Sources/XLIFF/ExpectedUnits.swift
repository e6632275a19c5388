import Foundation

/// What a project's messages lead the XLIFF reader to expect in each locale's file: the unit id
/// of every message field, so that a unit that is a message's field is told from one that is
/// none's.
///
/// Ids are told apart by their bytes, as the file wrote them: `String`'s `==` takes
/// canonically equivalent spellings (`é` as one scalar or two) for one id, and a unit whose id
/// is spelled otherwise than the message's is not that field's unit.
///
/// The reader looks up every unit's id here, straight from the bytes libxml2 hands over: the ids'
/// UTF-8 is kept in one buffer and found through a table of places, so that a lookup hashes
/// the bytes once and compares them with `memcmp`, and touches no `String` (the same ids are
/// looked up from every locale's file at once, on every core). An id found here is the
/// project's own string (`id(at:)`), not a new one made for each file.
public struct ExpectedUnits: Sendable, Equatable {
    /// One reference to all of it: every file's reader holds the same table, and a copy of the
    /// value (one per unit read) retains one object, not five arrays.
    private let table: Table

    private final class Table: Sendable {
        /// The different ids, in the order given (a repeat keeps its first place).
        let ids: [String]
        /// The source text of each id's field, when given (`init(fields:)`), else empty.
        let sources: [String]
        /// Their UTF-8, one after another: id `i` ends at `ends[i]` and starts where `i - 1` ends.
        let utf8: [UInt8]
        let ends: [Int]
        /// Open addressing over the ids' hashes: each slot holds an id's place plus one, or 0
        /// when empty. Its size is a power of two at least twice the ids', so probes stay short.
        let slots: [Int32]

        init(ids: [String], sources: [String], utf8: [UInt8], ends: [Int], slots: [Int32]) {
            self.ids = ids
            self.sources = sources
            self.utf8 = utf8
            self.ends = ends
            self.slots = slots
        }
    }

    public init(ids: some Sequence<String>) {
        self.init(fields: ids.lazy.map { (id: $0, source: nil) })
    }

    /// The ids of the messages' fields with their source texts: a unit whose source is written
    /// exactly as its field's text gets that string (`source(at:ifSameAs:)`).
    public init(fields: some Sequence<(id: String, source: String?)>) {
        var kept: [String] = []
        var sources: [String] = []
        var utf8: [UInt8] = []
        var ends: [Int] = []
        var slots = [Int32](repeating: 0, count: 16)
        for (id, source) in fields {
            var text = id
            let isNew = text.withUTF8 { bytes in
                guard Self.place(of: bytes, utf8: utf8, ends: ends, slots: slots) == nil else { return false }
                if 2 * (kept.count + 1) > slots.count {
                    slots = Self.slots(count: 2 * slots.count, utf8: utf8, ends: ends)
                }
                utf8.append(contentsOf: bytes)
                ends.append(utf8.count)
                let mask = slots.count - 1
                var slot = Self.hash(bytes) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(ends.count)
                return true
            }
            if isNew {
                kept.append(text)
                if let source { sources.append(source) }
            }
        }
        table = Table(ids: kept, sources: sources.count == kept.count ? sources : [], utf8: utf8, ends: ends, slots: slots)
    }

    /// How many different ids there are.
    public var count: Int { table.ids.count }

    public func contains(_ id: String) -> Bool {
        index(of: id) != nil
    }

    /// Where `id` is among the ids (0 up to `count`), if it is one of them.
    public func index(of id: String) -> Int? {
        var id = id
        return id.withUTF8 { index(ofUTF8: $0) }
    }

    /// Where the id whose UTF-8 is `bytes` is among the ids, if it is one of them.
    public func index(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        Self.place(of: bytes, utf8: table.utf8, ends: table.ends, slots: table.slots)
    }

    /// The id at `index` (from `index(of:)`), as the project spelled it.
    public func id(at index: Int) -> String {
        table.ids[index]
    }

    /// The source text of the field whose id is at `index`, when its UTF-8 is exactly `bytes`.
    public func source(at index: Int, ifSameAs bytes: [UInt8]) -> String? {
        guard index < table.sources.count else { return nil }
        let source = table.sources[index]
        let same = source.utf8.withContiguousStorageIfAvailable { stored in
            stored.count == bytes.count && bytes.withUnsafeBufferPointer { read in
                read.isEmpty || memcmp(stored.baseAddress!, read.baseAddress!, read.count) == 0
            }
        }
        return same == true ? source : nil
    }

    /// Equal with the same ids, in the same order, by their bytes; the source texts do not
    /// count (a reader told other sources reads the same units, only sharing fewer strings).
    public static func == (lhs: ExpectedUnits, rhs: ExpectedUnits) -> Bool {
        lhs.table === rhs.table || (lhs.table.ends == rhs.table.ends && lhs.table.utf8 == rhs.table.utf8)
    }

    /// A hash of the bytes eight at a time (multiply and rotate, then a final mix). It needs no
    /// seed: the table holds the project's own ids, and an id read from a file only probes it,
    /// so a file cannot make the table's runs longer; at most half the slots are used.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var hash = UInt64(truncatingIfNeeded: raw.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash.rotateLeft(5) ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x517C_C1B7_2722_0A95
            offset += 8
        }
        if offset < raw.count {
            var tail: UInt64 = 0
            for index in offset..<raw.count { tail |= UInt64(raw[index]) << (8 * UInt64(index - offset)) }
            hash = (hash.rotateLeft(5) ^ tail) &* 0x517C_C1B7_2722_0A95
        }
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        return Int(truncatingIfNeeded: hash)
    }

    private static func place(of bytes: UnsafeBufferPointer<UInt8>, utf8: [UInt8], ends: [Int], slots: [Int32]) -> Int? {
        let mask = slots.count - 1
        var slot = hash(bytes) & mask
        return utf8.withUnsafeBufferPointer { stored in
            while slots[slot] != 0 {
                let index = Int(slots[slot]) - 1
                let start = index == 0 ? 0 : ends[index - 1]
                if ends[index] - start == bytes.count
                    && (bytes.isEmpty || memcmp(stored.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0) {
                    return index
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// A table of `count` slots holding every id so far.
    private static func slots(count: Int, utf8: [UInt8], ends: [Int]) -> [Int32] {
        var slots = [Int32](repeating: 0, count: count)
        let mask = count - 1
        utf8.withUnsafeBufferPointer { stored in
            for index in ends.indices {
                let start = index == 0 ? 0 : ends[index - 1]
                var slot = hash(UnsafeBufferPointer(rebasing: stored[start..<ends[index]])) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(index + 1)
            }
        }
        return slots
    }
}

extension UInt64 {
    fileprivate func rotateLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
