import Foundation
import Testing
@testable import ExperimentStore
import TestSupport

@Suite struct SubjectKeyTests {
    /// Python's `hmac.new(bytes(range(32)), b"2000000123456789", hashlib.sha256).hexdigest()`.
    @Test func hashesWithHMACSHA256() throws {
        let key = try SubjectKey(bytes: Array(0..<32))
        #expect(key.hash(originalTransactionId: "2000000123456789").hex == "1c06468dd4c61196037e286c1556513ebff16a60bf73165301e40587fba6423c")
        #expect(key.hash(originalTransactionId: "2000000123456789") == key.hash(originalTransactionId: "2000000123456789"))
        #expect(key.hash(originalTransactionId: "2000000123456789") != key.hash(originalTransactionId: "2000000123456790"))
    }

    @Test func readsTheFileAsItIsAndWarnsWhenOthersMayReadIt() throws {
        let folder = TestFolders.root.appendingPathComponent("msgc-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("subject.key").path
        // Python's `hmac.new(b"k" * 40 + b"\n", b"1000000000000001", hashlib.sha256).hexdigest()`.
        try (Data(repeating: UInt8(ascii: "k"), count: 40) + Data([0x0A])).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o600) == 0)
        let (key, quiet) = try SubjectKey.read(file: path)
        #expect(quiet == nil)
        #expect(key.hash(originalTransactionId: "1000000000000001").hex == "d15266ffcf24deb705d5cead9ff07122c2167657f2a8f74f3038b37f5ea3ae3b")
        #expect(chmod(path, 0o644) == 0)
        let (_, warning) = try SubjectKey.read(file: path)
        #expect(warning == "the subject key '\(path)' can be read by other users (mode 644); chmod 600 it")
    }

    @Test func refusesAShortOrWrongFile() throws {
        let folder = TestFolders.root.appendingPathComponent("msgc-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = folder.appendingPathComponent("short.key").path
        try Data(repeating: 7, count: 31).write(to: URL(fileURLWithPath: short))
        let fifo = folder.appendingPathComponent("fifo.key").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [
            (short, "has 31 bytes; it needs at least 32 random bytes"),
            (fifo, "cannot be read: not a regular file"),
            (folder.appendingPathComponent("absent.key").path, "does not exist"),
        ]
        for (path, expected) in cases {
            #expect {
                try SubjectKey.read(file: path)
            } throws: { error in
                guard case .usage(let message) = error as? StoreError else { return false }
                return message.contains(path) && message.contains(expected)
            }
        }
    }
}
