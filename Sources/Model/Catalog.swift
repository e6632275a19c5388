import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a file in the content tree's `images/` folder and what its PNG structure says,
/// or why they are not there.
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
    /// The PNG structure of `bytes`, or why they are no usable PNG; nil when there are no bytes.
    /// The content-tree walk reads it once, beside the bytes, so the image rules and the
    /// preview, which ask about every use of a file, never read a file format themselves.
    public var png: Result<PNGInfo, PNGProblem>?
    public var problem: Problem?

    public init(path: String, bytes: [UInt8]? = nil, png: Result<PNGInfo, PNGProblem>? = nil, problem: Problem? = nil) {
        self.path = path
        self.bytes = bytes
        self.png = png
        self.problem = problem
    }
}

/// A text file of the content tree, kept from the first read so renderers can show source
/// snippets without reading it again.
///
/// Lines are found through an index of where each starts, made once, the first time a line is
/// asked for, and shared by every copy of the file: a snippet costs the same on the last line of
/// a large file as on the first, however many diagnostics point into it.
public struct SourceFile: Hashable, Sendable {
    /// Where lines break: what the reader that made the file's locations counts.
    public enum LineBreaks: Hashable, Sendable {
        /// LF, and CR LF as one break; a carriage return alone is not one. msgc's positions in
        /// YAML (msgc.yaml, message sources) and JSON count lines so, as most editors do.
        case lineFeeds
        /// LF, CR LF and a carriage return alone, as XML counts them (XLIFF): Trados writes
        /// some files with lone carriage returns.
        case xml
    }

    public var path: String
    /// The file's text as UTF-8, from `textStart` on (a byte order mark before it is skipped).
    public let utf8: [UInt8]
    public let textStart: Int
    public let lineBreaks: LineBreaks
    private let index: LineStarts

    public init(path: String, text: String, lineBreaks: LineBreaks = .lineFeeds) {
        self.init(path: path, utf8: Array(text.utf8), textStart: 0, lineBreaks: lineBreaks)
    }

    /// A file whose text is `utf8` from `textStart` on; the bytes are kept as they are, not copied.
    public init(path: String, utf8: [UInt8], textStart: Int = 0, lineBreaks: LineBreaks) {
        self.path = path
        self.utf8 = utf8
        self.textStart = min(max(textStart, 0), utf8.count)
        self.lineBreaks = lineBreaks
        self.index = LineStarts()
    }

    /// The whole text.
    public var text: String { String(decoding: utf8[textStart...], as: UTF8.self) }

    /// How many lines the text has: one more than its line breaks (a final line break ends an
    /// empty last line).
    public var lineCount: Int { index.starts(of: self).count }

    /// The text of 1-based line `number`, without its line break.
    public func line(_ number: Int) -> String? {
        let starts = index.starts(of: self)
        guard number >= 1, number <= starts.count else { return nil }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] : utf8.count
        if number < starts.count {
            // Drop the break itself: LF, CR LF or CR.
            if end > start, utf8[end - 1] == 0x0A { end -= 1 }
            if end > start, utf8[end - 1] == 0x0D { end -= 1 }
        }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }

    /// The scalars of 1-based line `number` at 1-based columns `columns` (counted in scalars),
    /// decoded from those bytes alone; nil when the line is not that long. A fix-it on a line
    /// of a megabyte (a one-line XLIFF file) reads a few scalars, not the whole line.
    public func scalars(line number: Int, columns: Range<Int>) -> [Unicode.Scalar]? {
        let starts = index.starts(of: self)
        guard number >= 1, number <= starts.count, columns.lowerBound >= 1 else { return nil }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] : utf8.count
        if number < starts.count {
            if end > start, utf8[end - 1] == 0x0A { end -= 1 }
            if end > start, utf8[end - 1] == 0x0D { end -= 1 }
        }
        // Scalars begin at every byte that is not a continuation byte (10xxxxxx).
        var column = 0
        var from: Int?
        var byte = start
        while byte < end {
            if utf8[byte] & 0xC0 != 0x80 {
                column += 1
                if column == columns.lowerBound { from = byte }
                if column == columns.upperBound { break }
            }
            byte += 1
        }
        guard let from, column >= columns.upperBound - 1 else { return nil }
        let result = Array(String(decoding: utf8[from..<byte], as: UTF8.self).unicodeScalars)
        return result.count == columns.count ? result : nil
    }

    /// Where each line starts in `utf8`, by the file's `lineBreaks`.
    static func lineStarts(_ utf8: [UInt8], from textStart: Int, lineBreaks: LineBreaks) -> [Int] {
        var starts = [textStart]
        utf8.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress, textStart < bytes.count else { return }
            // Without a carriage return (nearly every file), the line feeds are all there is to
            // find, and memchr finds them many bytes at a time.
            if memchr(base + textStart, 0x0D, bytes.count - textStart) == nil {
                var index = textStart
                while index < bytes.count, let found = memchr(base + index, 0x0A, bytes.count - index) {
                    index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                    starts.append(index)
                }
                return
            }
            var index = textStart
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A:
                    starts.append(index + 1)
                case 0x0D:
                    if index + 1 < bytes.count && bytes[index + 1] == 0x0A {
                        index += 1
                        starts.append(index + 1)
                    } else if lineBreaks == .xml {
                        starts.append(index + 1)
                    }
                default:
                    break
                }
                index += 1
            }
        }
        return starts
    }

    public static func == (lhs: SourceFile, rhs: SourceFile) -> Bool {
        lhs.path == rhs.path && lhs.lineBreaks == rhs.lineBreaks && lhs.utf8[lhs.textStart...] == rhs.utf8[rhs.textStart...]
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(utf8.count - textStart)
    }

    /// The line starts of one file, made the first time they are needed and then kept: copies
    /// of a `SourceFile` share this, so every renderer uses the one index.
    private final class LineStarts: Sendable {
        private let starts = Mutex<[Int]?>(nil)

        func starts(of file: SourceFile) -> [Int] {
            starts.withLock { starts in
                if let starts { return starts }
                let made = SourceFile.lineStarts(file.utf8, from: file.textStart, lineBreaks: file.lineBreaks)
                starts = made
                return made
            }
        }
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
    /// Message sources with errors that kept some of their messages from being read whole,
    /// sorted by path: units of those messages wait for the writer's fix (`WaitingUnits`).
    public var damagedSources: [DamagedMessageSource]
    /// Paths of the message sources the walk found, sorted bytewise, each as the file system
    /// spells it: two that differ only in Unicode normalization are one key of `sourceFiles`.
    public var sourceFilesOnDisk: [String] = []

    public init(
        config: ProjectConfig?, messages: [Message], translationFiles: [TranslationFile] = [],
        images: [String: ImageAsset] = [:], imageFilesOnDisk: [String] = [], sourceFiles: [String: SourceFile] = [:],
        damagedSources: [DamagedMessageSource] = []
    ) {
        self.config = config
        self.messages = messages
        self.translationFiles = translationFiles
        self.images = images
        self.imageFilesOnDisk = imageFilesOnDisk
        self.sourceFiles = sourceFiles
        self.damagedSources = damagedSources
    }
}

/// A message source whose errors kept msgc from reading some of its messages whole: a message
/// whose `type` is misspelt is named (its product and key were read) but is not in the
/// catalog; one whose file is not even YAML is not named at all.
public struct DamagedMessageSource: Hashable, Sendable {
    public var path: String
    /// `PRODUCT/KEY` (`Message.id`) of each message that was named but not read whole.
    public var messageIDs: [String]
    /// Whether some part of the file (or all of it) could not be read far enough to name the
    /// messages in it.
    public var hasUnnamedMessages: Bool

    public init(path: String, messageIDs: [String], hasUnnamedMessages: Bool) {
        self.path = path
        self.messageIDs = messageIDs
        self.hasUnnamedMessages = hasUnnamedMessages
    }
}

/// Which translation units wait for a message source with errors rather than belong to no
/// message at all.
///
/// A writer's mistake in a source (`type: txt`, a YAML syntax error, an unsaved broken buffer
/// in the editor, a product msgc.yaml does not list) must not make the translations of the
/// messages it holds look like leftovers that can be deleted. A unit matching no message field
/// waits for a damaged source when that source names the unit's message, or, when some source
/// could not be read far enough to name its messages, when no message of the catalog has the
/// unit's product and key. A unit of a listed product also waits for the source of a message
/// with its key whose product msgc.yaml does not list (`product: …plus.yeraly` for
/// `…plus.yearly`: the unit's message is there, under a misspelt product), when no message of
/// the catalog has the unit's product and key.
public struct WaitingUnits: Sendable {
    /// The damaged sources that name each message id.
    private let sourcesOfMessage: [String: [String]]
    /// Paths of the sources with messages nobody can name.
    private let unnamedSources: [String]
    /// The sources of messages whose product msgc.yaml does not list, by the messages' keys.
    private let unknownProductSources: [String: [String]]
    /// The unlisted products of the messages of each key, sorted.
    private let unknownProductsOfKey: [String: [String]]
    /// The products msgc.yaml lists, when some message names another.
    private let listedProducts: Set<String>
    /// `Message.id` of every message read, made only when there are unnamed sources or
    /// messages of unlisted products.
    private let knownMessages: Set<String>

    public init(_ catalog: Catalog) {
        var sourcesOfMessage: [String: [String]] = [:]
        for source in catalog.damagedSources {
            for id in source.messageIDs where sourcesOfMessage[id]?.last != source.path {
                sourcesOfMessage[id, default: []].append(source.path)
            }
        }
        self.sourcesOfMessage = sourcesOfMessage
        unnamedSources = catalog.damagedSources.filter(\.hasUnnamedMessages).map(\.path)
        var unknownProductSources: [String: [String]] = [:]
        var unknownProductsOfKey: [String: Set<String>] = [:]
        var listedProducts = Set<String>()
        if let config = catalog.config {
            listedProducts = Set(config.products.map(\.id.value))
            for message in catalog.messages where !listedProducts.contains(message.product.value) {
                let path = message.location.path
                unknownProductsOfKey[message.key.value, default: []].insert(message.product.value)
                if unknownProductSources[message.key.value]?.contains(path) != true {
                    unknownProductSources[message.key.value, default: []].append(path)
                }
            }
        }
        self.unknownProductSources = unknownProductSources.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        self.unknownProductsOfKey = unknownProductsOfKey.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        self.listedProducts = unknownProductSources.isEmpty ? [] : listedProducts
        knownMessages = unnamedSources.isEmpty && unknownProductSources.isEmpty ? [] : Set(catalog.messages.map(\.id))
    }

    /// Whether no source is damaged, so that no unit can wait for one.
    public var isEmpty: Bool { sourcesOfMessage.isEmpty && unnamedSources.isEmpty && unknownProductSources.isEmpty }

    /// The damaged sources (paths, sorted) that `unit`, which matches no message field, may
    /// belong to; empty when it belongs to none and is an orphan.
    public func sources(for unit: TranslationUnit) -> [String] {
        guard !isEmpty, let parsed = unit.parsedID else { return [] }
        let id = "\(parsed.product)/\(parsed.key)"
        if let named = sourcesOfMessage[id] { return named }
        guard !knownMessages.contains(id) else { return [] }
        if listedProducts.contains(parsed.product), let misspelt = unknownProductSources[parsed.key] {
            return unnamedSources.isEmpty ? misspelt : Array(Set(misspelt + unnamedSources)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return unnamedSources
    }

    /// When `unit` waits because a message with its key names a product msgc.yaml does not
    /// list (a typo of the unit's product), those products; else empty.
    public func unlistedProducts(for unit: TranslationUnit) -> [String] {
        guard !unknownProductsOfKey.isEmpty, let parsed = unit.parsedID, listedProducts.contains(parsed.product),
              !knownMessages.contains("\(parsed.product)/\(parsed.key)") else { return [] }
        return unknownProductsOfKey[parsed.key] ?? []
    }
}
