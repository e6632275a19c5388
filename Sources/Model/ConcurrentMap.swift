import Dispatch

extension Array where Element: Sendable {
    /// `map` with the elements transformed on every core at once.
    ///
    /// The result is in the array's order whatever order the work finishes in, so output made
    /// from it stays deterministic. `transform` must be safe to call from several threads at
    /// once: a pure function of its argument, as every stage of msgc is.
    public func concurrentMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        var results = [T?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            let slots = ResultSlots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots.base[index] = transform(self[index])
            }
        }
        return results.map { $0! }
    }
}

/// The result array's storage, shared by the threads of `concurrentMap`: each writes only its
/// own index, and the array is read only after every one of them has finished.
private struct ResultSlots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T?>
}

extension Array where Element: Sendable {
    /// An array made in parts on every core at once, part `index` making `counts[index]`
    /// elements in order with `fill`, straight into their place: the parts are never gathered
    /// from arrays of their own, which at hundreds of thousands of elements meant copying
    /// (and retaining) each of them once more.
    ///
    /// `fill` must append exactly as many elements as its part's count says; it runs on several
    /// threads at once, like `concurrentMap`'s transform.
    public init(concurrentParts counts: [Int], fill: @Sendable (_ part: Int, _ elements: inout PartWriter<Element>) -> Void) {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var total = 0
        for count in counts {
            starts.append(total)
            total += count
        }
        let offsets = starts
        self.init(unsafeUninitializedCapacity: total) { buffer, initializedCount in
            guard total > 0 else { return }
            let slots = PartSlots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: counts.count) { part in
                var writer = PartWriter(base: slots.base, next: offsets[part], end: offsets[part] + counts[part])
                fill(part, &writer)
                precondition(writer.next == writer.end, "a part of the array made fewer elements than it counted")
            }
            initializedCount = total
        }
    }
}

/// Where one part of `Array(concurrentParts:fill:)` puts its elements.
public struct PartWriter<Element> {
    fileprivate let base: UnsafeMutablePointer<Element>
    fileprivate var next: Int
    fileprivate let end: Int

    public mutating func append(_ element: Element) {
        precondition(next < end, "a part of the array made more elements than it counted")
        (base + next).initialize(to: element)
        next += 1
    }
}

/// The storage of `Array(concurrentParts:fill:)`, shared by its threads: each initializes only
/// its own part's slots, and the array is used only after every one of them has finished.
private struct PartSlots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
}
