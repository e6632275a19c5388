import Foundation
import Model

/// Writes one output file atomically: to a temporary file beside it, then renamed over it. It
/// replaces only a regular file: a folder, a device, a FIFO or a socket at the path is refused.
public enum FileOutput {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates the folder at `url` and any missing parents; a folder already there is fine.
    public static func makeFolder(_ url: URL) throws(Failure) {
        let path = url.standardizedFileURL.path
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            var status = stat()
            if stat(prefix, &status) == 0 {
                guard (status.st_mode & S_IFMT) == S_IFDIR else { throw Failure(description: "'\(prefix)' is \(FileKind.described(status.st_mode)), not a folder") }
                continue
            }
            guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
                throw Failure(description: "cannot create folder '\(prefix)': \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Writes `bytes` as the file `name` in `folder`, after checking that `name` is one path
    /// segment that stays inside it (`PathSegment`): a second line of defence behind the checks
    /// where names enter msgc. A link already there is replaced, never followed, so the write
    /// stays in `folder`.
    public static func write(_ bytes: [UInt8], named name: String, in folder: URL) throws(Failure) {
        guard PathSegment.isSafe(name) else {
            throw Failure(description: "refusing to write '\(name)': it is not a file name inside '\(folder.path)'")
        }
        try write(bytes, to: folder.appendingPathComponent(name), throughLink: false)
    }

    /// Writes `bytes` as the file at `url`. A link there that the user named (`--out`) is
    /// written through, as `msgc extract` writes its locale's file: the file it names is
    /// replaced and the link kept. A path msgc made itself (a default name in the content
    /// tree, an `.orphans` file) passes `throughLink: false`: a link there is replaced, so a
    /// cloned tree's link cannot send the write outside it.
    public static func write(_ bytes: [UInt8], to url: URL, throughLink: Bool = true) throws(Failure) {
        let given = url.standardizedFileURL.path
        var path = given
        // Only a regular file is replaced. Renamed over, a device (`--out /dev/full`), a FIFO or
        // what `/dev/stdout` names would be swapped for a plain file, which as root breaks the
        // machine's own /dev.
        var status = stat()
        if lstat(given, &status) == 0 {
            var kind = status.st_mode & S_IFMT
            if kind == S_IFLNK && throughLink {
                guard stat(given, &status) == 0 else {
                    throw Failure(description: "'\(given)' is a link to nothing that exists; give the file's own path")
                }
                kind = status.st_mode & S_IFMT
                if kind == S_IFREG {
                    guard let resolved = realpath(given, nil) else {
                        throw Failure(description: "cannot write '\(given)': \(String(cString: strerror(errno)))")
                    }
                    path = String(cString: resolved)
                    free(resolved)
                }
            }
            if kind == S_IFDIR { throw Failure(description: "'\(given)' is a folder") }
            // The file standard output or error goes to (`--out /dev/stdout` with a redirect to a
            // file, or `--out report.txt > report.txt`): replaced, it would take the stream's
            // other writes with it.
            if kind == S_IFREG {
                for (stream, name) in [(STDOUT_FILENO, "standard output"), (STDERR_FILENO, "standard error")] {
                    var open = stat()
                    if fstat(stream, &open) == 0, open.st_dev == status.st_dev, open.st_ino == status.st_ino {
                        throw Failure(description: "'\(given)' is the file msgc's \(name) goes to; give --out a file of its own")
                    }
                }
            }
            if kind != S_IFREG && kind != S_IFLNK {
                throw Failure(description: "'\(given)' is \(FileKind.described(kind)); msgc writes its output only as a regular file")
            }
        }
        guard let (temporary, descriptor) = TemporaryFiles.makeFile(
            in: (path as NSString).deletingLastPathComponent, prefix: "." + (path as NSString).lastPathComponent + ".msgc-tmp-")
        else {
            let reason = errno
            let folder = (path as NSString).deletingLastPathComponent
            if reason == ENOENT || reason == ENOTDIR, stat(folder, &status) != 0 || (status.st_mode & S_IFMT) != S_IFDIR {
                throw Failure(description: "cannot write '\(path)': there is no folder '\(folder)'")
            }
            throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(reason)))")
        }
        defer { TemporaryFiles.unregister(temporary) }
        var failure: Int32 = 0
        var offset = 0
        while offset < bytes.count && failure == 0 {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno != EINTR { failure = errno }
            } else {
                offset += written
            }
        }
        // mkstemp makes the file readable by its owner only; outputs are as readable as any file.
        if failure == 0 && fchmod(descriptor, 0o644) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0 else {
            unlink(temporary)
            throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(failure)))")
        }
        guard TemporaryFiles.step({ rename(temporary, path) }) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot write '\(path)': \(reason)")
        }
    }
}
