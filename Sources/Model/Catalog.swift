/// The bytes of a file in the content tree's `images/` folder, or why they are not there.
public struct ImageAsset: Hashable, Sendable {
    public enum Problem: Hashable, Sendable {
        /// No file at that path.
        case missing
        /// The path, or a symbolic link on the way, leads outside the content tree.
        case outsideContentTree
        /// The file exists but could not be read; the text says why.
        case unreadable(String)
        /// Larger than msgc reads (see `ContentLimits.maxImageBytes`).
        case tooLarge(byteCount: Int)
    }

    /// Root-relative path with `/`.
    public var path: String
    public var bytes: [UInt8]?
    public var problem: Problem?

    public init(path: String, bytes: [UInt8]? = nil, problem: Problem? = nil) {
        self.path = path
        self.bytes = bytes
        self.problem = problem
    }
}

/// A text file of the content tree, kept so renderers can show source snippets.
public struct SourceFile: Hashable, Sendable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// The text of 1-based line `number`, without its line break.
    public func line(_ number: Int) -> String? {
        guard number >= 1 else { return nil }
        var current = 1
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "\n" || text[index] == "\r\n" {
                if current == number { return String(text[start..<index]) }
                current += 1
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        return current == number ? String(text[start..<text.endIndex]) : nil
    }
}

/// Upper bounds on what msgc reads, so that no input can exhaust memory or time.
public enum ContentLimits {
    /// A message source or `msgc.yaml` larger than this is refused.
    public static let maxSourceBytes = 16 << 20
    /// An XLIFF file larger than this is refused.
    public static let maxXLIFFBytes = 64 << 20
    /// A PNG larger than this is refused (Apple's largest image is 3840 × 2160).
    public static let maxImageBytes = 32 << 20
}

/// Everything read from one content tree: the input of lint, coverage and build.
public struct Catalog: Sendable {
    /// Absent when `msgc.yaml` is missing or unusable; the parser then reports why.
    public var config: ProjectConfig?
    /// Messages in the order of their files (sorted by path) and of their position there.
    public var messages: [Message]
    /// XLIFF files, sorted by path.
    public var translationFiles: [TranslationFile]
    /// Every image referenced by a message, plus every file under `images/`, by path.
    public var images: [String: ImageAsset]
    /// Paths of files found under `images/`, sorted, for the unused-image check.
    public var imageFilesOnDisk: [String]
    /// Text of every source file read, by path, for snippets.
    public var sourceFiles: [String: SourceFile]

    public init(
        config: ProjectConfig?, messages: [Message], translationFiles: [TranslationFile] = [],
        images: [String: ImageAsset] = [:], imageFilesOnDisk: [String] = [], sourceFiles: [String: SourceFile] = [:]
    ) {
        self.config = config
        self.messages = messages
        self.translationFiles = translationFiles
        self.images = images
        self.imageFilesOnDisk = imageFilesOnDisk
        self.sourceFiles = sourceFiles
    }
}
