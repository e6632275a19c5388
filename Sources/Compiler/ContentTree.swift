import Diagnostics
import Foundation
import Model
import Parser
import Synchronization
import XLIFF

/// Reads a content tree from disk into a `Catalog`.
///
/// Every file is found by walking the tree in bytewise path order, so the result never
/// depends on the order the file system lists entries in. Nothing outside the tree is read:
/// symbolic links that lead out of it are reported, never followed.
public struct ContentTree: Sendable {
    /// The content tree's folder as given.
    public let root: URL
    /// The folder with every symbolic link resolved, to check containment against.
    private let resolvedRoot: String
    /// `resolvedRoot` and a `/`: what a path inside the tree starts with once resolved.
    private let resolvedRootPrefix: String
    /// The folder's path, which a root-relative path is appended to.
    private let rootPath: String

    /// Text an editor holds for files of the tree, by root-relative path: read instead of the
    /// file on disk (the buffer wins), and read even when no such file exists yet.
    public var overlay: [String: [UInt8]]
    /// What earlier loads read, reused where a file's bytes are the same (`msgc lsp`).
    public var cache: ReadCache?
    /// Whether the units read from XLIFF carry the notes translators wrote
    /// (`TranslationUnit.notes`), which only a command that writes the files again needs
    /// (extract keeps them). `Compilation` leaves them out.
    public var keepsTranslatorNotes = true

    public init(root: URL, overlay: [String: [UInt8]] = [:], cache: ReadCache? = nil) {
        self.root = root.standardizedFileURL
        self.rootPath = root.standardizedFileURL.path
        self.resolvedRoot = Self.realPath(root.standardizedFileURL.path) ?? root.standardizedFileURL.path
        self.resolvedRootPrefix = resolvedRoot + "/"
        self.overlay = overlay
        self.cache = cache
    }

    /// Why a file of the tree was not read.
    public enum ReadFailure: Error, Equatable {
        /// Reading it failed or was refused by `FileReader` (missing, too large, not a regular file).
        case file(FileReader.Failure)
        /// It does not resolve to a file inside the tree (`Placement`): never opened.
        case placement(Placement)
    }

    /// The bytes of the file at root-relative `path`: the overlay's, else the disk's, and the
    /// disk's only when the path resolves inside the tree. Every file of the tree is read here,
    /// msgc.yaml included, so no file linked out of the tree is ever opened (its text would
    /// be echoed back as snippets).
    public func bytes(of path: String, limit: Int) -> Result<[UInt8], ReadFailure> {
        if let bytes = overlay[path] { return bytes.count > limit ? .failure(.file(.tooLarge(bytes.count))) : .success(bytes) }
        guard let normalized = Self.normalize(path) else { return .failure(.placement(.outside)) }
        let absolute = absolutePath(normalized)
        let placement = placement(ofAbsolute: absolute)
        guard placement == .inside else { return .failure(.placement(placement)) }
        return FileReader.bytes(atPath: normalized == path ? absolute : absolutePath(path), limit: limit).mapError(ReadFailure.file)
    }

    /// Where a root-relative path of the tree leads once symbolic links are followed.
    public enum Placement: Equatable, Sendable {
        /// Inside the tree, or nowhere at all (nothing there: the reader says it is missing).
        case inside
        /// Outside the tree: through a link to a file or folder elsewhere, `..`, or an absolute path.
        case outside
        /// To a link whose target does not exist.
        case danglingLink
        /// Through links that lead back to themselves.
        case linkLoop

        /// What a diagnostic says about `path`, nil for `.inside`.
        func reason(_ path: String) -> String? {
            switch self {
            case .inside: nil
            case .outside: "'\(path)' leads outside the content tree through a symbolic link; msgc does not read it"
            case .danglingLink: "'\(path)' is a symbolic link to a file that does not exist"
            case .linkLoop: "'\(path)' is a symbolic link that leads back to itself (a loop); msgc cannot read it"
            }
        }
    }

    /// Where root-relative `path` leads. The one test of containment for every file msgc reads
    /// from the tree: the walk, msgc.yaml, sources, XLIFF, images and snippets.
    public func placement(of path: String) -> Placement {
        guard let normalized = Self.normalize(path) else { return .outside }
        return placement(ofAbsolute: absolutePath(normalized))
    }

    /// Where the file at `absolute` (a normalized path of the tree, made absolute) leads.
    private func placement(ofAbsolute absolute: String) -> Placement {
        if let resolved = Self.realPath(absolute) {
            return resolved.hasPrefix(resolvedRootPrefix) ? .inside : .outside
        }
        let failure = errno
        if failure == ELOOP { return .linkLoop }
        return Self.isDanglingLink(absolute) ? .danglingLink : .inside
    }

    /// The overlay's files under `folder` with one of `extensions`, which the walk may not find
    /// (a file created in the editor and not saved yet).
    private func overlayFiles(under folder: String, extensions: Set<String>) -> [String] {
        overlay.keys.filter { $0.hasPrefix(folder + "/") && extensions.contains(($0 as NSString).pathExtension.lowercased()) }
    }

    /// Whether the folder exists.
    public var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Reads the whole tree. `readTranslations` reads one XLIFF file; it is given by the caller
    /// so that this type stays independent of the XLIFF reader's options.
    public func load() -> (Catalog, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]

        var config: ProjectConfig?
        switch bytes(of: ProjectConfig.fileName, limit: ContentLimits.maxSourceBytes) {
        case .success(let bytes):
            let (parsed, source, configDiagnostics) = ConfigParser.parse(bytes: bytes)
            config = parsed
            if let source = source ?? Self.text(of: bytes, path: ProjectConfig.fileName) { sources[source.path] = source }
            diagnostics += configDiagnostics
        case .failure(.file(.missing)):
            diagnostics.append(ParserDiagnostics.missingConfig.diagnose(
                "no msgc.yaml in the content tree '\(root.lastPathComponent)'", at: SourceLocation(path: ProjectConfig.fileName),
                fixIts: [FixIt("run `msgc init` to create a content tree, or pass --content DIR")]))
        case .failure(let failure):
            diagnostics.append(readFailure(failure, path: ProjectConfig.fileName))
        }

        var messages: [Message] = []
        var (sourcePaths, walkDiagnostics) = files(under: "messages", extensions: ["yaml", "yml"])
        diagnostics += walkDiagnostics
        var translationFiles: [TranslationFile] = []
        var (xliffPaths, xliffWalkDiagnostics) = files(under: "translations", extensions: ["xliff", "xlf"])
        diagnostics += xliffWalkDiagnostics
        if !overlay.isEmpty {
            sourcePaths = Self.sortedUnion(sourcePaths, overlayFiles(under: "messages", extensions: ["yaml", "yml"]))
            xliffPaths = Self.sortedUnion(xliffPaths, overlayFiles(under: "translations", extensions: ["xliff", "xlf"]))
        }

        let (imagePaths, imageWalkDiagnostics) = files(under: "images", extensions: ["png"], reportingDanglingLinks: false)

        // Message sources and the images on disk are read first, on every core, as one list
        // of jobs; then the XLIFF files, on every core too, told which unit ids are the
        // messages' fields (BENCHMARKS.md: reading and checking on both cores is what keeps a
        // lint at Apple's cap as fast as it was).
        let jobs = sourcePaths.map(ParseJob.source) + imagePaths.map(ParseJob.image)
        let results = jobs.concurrentMap { job -> ParseResult in
            switch job {
            case .source(let path):
                switch bytes(of: path, limit: ContentLimits.maxSourceBytes) {
                case .success(let bytes):
                    if let cached = cache?.source(path, bytes: bytes) { return .source(cached) }
                    var parsed = MessageSourceParser.read(bytes: bytes, path: path)
                    if parsed.source == nil { parsed.source = Self.text(of: bytes, path: path) }
                    return .source(cache?.store(source: parsed, path: path, bytes: bytes) ?? parsed)
                case .failure(let failure):
                    return .source(ParsedMessageSource(unreadable: path, diagnostics: [readFailure(failure, path: path)]))
                }
            case .image(let path):
                return .image(image(at: path))
            }
        }
        var imagesOnDisk: [String: ImageAsset] = [:]
        var damagedSources: [DamagedMessageSource] = []
        for (job, result) in zip(jobs, results) {
            switch result {
            case .source(let parsed):
                messages += parsed.messages
                if let source = parsed.source, case .source(let path) = job { sources[path] = source }
                diagnostics += parsed.diagnostics
                if let damage = parsed.damage { damagedSources.append(damage) }
            case .image(let asset):
                imagesOnDisk[asset.path] = asset
            }
        }

        // The reader tells the units of message fields from others by these ids, and a unit
        // whose source is its field's text as written shares that string.
        let expected = ExpectedUnits(fields: messages.flatMap { message in
            message.fields.map { (id: message.unitID(of: $0.field), source: $0.text.value) }
        })
        // Each file's text is kept from this one read for snippets: a diagnostic in it never
        // reads it again.
        for (file, fileDiagnostics, source) in xliffPaths.concurrentMap({ path -> (TranslationFile, [Diagnostic], SourceFile?) in
            switch bytes(of: path, limit: ContentLimits.maxXLIFFBytes) {
            case .success(let bytes):
                let notes = keepsTranslatorNotes
                if let cached = cache?.translation(path, bytes: bytes, expected: expected, keepsNotes: notes) { return cached }
                let (file, diagnostics) = XLIFFReader.read(bytes: bytes, path: path, expecting: expected, keepingNotes: notes)
                let read = (file, diagnostics, XLIFFReader.snippetSource(bytes: bytes, path: path))
                cache?.store(translation: read, path: path, bytes: bytes, expected: expected, keepsNotes: notes)
                return read
            case .failure(let failure):
                let file = TranslationFile(
                    path: path, version: nil, targetLanguage: nil, sourceLanguage: nil, units: [], isReadable: false)
                // A file too large for msgc is an XLIFF finding (XLF006), as the reader's own cap is.
                let diagnostic = if case .file(.tooLarge(let size)) = failure {
                    XLIFFDiagnostics.fileTooLarge(byteCount: size, path: path)
                } else {
                    readFailure(failure, path: path)
                }
                return (file, [diagnostic], nil)
            }
        }) {
            translationFiles.append(file)
            diagnostics += fileDiagnostics
            if let source { sources[file.path] = source }
        }

        var images: [String: ImageAsset] = [:]
        var referenced = Set<String>()
        for message in messages {
            if let file = message.image?.file { referenced.insert(file.value) }
            for bullet in message.bullets { if let image = bullet.image { referenced.insert(image.value) } }
        }
        // A link out of the tree that a message refers to is reported once, where the message
        // refers to it (the image is outside the content tree); the walk's report would repeat it.
        let referencedPaths = referenced.compactMap(Self.normalize)
        diagnostics += imageWalkDiagnostics.filter { diagnostic in
            let path = diagnostic.location.path
            return !referencedPaths.contains { $0 == path || $0.hasPrefix(path + "/") }
        }
        for path in referenced.union(imagePaths).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            images[path] = imagesOnDisk[path] ?? image(at: path)
        }

        var catalog = Catalog(
            config: config, messages: messages, translationFiles: translationFiles, images: images,
            imageFilesOnDisk: imagePaths, sourceFiles: sources, damagedSources: damagedSources)
        catalog.sourceFilesOnDisk = sourcePaths
        return (catalog, diagnostics)
    }

    /// The text of a YAML file the parser made no document of (YAML nested too deep, aliases
    /// that expand too far), kept from the one read for its findings' snippets; nil unless
    /// it is UTF-8.
    static func text(of bytes: [UInt8], path: String) -> SourceFile? {
        guard case .success(let text) = UTF8Text.decode(bytes) else { return nil }
        return SourceFile(path: path, text: text)
    }

    /// Loads an image referenced as `path` (root-relative, `/`-separated), refusing any path
    /// that leads outside the tree, directly or through a symbolic link.
    public func image(at path: String) -> ImageAsset {
        // Said for what they are: no file name holds a NUL, and a `\` is not a separator here.
        if path.utf8.contains(0) { return ImageAsset(path: path, problem: .unreadable("it holds a NUL character, which no file name can")) }
        if path.contains("\\") { return ImageAsset(path: path, problem: .unreadable("it uses '\\'; paths in the content tree use '/'")) }
        guard let normalized = Self.normalize(path) else { return ImageAsset(path: path, problem: .outsideContentTree) }
        switch bytes(of: normalized, limit: ContentLimits.maxImageBytes) {
        case .success(let bytes): return ImageAsset(path: path, bytes: bytes, png: PNGReader.read(bytes))
        case .failure(.file(.missing)), .failure(.placement(.danglingLink)): return ImageAsset(path: path, problem: .missing)
        case .failure(.placement(.outside)): return ImageAsset(path: path, problem: .outsideContentTree)
        case .failure(.placement): return ImageAsset(path: path, problem: .unreadable("it is a symbolic link that leads back to itself"))
        case .failure(.file(.tooLarge(let size))): return ImageAsset(path: path, problem: .tooLarge(byteCount: size))
        case .failure(.file(.unreadable(let reason))): return ImageAsset(path: path, problem: .unreadable(reason))
        }
    }

    static func sortedUnion(_ paths: [String], _ more: [String]) -> [String] {
        Set(paths + more).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// `path` with `.` segments removed and `..` applied, or nil when it is absolute, empty
    /// or climbs out of the tree.
    static func normalize(_ path: String) -> String? {
        // Nearly every path is normalized already: told by its bytes, without splitting it.
        if isNormalized(path) { return path }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// Whether `normalize` would return `path` as it is: not empty, not absolute, no `\`, no
    /// NUL, and no segment that is empty, `.` or `..`. A `/` inside a grapheme cluster is no
    /// separator for `normalize`, but it joins segments that pass this test anyway.
    static func isNormalized(_ path: String) -> Bool {
        let answer = path.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let first = bytes.first, first != UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/") else { return false }
            var segmentStart = 0
            for index in 0...bytes.count {
                let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "/")
                if byte == 0 || byte == UInt8(ascii: "\\") { return false }
                guard byte == UInt8(ascii: "/") else { continue }
                let length = index - segmentStart
                if length == 0 { return false }
                if bytes[segmentStart] == UInt8(ascii: "."), length == 1 || (length == 2 && bytes[segmentStart + 1] == UInt8(ascii: ".")) {
                    return false
                }
                segmentStart = index + 1
            }
            return true
        }
        return answer ?? false
    }

    private func url(for relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The absolute path of root-relative `relativePath`, as `url(for:)` spells it.
    private func absolutePath(_ relativePath: String) -> String {
        rootPath.hasSuffix("/") ? rootPath + relativePath : rootPath + "/" + relativePath
    }

    /// Root-relative paths of the regular files under `folder` with one of `extensions`,
    /// sorted bytewise. Symbolic links are followed only while they stay inside the tree. A link
    /// to nothing with one of `extensions` is reported as a file that cannot be read, unless
    /// `reportingDanglingLinks` is false (images: a message that uses one finds it missing).
    func files(under folder: String, extensions: Set<String>, reportingDanglingLinks: Bool = true) -> ([String], [Diagnostic]) {
        var result: [String] = []
        var diagnostics: [Diagnostic] = []
        var pending = [folder]
        var visited = Set<String>()
        while let relative = pending.popLast() {
            let absolute = url(for: relative).path
            guard let resolved = Self.realPath(absolute) else { continue }
            guard resolved == resolvedRoot || resolved.hasPrefix(resolvedRoot + "/") else {
                diagnostics.append(ParserDiagnostics.unreadableFile.diagnose(
                    "'\(relative)' is a symbolic link to a folder outside the content tree; msgc does not follow it",
                    at: SourceLocation(path: relative)))
                continue
            }
            guard visited.insert(resolved).inserted else { continue }
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: absolute)
            } catch {
                if relative != folder || FileManager.default.fileExists(atPath: absolute) {
                    diagnostics.append(ParserDiagnostics.unreadableFile.diagnose(
                        "folder '\(relative)' cannot be read", at: SourceLocation(path: relative)))
                }
                continue
            }
            for name in entries where !name.hasPrefix(".") {
                let child = relative + "/" + name
                let childPath = absolute + "/" + name
                let fileExtension = (name as NSString).pathExtension.lowercased()
                // One lstat tells most entries apart: only a symbolic link needs following, and
                // only a link can lead out of the folder, which is itself inside the tree.
                var status = stat()
                guard lstat(childPath, &status) == 0 else {
                    // Gone meanwhile is fine; a path longer than the system takes is not, or a
                    // folder nested that deep would be left out without a word.
                    let failure = errno
                    if failure != ENOENT {
                        diagnostics.append(ParserDiagnostics.unreadableFile.diagnose(
                            "'\(child)' cannot be read (\(String(cString: strerror(failure)))); msgc reads nothing in it",
                            at: SourceLocation(path: child)))
                    }
                    continue
                }
                let isLink = status.st_mode & S_IFMT == S_IFLNK
                if isLink && stat(childPath, &status) != 0 {
                    if reportingDanglingLinks && extensions.contains(fileExtension) {
                        let reason = placement(of: child).reason(child) ?? "'\(child)' is a symbolic link to a file that does not exist"
                        diagnostics.append(ParserDiagnostics.unreadableFile.diagnose(reason, at: SourceLocation(path: child)))
                    }
                    continue
                }
                if status.st_mode & S_IFMT == S_IFDIR {
                    pending.append(child)
                    continue
                }
                guard extensions.contains(fileExtension) else { continue }
                if isLink, let reason = placement(of: child).reason(child) {
                    diagnostics.append(ParserDiagnostics.unreadableFile.diagnose(reason, at: SourceLocation(path: child)))
                    continue
                }
                result.append(child)
            }
        }
        result.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return (result, diagnostics)
    }

    private func readFailure(_ failure: ReadFailure, path: String) -> Diagnostic {
        switch failure {
        case .placement(let placement):
            ParserDiagnostics.unreadableFile.diagnose(placement.reason(path) ?? "'\(path)' cannot be read", at: SourceLocation(path: path))
        case .file(.missing):
            ParserDiagnostics.unreadableFile.diagnose("'\(path)' does not exist", at: SourceLocation(path: path))
        case .file(.tooLarge(let size)):
            ParserDiagnostics.inputTooLarge.diagnose(
                "'\(path)' has \(size) bytes, more than msgc reads for this kind of file", at: SourceLocation(path: path))
        case .file(.unreadable(let reason)):
            ParserDiagnostics.unreadableFile.diagnose("'\(path)' cannot be read: \(reason)", at: SourceLocation(path: path))
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDanglingLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }
}

/// One message source or image for `ContentTree.load` to read.
private enum ParseJob: Sendable {
    case source(String)
    case image(String)
}

private enum ParseResult: Sendable {
    case source(ParsedMessageSource)
    case image(ImageAsset)
}

/// What `ContentTree.load` read, kept for the next load of the same tree: a file whose bytes
/// are the same is not parsed again. An XLIFF file's reading also depends on which unit ids are
/// message fields, so it is reused only while those are the same (not the source texts: a
/// header edited in the editor does not make every file read again), and read with or without
/// translators' notes as it was asked. Loads may run on several
/// threads; the cache holds its mutex for each lookup and store.
public final class ReadCache: Sendable {
    private let state = Mutex(State())

    private struct State {
        var sources: [String: (bytes: [UInt8], parsed: ParsedMessageSource)] = [:]
        /// The ids of the messages the last source read whole at each path held: what a source
        /// that is now broken (an editor's unsaved buffer) named before it broke.
        var namedMessages: [String: [String]] = [:]
        var translations: [String: (bytes: [UInt8], expected: ExpectedUnits, keepsNotes: Bool, read: (TranslationFile, [Diagnostic], SourceFile?))] = [:]
    }

    public init() {}

    func source(_ path: String, bytes: [UInt8]) -> ParsedMessageSource? {
        state.withLock { state in
            guard let entry = state.sources[path], entry.bytes == bytes else { return nil }
            return entry.parsed
        }
    }

    /// Keeps `parsed` for the next load, and returns it as that load should see it: a source
    /// that can no longer be read far enough to name its messages names those it held when it
    /// last could, so that in the editor a broken buffer makes exactly those messages' units
    /// wait for it, not every unit no other message claims.
    func store(source parsed: ParsedMessageSource, path: String, bytes: [UInt8]) -> ParsedMessageSource {
        state.withLock { state in
            var parsed = parsed
            if let damage = parsed.damage, damage.hasUnnamedMessages {
                if let named = state.namedMessages[path] {
                    var ids = damage.messageIDs
                    var seen = Set(ids)
                    for id in named where seen.insert(id).inserted { ids.append(id) }
                    parsed.damage = DamagedMessageSource(path: path, messageIDs: ids, hasUnnamedMessages: false)
                }
            } else {
                state.namedMessages[path] = parsed.messages.map(\.id) + (parsed.damage?.messageIDs ?? [])
            }
            state.sources[path] = (bytes, parsed)
            return parsed
        }
    }

    func translation(
        _ path: String, bytes: [UInt8], expected: ExpectedUnits, keepsNotes: Bool
    ) -> (TranslationFile, [Diagnostic], SourceFile?)? {
        state.withLock { state in
            guard let entry = state.translations[path], entry.bytes == bytes, entry.expected == expected,
                  entry.keepsNotes == keepsNotes else { return nil }
            return entry.read
        }
    }

    func store(
        translation read: (TranslationFile, [Diagnostic], SourceFile?), path: String, bytes: [UInt8], expected: ExpectedUnits,
        keepsNotes: Bool
    ) {
        state.withLock { $0.translations[path] = (bytes, expected, keepsNotes, read) }
    }
}
