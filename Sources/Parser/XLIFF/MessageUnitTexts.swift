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
    /// For each entry, the first entry whose id is the same string (`==`, which is canonical
    /// equivalence): what the reader tells repeated ids apart by.
    private let idClasses: [Int]

    init(messages: [Message]) {
        var ids: [String] = []
        var sources: [String] = []
        for message in messages {
            for (field, text) in message.fields {
                ids.append(message.unitID(of: field))
                sources.append(text.value)
            }
        }
        self.ids = ids
        self.sources = sources
        let indexByID = Dictionary(ids.indices.lazy.map { (ids[$0], $0) }, uniquingKeysWith: { first, _ in first })
        self.indexByID = indexByID
        idClasses = ids.map { indexByID[$0]! }
    }

    var count: Int { ids.count }

    /// What the table knows of a unit id.
    struct Match {
        /// The entry whose id has exactly the bytes of the unit's, if there is one.
        var entry: Int?
        /// The first entry whose id is the same string as the unit's (`==`), if any: two unit
        /// ids are the same string exactly when they have the same class, or have none and
        /// are `==`.
        var idClass: Int?
    }

    /// Looks `id` up. Units come in the order the table has them, so `hint`, the entry after
    /// the last one found, is tried first.
    func match(_ id: String, hint: Int) -> Match {
        if hint < ids.count, Self.sameBytes(ids[hint], id) { return Match(entry: hint, idClass: idClasses[hint]) }
        guard let index = indexByID[id] else { return Match(entry: nil, idClass: nil) }
        return Match(entry: Self.sameBytes(ids[index], id) ? index : nil, idClass: index)
    }

    func id(at index: Int) -> String { ids[index] }

    /// The source text of the entry at `index` when its UTF-8 is exactly `bytes`.
    func source(at index: Int, ifUTF8 bytes: [UInt8]) -> String? {
        let isSame = sources[index].utf8.withContiguousStorageIfAvailable { text in
            bytes.withUnsafeBufferPointer { text.isSameBytes(as: $0) }
        } ?? sources[index].utf8.elementsEqual(bytes)
        return isSame ? sources[index] : nil
    }

    /// Whether two strings have the same UTF-8, compared in place: the table's strings are
    /// shared by every file read at once, and a copy would retain and release them.
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        first.utf8.withContiguousStorageIfAvailable { one in
            second.utf8.withContiguousStorageIfAvailable { one.isSameBytes(as: $0) }
        }.flatMap { $0 } ?? first.utf8.elementsEqual(second.utf8)
    }
}
