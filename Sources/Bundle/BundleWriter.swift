import CFileSystem
import Foundation
import Model

/// Writes a bundle atomically: it is built in a folder beside the destination and swapped
/// into place with one rename, so a failed or killed build leaves the previous bundle whole
/// and never a mix of old and new files.
public enum BundleWriter {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The destination is a file, or a folder that holds something other than an msgc bundle.
        case destinationNotABundle(String)
        /// The destination is a symbolic link, which the final rename would replace.
        case destinationIsLink(String)
        /// An operating-system error while writing; the text says which step and why.
        case io(String)

        public var description: String {
            switch self {
            case .destinationNotABundle(let path):
                "'\(path)' exists and is not an msgc bundle; msgc replaces only a folder that holds one (its manifest.json says \"format\": \"msgc-bundle\")"
            case .destinationIsLink(let path):
                "'\(path)' is a symbolic link; msgc puts a bundle in place by renaming, which would replace the link and "
                    + "not the folder it points to: give --out the folder itself"
            case .io(let text): text
            }
        }
    }

    /// Writes `bundle` to `destination`, replacing an earlier msgc bundle there.
    public static func write(_ bundle: UploadBundle, to destination: URL) throws(Failure) {
        let destinationPath = destination.standardizedFileURL.path
        try checkReplaceable(destinationPath)
        let parent = (destinationPath as NSString).deletingLastPathComponent
        let name = (destinationPath as NSString).lastPathComponent
        do {
            try FileOutput.makeFolder(URL(fileURLWithPath: parent))
        } catch {
            throw .io(error.description)
        }
        removeStaleTemporaries(in: parent, for: name)
        // A name no other build can have, even one in another container sharing the volume
        // (where each msgc may be PID 1), held locked while this build uses it.
        guard let temporary = TemporaryFiles.makeFolder(in: parent, prefix: ".\(name).msgc-tmp-") else {
            throw .io("cannot create a folder in '\(parent)': \(String(cString: strerror(errno)))")
        }
        defer { TemporaryFiles.unregister(temporary) }
        let lock = open(temporary, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if lock >= 0 { _ = flock(lock, LOCK_EX | LOCK_NB) }
        defer { if lock >= 0 { close(lock) } }
        do {
            try writeFiles(bundle, into: temporary)
            try TemporaryFiles.step { () throws(Failure) in try swapIntoPlace(temporary, destinationPath) }
        } catch {
            removeTree(temporary)
            throw error
        }
    }

    /// Whether `path` may be replaced: nothing there, an empty folder, or an msgc bundle.
    static func checkReplaceable(_ path: String) throws(Failure) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if (status.st_mode & S_IFMT) == S_IFLNK { throw .destinationIsLink(path) }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw .destinationNotABundle(path) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if entries.isEmpty { return }
        guard isBundle(path) else { throw .destinationNotABundle(path) }
    }

    /// Whether the folder holds a manifest of format `msgc-bundle`.
    public static func isBundle(_ path: String) -> Bool {
        let manifest = (path as NSString).appendingPathComponent("manifest.json")
        // The size first: a stray file of gigabytes named manifest.json is not read into memory.
        var status = stat()
        guard stat(manifest, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size < 64 << 20,
              let data = FileManager.default.contents(atPath: manifest),
              let root = try? JSONDocument.parse(Array(data)),
              case .string(let format)? = root.member("format")?.value else { return false }
        return format == Manifest.format
    }

    private static func writeFiles(_ bundle: UploadBundle, into folder: String) throws(Failure) {
        // mkdtemp makes the folder readable by its owner only; a bundle is as readable as any output.
        chmod(folder, 0o755)
        var createdFolders: Set<String> = [folder]
        for (path, bytes) in bundle.allFiles {
            // Every path the bundle names stays inside it: each segment names a file or folder
            // (no `..`, no separator, no control character), whatever the names it came from.
            guard path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ PathSegment.isSafe(String($0)) }) else {
                throw .io("refusing to write '\(path)': it is not a path inside the bundle")
            }
            let full = (folder as NSString).appendingPathComponent(path)
            let directory = (full as NSString).deletingLastPathComponent
            if !createdFolders.contains(directory) {
                do {
                    try TemporaryFiles.step { () throws(FileOutput.Failure) in try FileOutput.makeFolder(URL(fileURLWithPath: directory)) }
                } catch {
                    throw .io(error.description)
                }
                createdFolders.insert(directory)
            }
            try TemporaryFiles.step { () throws(Failure) in try writeFile(bytes, to: full) }
        }
        // One sync of the file system once everything is written, not an fsync per file:
        // on the machine measured, each fsync was a disk round trip of its own (about 5 ms,
        // for 2,000 files on the benchmark's app preset), while syncfs writes them together
        // and still reports a write-back error for any of them.
        guard msgc_sync_file_system(folder) == 0 else {
            throw .io("cannot write the bundle in '\(folder)' to disk: \(String(cString: strerror(errno)))")
        }
        for directory in createdFolders.sorted(by: >) { syncPath(directory) }
    }

    private static func writeFile(_ bytes: [UInt8], to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io("cannot create '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Puts `temporary` at `destination` in one step; the previous bundle, if any, is removed after.
    private static func swapIntoPlace(_ temporary: String, _ destination: String) throws(Failure) {
        var status = stat()
        if lstat(destination, &status) != 0 {
            guard rename(temporary, destination) == 0 else {
                throw .io("cannot move the bundle into '\(destination)': \(String(cString: strerror(errno)))")
            }
        } else if exchange(temporary, destination) {
            // `temporary` now holds the previous bundle.
            removeTree(temporary)
        } else {
            // The file system cannot exchange two names; fall back to two renames. A build
            // killed between them leaves the previous bundle under `.NAME.msgc-tmp-XXXXXX-old`.
            let old = temporary + "-old"
            removeTree(old)
            guard rename(destination, old) == 0 else {
                throw .io("cannot move the previous bundle aside: \(String(cString: strerror(errno)))")
            }
            guard rename(temporary, destination) == 0 else {
                let error = String(cString: strerror(errno))
                _ = rename(old, destination)
                throw .io("cannot move the bundle into '\(destination)': \(error)")
            }
            removeTree(old)
        }
        syncPath((destination as NSString).deletingLastPathComponent)
    }

    /// `renameat2(…, RENAME_EXCHANGE)`: swaps two names atomically (Linux 3.15+).
    private static func exchange(_ first: String, _ second: String) -> Bool {
        msgc_exchange_paths(first, second) == 0
    }

    /// Removes temporary folders that a killed msgc left beside the destination: those no
    /// build holds locked. A live build, in this process's container or another one sharing
    /// the volume, holds its folder locked (`flock`) until it is done.
    private static func removeStaleTemporaries(in parent: String, for name: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for entry in entries where entry.hasPrefix(".\(name).msgc-tmp-") || entry.hasPrefix(".\(name).msgc-old-") {
            let path = (parent as NSString).appendingPathComponent(entry)
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }  // another live build
            removeTree(path)
        }
    }

    private static func removeTree(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func syncPath(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
