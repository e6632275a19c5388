import Foundation

/// What a path is, in the words msgc's messages use: "'/dev/zero' is a character device".
public enum FileKind {
    /// The kind of `mode` (`st_mode`, or its `S_IFMT` bits) with its article.
    public static func described(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }
}
