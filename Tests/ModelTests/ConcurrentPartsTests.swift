import Model
import Testing

@Suite("Array made in parts on every core")
struct ConcurrentPartsTests {
    @Test("each part's elements land in order, after the parts before it, whatever part finishes first")
    func partsInOrder() {
        // Parts of uneven sizes, some empty, and enough of them that both cores take some.
        let counts = (0..<500).map { ($0 * 7) % 11 }
        let made = [String](concurrentParts: counts) { part, elements in
            for index in 0..<counts[part] { elements.append("\(part).\(index)") }
        }
        let expected = counts.indices.flatMap { part in (0..<counts[part]).map { "\(part).\($0)" } }
        #expect(made == expected)
    }

    @Test("no parts, or only empty ones, make an empty array")
    func emptyParts() {
        #expect([Int](concurrentParts: []) { _, _ in }.isEmpty)
        #expect([Int](concurrentParts: [0, 0, 0]) { _, _ in }.isEmpty)
    }

    @Test("elements that hold references are kept alive by the array alone")
    func referencesKept() {
        final class Box: Sendable {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        let made = [Box](concurrentParts: [3, 0, 2]) { part, elements in
            for index in 0..<[3, 0, 2][part] { elements.append(Box(part * 10 + index)) }
        }
        #expect(made.map(\.value) == [0, 1, 2, 20, 21])
    }
}
