import Foundation
import Model
import Testing

@Suite("Reading a file whole")
struct FileReaderTests {
    @Test("a file is read whole, its size as stat gives it")
    func wholeFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("msgc-filereader-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        // Larger than the buffer a grown file is read on in, and not a multiple of it.
        let bytes = (0..<10_007).map { UInt8(truncatingIfNeeded: $0 * 31) }
        try Data(bytes).write(to: url)
        #expect(try FileReader.bytes(at: url, limit: 1 << 20).get() == bytes)
        #expect(FileReader.bytes(at: url, limit: 10_006) == .failure(.tooLarge(10_007)))
        #expect(FileReader.bytes(at: url.appendingPathExtension("gone"), limit: 1 << 20) == .failure(.missing))
    }

    #if os(Linux)
    /// Files in /proc say they are empty and hold text: read past what stat says, as for a file
    /// that grew between stat and read, up to the limit.
    @Test("a file longer than stat says is read to its end, within the limit")
    func fileLongerThanItsStat() throws {
        let url = URL(fileURLWithPath: "/proc/self/status")
        let text = try #require(String(bytes: try FileReader.bytes(at: url, limit: 1 << 20).get(), encoding: .utf8))
        #expect(text.hasPrefix("Name:") && text.hasSuffix("\n"))
        #expect(text.contains("\nPid:"))
        guard case .failure(.tooLarge(let count)) = FileReader.bytes(at: url, limit: 16) else {
            Issue.record("a limit of 16 bytes let /proc/self/status through")
            return
        }
        #expect(count > 16)
    }
    #endif
}
