import Foundation
import Model

/// The files of a new content tree, as `msgc init` writes them.
public enum Scaffold {
    public enum Failure: Error, CustomStringConvertible {
        case notEmpty(String)
        /// A symbolic link to nothing: there is no folder to write into, and creating one
        /// through the link would put the tree wherever it points.
        case danglingLink(String, target: String)
        /// A folder on the way is a file (or another thing that holds no folders).
        case notAFolder(String, creating: String)
        /// A folder on the way is a link that leads back to itself.
        case linkLoop(String)
        case io(String)

        public var description: String {
            switch self {
            case .notEmpty(let path): "'\(path)' already exists and is not an empty folder; msgc init never overwrites files"
            case .notAFolder(let path, let creating): "'\(path)' is not a folder, so '\(creating)' cannot be created in it"
            case .linkLoop(let path): "'\(path)' is a symbolic link that leads back to itself (a loop); remove it or point it at a folder"
            case .danglingLink(let path, let target):
                "'\(path)' is a symbolic link to '\(target)', which does not exist; remove the link, or create the folder it points to first"
            case .io(let text): text
            }
        }
    }

    /// The files, by path relative to the new tree. Every YAML file starts with the modeline
    /// yaml-language-server reads, naming the JSON Schema that `schemas/` in the tree holds (the
    /// schemas of the msgc that made the tree; `msgc schema` prints them anew).
    public static func files(bundleId: String, namespace: String) -> [(path: String, text: String)] {
        let product = "\(bundleId).premium.yearly"
        return [
            ("schemas/\(Schemas.Kind.config.fileName)", String(decoding: Schemas.schema(.config).canonicalBytes, as: UTF8.self)),
            ("schemas/\(Schemas.Kind.messages.fileName)", String(decoding: Schemas.schema(.messages).canonicalBytes, as: UTF8.self)),
            ("msgc.yaml", """
                # yaml-language-server: $schema=\(modeline(.config, from: "msgc.yaml"))
                # msgc project configuration. See `msgc --help` and README.md.
                bundleId: \(bundleId)
                sourceLocale: en-US
                # App Store Connect locale codes where retention messaging is enabled.
                locales: [en-US]
                # The namespace of every message and image identifier. Made fresh by `msgc init`;
                # never change it once messages have been uploaded.
                namespace: \(namespace)
                minimumState: translated     # translated | reviewed | final
                lengthMeasure: utf16         # graphemes | scalars | utf16 | utf8
                products:
                  - id: \(product)
                    # locales: [en-US, de-DE]   # optional: fewer than the project's; the source locale always ships

                """),
            ("messages/welcome.yaml", """
                # yaml-language-server: $schema=\(modeline(.messages, from: "messages/welcome.yaml"))
                messages:
                  - key: winback
                    product: \(product)
                    type: text
                    default: true
                    header: Stay with Premium
                    body: Keep everything you love about Premium, and pick up right where you left off.
                    note: Shown when a yearly subscriber cancels. Warm, not pushy.

                """),
        ]
    }

    /// The path of the tree's copy of `kind`'s schema, relative to the file at `path` (relative
    /// to the tree): what a `# yaml-language-server: $schema=` line in that file names.
    public static func modeline(_ kind: Schemas.Kind, from path: String) -> String {
        let depth = path.split(separator: "/").count - 1
        return String(repeating: "../", count: depth) + "schemas/" + kind.fileName
    }

    /// Fails when the nearest of `folder` and its parents that exists cannot hold the new tree:
    /// a link to nothing (creating folders through it would put the tree wherever it points),
    /// a link loop, or a file. Said of that path, not as the file system's "file exists".
    static func checkNearestExisting(_ folder: URL) throws(Failure) {
        var shown = folder.relativePath
        var absolute = folder.standardizedFileURL.path
        while true {
            var status = stat()
            if lstat(absolute, &status) == 0 {
                let isLink = status.st_mode & S_IFMT == S_IFLNK
                if stat(absolute, &status) != 0 {
                    if errno == ELOOP { throw .linkLoop(shown) }
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: absolute)) ?? "?"
                    if isLink { throw .danglingLink(shown, target: target) }
                }
                if status.st_mode & S_IFMT != S_IFDIR, absolute != folder.standardizedFileURL.path {
                    throw .notAFolder(shown, creating: folder.relativePath)
                }
                return
            }
            let parent = Self.parent(of: absolute)
            guard parent != absolute, !parent.isEmpty else { return }
            absolute = parent
            let shownParent = Self.parent(of: shown)
            shown = shownParent.isEmpty ? absolute : shownParent
        }
    }

    /// `path` without its last component ("" for a bare name, "/" for one under the root).
    /// Written out because `NSString.deletingLastPathComponent` traps on a one-letter name on
    /// Linux.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var parent = trimmed[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }

    /// Writes `files` into `folder`, which must not exist or be empty.
    public static func write(_ files: [(path: String, text: String)], into folder: URL) throws(Failure) {
        let manager = FileManager.default
        try checkNearestExisting(folder)
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            let entries = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            guard isDirectory.boolValue, entries.isEmpty else { throw .notEmpty(folder.relativePath) }
        }
        do {
            for subfolder in ["messages", "images", "translations"] {
                try manager.createDirectory(at: folder.appendingPathComponent(subfolder), withIntermediateDirectories: true)
            }
            for (path, text) in files {
                let url = folder.appendingPathComponent(path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .withoutOverwriting)
            }
        } catch {
            throw .io("cannot write the content tree: \(error.localizedDescription)")
        }
    }
}
