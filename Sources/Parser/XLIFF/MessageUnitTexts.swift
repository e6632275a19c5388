import Foundation
import Model

/// The id and source text of each unit `msgc extract` writes for a catalog's messages, in the
/// order it writes them, so that the XLIFF reader can keep one copy of each.
///
/// Every locale's file repeats each unit's id and source text. Read on their own, the 39 files
/// of the benchmark's 100x preset held 39 copies of each: about a fifth of lint's memory, spread
/// over the whole heap (BENCHMARKS.md). Where a unit's id, or its source, is byte for byte the
/// one here, the reader keeps this table's string instead of a new one. The value is the same;
/// only the storage is shared, and comparing a unit's source with its message's then finds
/// the same storage at once.
struct MessageUnitTexts: Sendable {
    private let ids: [String]
    private let sources: [String]
    private let indexByID: [String: Int]

    init(messages: [Message]) {
        var ids: [String] = []
        var sources: [String] = []
        for message in messages {
            for (field, text) in message.fields {
                ids.append("\(message.id)/\(field)")
                sources.append(text.value)
            }
        }
        self.ids = ids
        self.sources = sources
        indexByID = Dictionary(ids.indices.lazy.map { (ids[$0], $0) }, uniquingKeysWith: { first, _ in first })
    }

    var isEmpty: Bool { ids.isEmpty }

    /// The entry whose id has exactly the bytes of `id`, if there is one. Units come in the
    /// order the table has them, so `hint`, the entry after the last one found, is tried first.
    func index(of id: String, hint: Int) -> Int? {
        if hint < ids.count, Self.sameBytes(ids[hint], id) { return hint }
        guard let index = indexByID[id], Self.sameBytes(ids[index], id) else { return nil }
        return index
    }

    func id(at index: Int) -> String { ids[index] }

    /// The source text of the entry at `index` when its UTF-8 is exactly `bytes`.
    func source(at index: Int, ifUTF8 bytes: [UInt8]) -> String? {
        var source = sources[index]
        let isSame = source.withUTF8 { text in bytes.withUnsafeBufferPointer { Self.equal(text, $0) } }
        return isSame ? source : nil
    }

    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        var first = first
        var second = second
        return first.withUTF8 { one in second.withUTF8 { equal(one, $0) } }
    }

    private static func equal(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        one.count == other.count && (one.isEmpty || memcmp(one.baseAddress!, other.baseAddress!, one.count) == 0)
    }
}
