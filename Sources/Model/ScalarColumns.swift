/// Where each scalar of a value sits on its line, for a value written on one line in a form
/// that is not the value itself: XML text with references (`&amp;`, `&#x200B;`), XLIFF 2.0
/// `<cp/>`, inline elements or CDATA sections.
///
/// A scalar written as a reference or a `<cp/>` sits where the reference or the element
/// starts, and spans it; any other scalar sits where it is written. Offset `count` (just after
/// the last scalar) sits where the text ends. Most such texts have one or two references, so
/// the columns are kept as runs: from the scalar that starts a run on, scalars sit at
/// consecutive columns.
public struct ScalarColumns: Sendable, Hashable {
    /// The number of scalars, then for each run its first scalar and that scalar's column
    /// offset from the value's location. One array, so that a `ScalarStyle` holding it stays
    /// one word and `Located` no larger.
    private let storage: [Int32]

    /// The columns `columnOffsets` give: one for each scalar of the value, counted from the
    /// value's location, then one for the end of the value. Nil for an empty list or one that
    /// does not fit in 32 bits.
    public init?(columnOffsets: [Int]) {
        guard let last = columnOffsets.last, columnOffsets.count <= Int(Int32.max), last <= Int(Int32.max) else { return nil }
        var storage: [Int32] = [Int32(columnOffsets.count - 1)]
        for (scalar, column) in columnOffsets.enumerated() {
            if scalar > 0, column == columnOffsets[scalar - 1] + 1 { continue }
            storage.append(Int32(scalar))
            storage.append(Int32(column))
        }
        self.storage = storage
    }

    /// The number of scalars of the value.
    public var count: Int { Int(storage[0]) }

    /// The column offset of scalar `scalarOffset` (clamped to `0...count`) from the value's location.
    public func columnOffset(atScalar scalarOffset: Int) -> Int {
        let scalar = min(max(scalarOffset, 0), count)
        var run = 1
        while run + 2 < storage.count, Int(storage[run + 2]) <= scalar { run += 2 }
        return Int(storage[run + 1]) + scalar - Int(storage[run])
    }
}
