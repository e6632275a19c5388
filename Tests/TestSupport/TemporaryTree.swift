import Foundation

/// A content tree in a fresh temporary folder, removed when the test is done with it.
public final class TemporaryTree {
    public let root: URL

    public init(_ files: [String: String] = [:]) throws {
        root = TestFolders.root.appendingPathComponent("msgc-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, text) }
    }

    public func write(_ path: String, _ text: String) throws {
        try write(path, bytes: Array(text.utf8))
    }

    public func write(_ path: String, bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    public static let config = """
        bundleId: com.example.app
        sourceLocale: en-US
        locales: [en-US, de-DE]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: com.example.app.yearly

        """
}
