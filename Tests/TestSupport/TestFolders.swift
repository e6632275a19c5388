import Foundation
import Synchronization

/// The one folder this test process makes its temporary files and folders in, created at first
/// use in the system's temporary folder and removed, with all it holds, when the process exits.
/// Tests still remove their own folders; what one keeps (a test that failed before its cleanup, a
/// copy a test forgot) goes with the process instead of piling up in /tmp run after run.
public enum TestFolders {
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("msgc-tests-\(getpid())-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        rootPath.withLock { $0 = url.path }
        atexit { TestFolders.removeRoot() }
        return url
    }()

    /// A fresh folder `PREFIX-UUID` in `root`.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let rootPath = Mutex<String?>(nil)

    private static func removeRoot() {
        guard let path = rootPath.withLock({ $0 }) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
