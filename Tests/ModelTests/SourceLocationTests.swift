import Foundation
import Model
import Testing

@Suite("Source locations and the paths they hold")
struct SourceLocationTests {
    @Test("a path made twice, from any thread, is one SourcePath; different bytes are different paths")
    func pathsEqualByBytes() {
        let made = Array(0..<200).concurrentMap { index in SourcePath("translations/de-DE-\(index % 3).xlf") }
        #expect(Set(made).count == 3)
        #expect(made[0] == SourcePath("translations/de-DE-0.xlf"))
        #expect(made[0].string == "translations/de-DE-0.xlf")
        // Canonically equivalent, not the same bytes: two files on Linux, two paths here.
        let composed = SourcePath("messages/caf\u{E9}.yaml")
        let decomposed = SourcePath("messages/cafe\u{301}.yaml")
        #expect(composed != decomposed)
        #expect(Array(decomposed.string.utf8) == Array("messages/cafe\u{301}.yaml".utf8))
    }

    @Test("locations compare, hash and sort by path bytes and then position")
    func locationsCompare() {
        let first = SourceLocation(path: "messages/a.yaml", line: 3, column: 2)
        let same = SourceLocation(file: SourcePath("messages/a.yaml"), line: 3, column: 2)
        #expect(first == same)
        #expect(Set([first, same]).count == 1)
        var moved = first
        moved.path = "messages/b.yaml"
        #expect(moved != first)
        #expect(moved.path == "messages/b.yaml")
        let sorted = [
            SourceLocation(path: "messages/b.yaml", line: 1),
            SourceLocation(path: "messages/a.yaml", line: 9),
            SourceLocation(path: "Messages/z.yaml", line: 1),
            SourceLocation(path: "messages/a.yaml", line: 2, column: 4),
        ].sorted()
        #expect(sorted.map { "\($0.path):\($0.line!)" } == ["Messages/z.yaml:1", "messages/a.yaml:2", "messages/a.yaml:9", "messages/b.yaml:1"])
        #expect(first.moved(line: 7, column: 1) == SourceLocation(path: "messages/a.yaml", line: 7, column: 1))
    }

    @Test("a location encodes its path as text and decodes to an equal location")
    func codableRoundTrip() throws {
        let location = SourceLocation(path: "translations/fr-FR.xlf", line: 12, column: 5, endLine: 12, endColumn: 9)
        let data = try JSONEncoder().encode(location)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["path"] as? String == "translations/fr-FR.xlf")
        #expect(try JSONDecoder().decode(SourceLocation.self, from: data) == location)
        let wholeFile = SourceLocation(path: "msgc.yaml")
        #expect(try JSONDecoder().decode(SourceLocation.self, from: try JSONEncoder().encode(wholeFile)) == wholeFile)
    }
}
