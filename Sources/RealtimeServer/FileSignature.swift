#if canImport(Glibc)
import Glibc
#endif

/// What identifies one version of the snapshot file without reading it: the inode it is (a
/// rename over the path gives a new one) and its size and times (a rewrite in place changes
/// them). Two equal signatures are taken as the same bytes, so the watcher reads the file
/// only when one changes.
struct FileSignature: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var byteCount: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64

    /// The signature of the file at `path` (following a symlink, as a deployment that points a
    /// link at the current snapshot expects), or nil when there is none.
    static func of(_ path: String) -> FileSignature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileSignature(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), byteCount: Int64(info.st_size),
            modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changedNanoseconds: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}
