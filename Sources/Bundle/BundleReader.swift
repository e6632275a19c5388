import Foundation
import Model

/// Reads back a bundle that `msgc build` wrote, for `msgc diff`.
///
/// A bundle on disk is input like any other: it may have been copied half-way, edited by hand or
/// be some other folder altogether. The reader checks the manifest's shape and says where it is
/// wrong (line and column, as for the state file), refuses file names that leave the bundle, and
/// reads the small JSON files that say what each message holds and where each default
/// configuration points. `realtime.json`, when the bundle has one (every bundle this msgc
/// writes), is read strictly and the manifest's copies of its facts must match it. Whether the
/// files match their recorded SHA-256 and the digest is `readVerified`'s check.
public enum BundleReader {
    /// Why a folder cannot be read as a bundle; `description` names the file and, for JSON, the
    /// line and column.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The manifest (and every JSON file it names) larger than this is refused.
    public static let maxJSONBytes = 64 << 20
    /// The most files a bundle can hold: 2,000 messages, 2,000 images, defaults and slack.
    static let maxFiles = 100_000

    /// Reads the bundle in `folder`; `displayPath` is how messages name it.
    public static func read(_ folder: URL, displayPath: String) throws(Failure) -> BundleContents {
        var status = stat()
        guard stat(folder.path, &status) == 0 else {
            throw Failure(errno == ENOENT || errno == ENOTDIR
                ? "'\(displayPath)' does not exist" : "'\(displayPath)' cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Failure("'\(displayPath)' is \(FileKind.described(status.st_mode)), not a bundle folder")
        }
        let manifestPath = displayPath.hasSuffix("/") ? displayPath + "manifest.json" : displayPath + "/manifest.json"
        let manifestBytes: [UInt8]
        switch FileReader.bytes(at: folder.appendingPathComponent("manifest.json"), limit: maxJSONBytes) {
        case .success(let bytes): manifestBytes = bytes
        case .failure(.missing): throw Failure("'\(displayPath)' is not an msgc bundle: it has no manifest.json")
        case .failure(.tooLarge(let size)): throw Failure("'\(manifestPath)' has \(size) bytes, more than msgc reads")
        case .failure(.unreadable(let reason)): throw Failure("'\(manifestPath)' cannot be read: \(reason)")
        }
        let files = try listFiles(folder, displayPath: displayPath)
        let present = Set(files)
        // What a realtime answer trusts is in realtime.json, which the digest covers; the
        // manifest keeps copies for its readers, and they must be the same.
        var realtime: RealtimeFacts?
        if present.contains(RealtimeFacts.file) {
            let realtimePath = "\(displayPath.hasSuffix("/") ? displayPath : displayPath + "/")\(RealtimeFacts.file)"
            switch FileReader.bytes(at: folder.appendingPathComponent(RealtimeFacts.file), limit: maxJSONBytes) {
            case .success(let bytes):
                do {
                    realtime = try RealtimeFacts.decode(bytes, path: realtimePath)
                } catch {
                    throw Failure(error.description)
                }
            case .failure(.missing): throw Failure("'\(realtimePath)' does not exist")
            case .failure(.tooLarge(let size)): throw Failure("'\(realtimePath)' has \(size) bytes, more than msgc reads")
            case .failure(.unreadable(let reason)): throw Failure("'\(realtimePath)' cannot be read: \(reason)")
            }
        }
        let manifest = try parseManifest(manifestBytes, path: manifestPath, realtime: realtime)

        var messageBodies: [String: UploadedMessageBody] = [:]
        var defaultTargets: [String: String] = [:]
        for entry in manifest.entries {
            guard present.contains(entry.file) else {
                throw Failure("'\(displayPath)' is incomplete: manifest.json lists '\(entry.file)', which is not in the bundle")
            }
            let filePath = "\(displayPath.hasSuffix("/") ? displayPath : displayPath + "/")\(entry.file)"
            switch entry.operation {
            case .uploadImage: continue
            case .uploadMessage:
                let root = try json(at: folder.appendingPathComponent(entry.file), path: filePath)
                let body = try messageBody(root)
                // What the upload `requires` is what the snapshot judges approved before it
                // answers with the message: the images of its body, which the digest covers.
                let images = Array(Set([body.image?.identifier].compactMap { $0 } + body.bullets.compactMap(\.imageIdentifier))).sorted()
                guard entry.requires == images else {
                    throw Failure("'\(manifestPath)' is damaged: the entry of '\(entry.file)' requires [\(entry.requires.joined(separator: ", "))], but its body shows the images [\(images.joined(separator: ", "))]")
                }
                messageBodies[entry.file] = body
            case .configureDefault:
                let root = try json(at: folder.appendingPathComponent(entry.file), path: filePath)
                guard let identifier = try? root.string("messageIdentifier") else {
                    throw Failure(root.error("a default configuration needs \"messageIdentifier\", a string").description)
                }
                defaultTargets[entry.file] = identifier.lowercased()
            }
        }
        return BundleContents(manifest: manifest, files: files, messageBodies: messageBodies, defaultTargets: defaultTargets, realtime: realtime)
    }

    /// Reads the bundle in `folder` and checks every file against its manifest: each entry's
    /// SHA-256, and the digest over the whole file list (a file added, removed or changed after
    /// msgc wrote the bundle fails it).
    ///
    /// What costs nothing is checked first: a file the manifest does not list, or one larger than
    /// any file msgc writes, fails the bundle before a byte of any file is hashed (a stray file
    /// of gigabytes took seconds to hash just to learn the digest differed).
    public static func readVerified(_ folder: URL, displayPath: String) throws(Failure) -> BundleContents {
        let contents = try read(folder, displayPath: displayPath)
        var limits: [String: Int] = [:]
        // The one file that is no request: listed by no entry, yet hashed into the digest.
        if contents.realtime != nil { limits[RealtimeFacts.file] = maxJSONBytes }
        for entry in contents.manifest.entries {
            limits[entry.file] = entry.operation == .uploadImage ? ContentLimits.maxImageBytes : maxJSONBytes
        }
        for file in contents.files {
            guard let limit = limits[file] else {
                throw Failure("'\(displayPath)' is damaged: '\(file)' is not in its manifest (a file was added after msgc wrote it)")
            }
            var status = stat()
            guard stat(folder.appendingPathComponent(file).path, &status) == 0 else { throw Failure("'\(displayPath)/\(file)' cannot be read") }
            guard Int(status.st_size) <= limit else {
                throw Failure("'\(displayPath)' is damaged: '\(file)' has \(status.st_size) bytes, more than msgc writes there (at most \(limit))")
            }
        }
        var hashes: [String: String] = [:]
        for file in contents.files {
            // Streamed: a stray file of any size costs a megabyte of memory, not its size.
            guard let hash = Digest.sha256Hex(ofFileAt: folder.appendingPathComponent(file).path) else {
                throw Failure("'\(displayPath)/\(file)' cannot be read")
            }
            hashes[file] = hash
        }
        for entry in contents.manifest.entries where hashes[entry.file] != entry.sha256 {
            throw Failure("'\(displayPath)' is damaged: '\(entry.file)' does not have the SHA-256 its manifest records")
        }
        guard BundleBuilder.digest(ofSHA256: hashes) == contents.manifest.digest else {
            throw Failure("'\(displayPath)' is damaged: its files do not match the manifest's digest (a file was added, removed or changed after msgc wrote it)")
        }
        return contents
    }

    // MARK: - manifest.json

    public static func parseManifest(_ bytes: [UInt8], path: String, realtime: RealtimeFacts? = nil) throws(Failure) -> Manifest {
        do {
            return try Manifest.decode(bytes, path: path, realtime: realtime)
        } catch {
            throw Failure(error.description)
        }
    }

    // MARK: - Files

    /// Every regular file under `folder` except `manifest.json`, relative and sorted. A symbolic
    /// link is refused: msgc never writes one, and it could lead out of the bundle.
    static func listFiles(_ folder: URL, displayPath: String) throws(Failure) -> [String] {
        var result: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? folder.path : folder.appendingPathComponent(relative).path
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: absolute)
            } catch {
                throw Failure("folder '\(displayPath)/\(relative)' cannot be read")
            }
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(folder.appendingPathComponent(child).path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: pending.append(child)
                case S_IFREG: if child != "manifest.json" { result.append(child) }
                default: throw Failure("'\(displayPath)/\(child)' is not a regular file; an msgc bundle holds only files and folders")
                }
                if result.count > maxFiles { throw Failure("'\(displayPath)' holds more than \(maxFiles) files; not an msgc bundle") }
            }
        }
        return result.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    private static func json(at url: URL, path: String) throws(Failure) -> JSONCursor {
        switch FileReader.bytes(at: url, limit: maxJSONBytes) {
        case .success(let bytes):
            do {
                return try JSONCursor.parse(bytes, file: path, reading: .strict, naming: .memberName)
            } catch {
                throw Failure(error.description)
            }
        case .failure(.missing): throw Failure("'\(path)' does not exist")
        case .failure(.tooLarge(let size)): throw Failure("'\(path)' has \(size) bytes, more than msgc reads")
        case .failure(.unreadable(let reason)): throw Failure("'\(path)' cannot be read: \(reason)")
        }
    }

    /// A message's request body, as msgc wrote it: what `msgc diff` compares. Members of another
    /// kind than msgc writes are read as absent, and an object without the required ones refused.
    private static func messageBody(_ root: JSONCursor) throws(Failure) -> UploadedMessageBody {
        func text(_ node: JSONCursor?, _ key: String) -> String? { try? node?.member(key)?.string() }
        guard case .object = root.node.value, let header = text(root, "header"), let body = text(root, "body") else {
            throw Failure(root.error("a message needs \"header\" and \"body\", strings").description)
        }
        var image: UploadedMessageBody.Image?
        if let node = root.member("image") {
            guard let identifier = text(node, "imageIdentifier") else {
                throw Failure(node.error("an image needs \"imageIdentifier\", a string").description)
            }
            image = .init(identifier: identifier.lowercased(), altText: text(node, "altText"))
        }
        var bullets: [UploadedMessageBody.Bullet] = []
        if let node = root.member("bulletPoints") {
            guard let items = try? node.array() else {
                throw Failure(node.error("\"bulletPoints\" must be an array").description)
            }
            bullets = items.map { .init(text: text($0, "text"), imageIdentifier: text($0, "imageIdentifier")?.lowercased(), altText: text($0, "altText")) }
        }
        return UploadedMessageBody(header: header, body: body, headerPosition: text(root, "headerPosition"), image: image, bullets: bullets)
    }
}
