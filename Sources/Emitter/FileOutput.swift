import Foundation

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

    public static func write(_ bytes: [UInt8], to url: URL) throws(Failure) {
        let path = url.standardizedFileURL.path
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw Failure(description: "'\(path)' is a folder")
        }
        let temporary = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".msgc-tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot write '\(path)': \(reason)")
        }
    }
}
