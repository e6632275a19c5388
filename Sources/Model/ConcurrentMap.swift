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
    // @unchecked: a raw pointer, safe because no two threads touch one index and nothing reads before all end.
    let base: UnsafeMutablePointer<T?>
}
