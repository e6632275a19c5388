import Foundation
import Model

/// The checks of a SQLite store's path before SQLite opens it, as msgc checks every path it is
/// given: the file, and the `-wal` and `-shm` files SQLite keeps beside it, must be regular
/// files when they exist (a FIFO or a device is refused, never opened), and its folder must
/// exist. The message says what is wrong.
enum SQLiteFile {
    static func check(_ path: String) throws(StoreError) {
        for (file, role) in [(path, "the store"), (path + "-wal", "the store's log"), (path + "-shm", "the store's shared memory")] {
            var status = stat()
            if stat(file, &status) == 0 {
                let kind = status.st_mode & S_IFMT
                guard kind == S_IFREG else {
                    throw .usage("\(role) '\(file)' is \(FileKind.described(kind)); a SQLite store is a regular file")
                }
                guard access(file, R_OK | W_OK) == 0 else {
                    throw .usage("\(role) '\(file)' cannot be read and written: \(String(cString: strerror(errno)))")
                }
            } else if errno != ENOENT {
                throw .usage("\(role) '\(file)' cannot be read: \(String(cString: strerror(errno)))")
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        var status = stat()
        let folderPath = folder.isEmpty ? "." : folder
        guard stat(folderPath, &status) == 0 else {
            throw .usage("the folder '\(folderPath)' of the store does not exist")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .usage("'\(folderPath)', the folder of the store, is \(FileKind.described(status.st_mode))")
        }
    }
}
