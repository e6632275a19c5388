import Foundation
import Model

/// Writes one output file atomically: to a temporary file beside it, then renamed over it.
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
                guard (status.st_mode & S_IFMT) == S_IFDIR else { throw Failure(description: "'\(prefix)' is a file, not a folder") }
                continue
            }
            guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
                throw Failure(description: "cannot create folder '\(prefix)': \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Writes `bytes` as the file `name` in `folder`, after checking that `name` is one path
    /// segment that stays inside it (`PathSegment`): a second line of defence behind the checks
    /// where names enter msgc.
    public static func write(_ bytes: [UInt8], named name: String, in folder: URL) throws(Failure) {
        guard PathSegment.isSafe(name) else {
            throw Failure(description: "refusing to write '\(name)': it is not a file name inside '\(folder.path)'")
        }
        try write(bytes, to: folder.appendingPathComponent(name))
    }

    public static func write(_ bytes: [UInt8], to url: URL) throws(Failure) {
        let path = url.standardizedFileURL.path
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw Failure(description: "'\(path)' is a folder")
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
