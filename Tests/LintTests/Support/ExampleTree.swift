import Diagnostics
import Foundation
import TestSupport

/// A content tree made from a rule example: a small valid base tree with the example applied,
/// and the spans its `⟦…⟧` markers expect.
///
/// The base tree lints clean: one product, locales en-US and de-DE, and one default text message
/// with every field. A message fragment replaces the base message's top-level keys it names and
/// adds the others at the end; a whole file replaces or adds that file. The base images are
/// written only when a message source still refers to them, so that an example that drops the
/// image does not leave an unused file behind. A path key wrapped in `⟦…⟧` (in `images` or
/// `extraFiles`) expects a diagnostic about the whole file.
struct ExampleTree {
    /// Where a diagnostic is expected: line and column are nil for a whole file.
    struct Span: Hashable, CustomStringConvertible {
        var path: String
        var line: Int?
        var column: Int?
        var endLine: Int?
        var endColumn: Int?

        var description: String {
            guard let line, let column else { return path }
            return "\(path):\(line):\(column)-\(endLine.map(String.init) ?? "?"):\(endColumn.map(String.init) ?? "?")"
        }
    }

    static let config = """
        bundleId: com.example.news
        sourceLocale: en-US
        locales: [en-US, de-DE]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: com.example.news.premium.yearly

        """

    static let baseMessage = """
        key: winback
        product: com.example.news.premium.yearly
        type: text
        default: true
        header: Stay with Premium
        body: Keep your yearly plan and save 50% on your next renewal.
        headerPosition: above-body
        image: { file: images/hero.png, alt: Readers with the morning edition }
        bullets:
          - { text: Unlimited articles, image: images/check.png, alt: Check mark }
        note: Shown when a yearly subscriber cancels. Warm, not pushy.
        """

    static let messagePath = "messages/example.yaml"
    static let baseImages: [String: ExampleImage] = [
        "images/hero.png": .png(width: 3840, height: 160),
        "images/check.png": .png(width: 1024, height: 1024),
    ]
    /// The base images are the same in every example; made once.
    static let baseImageBytes: [String: [UInt8]] = baseImages.mapValues(PNGFixture.bytes(for:))

    var files: [String: [UInt8]] = [:]
    var specialFiles: [String: ExampleSpecialFile] = [:]
    /// The file given to `--state`, for a state example; written outside the tree.
    var stateFile: [UInt8]?
    var expected: [Span] = []

    init(_ example: RuleExample? = nil) {
        var texts: [String: String] = [
            "msgc.yaml": Self.config,
            Self.messagePath: Self.messageFile(fields: Self.baseMessage),
        ]
        var images: [String: ExampleImage] = [:]
        if let example {
            if example.isStateFile {
                let (clean, spans) = Self.removeMarkers(example.text, path: example.path)
                stateFile = Array(clean.utf8)
                expected += spans
            } else {
                texts[example.path] = example.isMessageFragment
                    ? Self.messageFile(fields: Self.merge(base: Self.baseMessage, fragment: example.text)) : example.text
            }
            for (path, text) in example.extraFiles { texts[strip(path)] = text }
            for (path, image) in example.images { images[strip(path)] = image }
            for (path, file) in example.specialFiles {
                let clean = strip(path)
                texts[clean] = nil
                specialFiles[clean] = file
            }
        }
        for (path, text) in texts {
            let (clean, spans) = Self.removeMarkers(text, path: path)
            files[path] = Array(clean.utf8)
            expected += spans
        }
        let sources = texts.filter { $0.key.hasPrefix("messages/") || $0.key.hasPrefix("shared/") }.values.joined(separator: "\n")
        for (path, bytes) in Self.baseImageBytes where images[path] == nil && sources.contains(path) {
            files[path] = bytes
        }
        for (path, image) in images { files[path] = PNGFixture.bytes(for: image) }
        expected.sort { $0.description < $1.description }

        func strip(_ path: String) -> String {
            guard path.hasPrefix("⟦"), path.hasSuffix("⟧") else { return path }
            let clean = String(path.dropFirst().dropLast())
            expected.append(Span(path: clean))
            return clean
        }
    }

    /// Writes the tree into a new temporary folder and returns it. A state example's file is
    /// written beside it, as `ROOT.state.json`.
    func write() throws -> URL {
        let root = TestFolders.root.appendingPathComponent("msgc-example-\(UUID().uuidString)")
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        for (path, file) in specialFiles {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            switch file {
            case .symbolicLink(let target):
                try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            case .xliffLargerThan(let bytes, let locale):
                let head = Array(#"<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2"><file target-language="\#(locale)"><!--"#.utf8)
                let tail = Array("--></file></xliff>\n".utf8)
                let padding = [UInt8](repeating: UInt8(ascii: " "), count: bytes + 1 - head.count - tail.count)
                try Data(head + padding + tail).write(to: url)
            }
        }
        if let stateFile { try Data(stateFile).write(to: Self.stateURL(root)) }
        return root
    }

    /// Where `write()` puts a state example's file for the tree at `root`.
    static func stateURL(_ root: URL) -> URL {
        root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + ".state.json")
    }

    /// A message source file holding one message with these fields.
    static func messageFile(fields: String) -> String {
        var output = "messages:\n"
        for (index, line) in fields.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            output += line.isEmpty ? "\n" : (index == 0 ? "  - " : "    ") + line + "\n"
        }
        return output
    }

    /// The base message's fields with the fragment's top-level keys replaced or added.
    static func merge(base: String, fragment: String) -> String {
        let baseFields = topLevelFields(base)
        let fragmentFields = topLevelFields(fragment)
        var lines: [String] = []
        for (key, baseLines) in baseFields {
            lines += fragmentFields.first { $0.key == key }?.lines ?? baseLines
        }
        for (key, fragmentLines) in fragmentFields where !baseFields.contains(where: { $0.key == key }) {
            lines += fragmentLines
        }
        return lines.joined(separator: "\n")
    }

    /// Each top-level `key:` line with the indented lines that follow it.
    static func topLevelFields(_ text: String) -> [(key: String, lines: [String])] {
        var fields: [(key: String, lines: [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let first = line.first, first != " ", let colon = line.firstIndex(of: ":") {
                let key = line[..<colon].filter { $0 != "⟦" && $0 != "⟧" }
                fields.append((String(key), [line]))
            } else if !fields.isEmpty, !line.isEmpty {
                fields[fields.count - 1].lines.append(line)
            }
        }
        return fields
    }

    /// The text without `⟦` and `⟧`, and the spans they marked (columns count scalars from 1).
    static func removeMarkers(_ text: String, path: String) -> (String, [Span]) {
        var clean = String.UnicodeScalarView()
        var spans: [Span] = []
        var open: [(line: Int, column: Int)] = []
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars {
            switch scalar {
            case "⟦":
                open.append((line, column))
            case "⟧":
                let start = open.removeLast()
                spans.append(Span(path: path, line: start.line, column: start.column, endLine: line, endColumn: column))
            default:
                clean.append(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
        }
        return (String(clean), spans)
    }
}
