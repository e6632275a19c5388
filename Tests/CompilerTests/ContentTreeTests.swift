@testable import Compiler
import Diagnostics
import Foundation
import Model
@testable import Parser
import TestSupport
import Testing

@Suite(.ownThreads) struct ContentTreeTests {
    /// The shortcut for paths that are normalized already gives what splitting them gives.
    @Test func normalizedPathsAreTakenAsTheyAre() {
        let paths = [
            "a/b.yaml", "a//b", "./a", "a/.", "a/..", "..", ".", "a/../b", "/a", "a/", "a\\b", "a/.b", "a/..b", "a/b.",
            "é/x.png", "a/\u{301}b", "a/\u{301}/b", "a/.\u{301}", "", "a\u{0}b", "images/i.png",
        ]
        for path in paths where ContentTree.isNormalized(path) {
            #expect(ContentTree.normalize(path) == path, "\(path)")
        }
        #expect(["a/b.yaml", "a/.b", "a/..b", "é/x.png", "a/.\u{301}"].allSatisfy(ContentTree.isNormalized))
        #expect(!["a//b", "./a", "a/..", "/a", "a/", "a\\b", "", "a\u{0}b"].contains(where: ContentTree.isNormalized))
        #expect(ContentTree.normalize("a/./b//c/../d") == "a/b/d" && ContentTree.normalize("../a") == nil)
    }

    static let message = """
        messages:
          - key: winback
            product: com.example.app.yearly
            type: text
            default: true
            header: Stay
            body: Keep reading.
            image: { file: IMAGE, alt: A reader }

        """

    @Test func readsFilesInBytewiseOrderWhateverTheirNesting() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        for path in ["messages/b.yaml", "messages/a/z.yml", "messages/B.yaml", "messages/a.yaml"] {
            try tree.write(path, "messages:\n  - key: k\(path.count)\n    product: p\n    type: text\n    header: h\n    body: b\n")
        }
        try tree.write("messages/notes.txt", "ignored")
        let (catalog, diagnostics) = ContentTree(root: tree.root).load()
        #expect(diagnostics.isEmpty)
        #expect(catalog.messages.map(\.location.path) == ["messages/B.yaml", "messages/a.yaml", "messages/a/z.yml", "messages/b.yaml"])
    }

    @Test func missingConfigIsReported() throws {
        let tree = try TemporaryTree(["messages/a.yaml": "messages: []\n"])
        let (catalog, diagnostics) = ContentTree(root: tree.root).load()
        #expect(catalog.config == nil)
        #expect(diagnostics.map(\.code) == ["CFG001"])
    }

    @Test(arguments: ["../outside.png", "/etc/passwd", "images/../../outside.png", "", "/"])
    func refusesPathsOutOfTheTree(_ path: String) throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        #expect(ContentTree(root: tree.root).image(at: path).problem == .outsideContentTree)
    }

    @Test func imagePathsNoFileCanHaveSayWhy() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        let contentTree = ContentTree(root: tree.root)
        #expect(contentTree.image(at: "images/a\0b.png").problem == .unreadable("it holds a NUL character, which no file name can"))
        #expect(contentTree.image(at: "images\\hero.png").problem == .unreadable("it uses '\\'; paths in the content tree use '/'"))
    }

    @Test func refusesSymbolicLinksOutOfTheTree() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        let outside = try TemporaryTree(["secret.png": "not for you"])
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: tree.root.appendingPathComponent("images/hero.png"), withDestinationURL: outside.root.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            at: tree.root.appendingPathComponent("images/more"), withDestinationURL: outside.root)
        try tree.write("messages/a.yaml", Self.message.replacingOccurrences(of: "IMAGE", with: "images/hero.png"))
        let (catalog, diagnostics) = ContentTree(root: tree.root).load()
        #expect(catalog.images["images/hero.png"]?.problem == .outsideContentTree)
        #expect(catalog.images["images/hero.png"]?.bytes == nil)
        #expect(diagnostics.contains { $0.code == "PRS008" && $0.location.path == "images/more" })
        #expect(!catalog.imageFilesOnDisk.contains("images/hero.png"))
    }

    /// The walk reads each image's PNG structure once, beside its bytes: the image rules and the
    /// preview read it from the model and never decode a file themselves.
    @Test func readsEachImagesPNGFactsIntoTheModel() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let header = bigEndian(3840) + bigEndian(160) + [8, 2, 0, 0, 0]
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0]) + chunk("IEND", [])
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "images/renamed.png": "GIF89a, whatever the name says"])
        try Data(png).write(to: tree.root.appendingPathComponent("images/hero.png"))
        let (catalog, _) = ContentTree(root: tree.root).load()
        #expect(catalog.images["images/hero.png"]?.png
            == .success(PNGInfo(widthPixels: 3840, heightPixels: 160, bitDepth: 8, colorType: 2, hasTransparencyChunk: false)))
        #expect(catalog.images["images/renamed.png"]?.png == .failure(.notPNG(detectedFormat: "GIF")))
    }

    @Test func followsLinksThatStayInside() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "assets/hero.png": "png bytes"])
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: tree.root.appendingPathComponent("images/hero.png"), withDestinationURL: tree.root.appendingPathComponent("assets/hero.png"))
        #expect(ContentTree(root: tree.root).image(at: "images/hero.png").bytes == Array("png bytes".utf8))
    }

    /// A file under a folder that is a link inside the tree is read like any other; under a
    /// link out of the tree it is not, and the folder is reported once.
    @Test func filesUnderLinkedFolders() throws {
        let source = "messages:\n  - key: shared\n    product: com.example.app.yearly\n    type: text\n    header: h\n    body: b\n"
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "shared/a.yaml": source])
        let outside = try TemporaryTree(["b.yaml": source.replacingOccurrences(of: "shared", with: "secret")])
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("messages"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tree.root.appendingPathComponent("messages/in").path, withDestinationPath: "../shared")
        try FileManager.default.createSymbolicLink(at: tree.root.appendingPathComponent("messages/out"), withDestinationURL: outside.root)
        let (catalog, diagnostics) = ContentTree(root: tree.root).load()
        #expect(catalog.messages.map(\.key.value) == ["shared"])
        #expect(diagnostics.map(\.code) == ["PRS008"])
        #expect(diagnostics.first?.location.path == "messages/out")
    }

    @Test func linksToNothingAreFilesThatCannotBeRead() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        try tree.write("messages/a.yaml", Self.message.replacingOccurrences(of: "IMAGE", with: "images/gone.png"))
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("translations"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("images"), withIntermediateDirectories: true)
        for (link, target) in [
            ("messages/b.yaml", "missing.yaml"), ("messages/notes.txt", "missing.txt"), ("translations/de-DE.xliff", "gone.xliff"),
            ("images/gone.png", "nothing.png"),
        ] {
            try FileManager.default.createSymbolicLink(atPath: tree.root.appendingPathComponent(link).path, withDestinationPath: target)
        }
        let (catalog, diagnostics) = ContentTree(root: tree.root).load()
        #expect(diagnostics.map(\.code) == ["PRS008", "PRS008"])
        #expect(diagnostics.map(\.location.path) == ["messages/b.yaml", "translations/de-DE.xliff"])
        #expect(diagnostics.first?.message == "'messages/b.yaml' is a symbolic link to a file that does not exist")
        // An image is checked where a message uses it: missing, as any other.
        #expect(catalog.images["images/gone.png"]?.problem == .missing)
    }

    /// Snippets are read through the same test of containment as the load: a diagnostic that
    /// names a file linked out of the tree never shows its text.
    @Test func snippetsAndBytesOfFilesLinkedOutAreRefused() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "messages/a.yaml": "messages: []\n"])
        let outside = try TemporaryTree(["secret.yaml": "token: hunter2\n"])
        try FileManager.default.createSymbolicLink(
            at: tree.root.appendingPathComponent("messages/b.yaml"), withDestinationURL: outside.root.appendingPathComponent("secret.yaml"))
        let contentTree = ContentTree(root: tree.root)
        let (catalog, _) = contentTree.load()
        #expect(catalog.sourceFiles["messages/b.yaml"] == nil)
        #expect(catalog.sourceFiles["messages/a.yaml"] != nil)
        #expect(contentTree.placement(of: "messages/b.yaml") == .outside)
        #expect(contentTree.placement(of: "messages/../../x") == .outside)
        #expect(contentTree.placement(of: "messages/none.yaml") == .inside)
        #expect(contentTree.bytes(of: "messages/b.yaml", limit: 100) == .failure(.placement(.outside)))
    }

    /// A folder nested deeper than the system's longest path holds messages too: it is
    /// reported, never left out without a word.
    @Test func folderDeeperThanTheLongestPathIsReported() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "messages/a.yaml": "messages: []\n"])
        defer {
            let remove = Process()
            remove.executableURL = URL(fileURLWithPath: "/bin/rm")
            remove.arguments = ["-rf", tree.root.appendingPathComponent("messages").path]
            try? remove.run()
            remove.waitUntilExit()
        }
        // Made a level at a time through descriptors: no path this long can be passed to mkdir.
        var folder = open(tree.root.appendingPathComponent("messages").path, O_RDONLY | O_DIRECTORY)
        let name = String(repeating: "d", count: 30)
        for _ in 0..<200 {
            #expect(mkdirat(folder, name, 0o755) == 0)
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
        }
        let file = openat(folder, "deep.yaml", O_WRONLY | O_CREAT, 0o644)
        _ = "messages: [\n".withCString { write(file, $0, strlen($0)) }
        close(file)
        close(folder)
        let (_, diagnostics) = ContentTree(root: tree.root).load()
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.code == "PRS008")
        #expect(diagnostics.first?.message.hasSuffix("cannot be read (File name too long); msgc reads nothing in it") ?? false, "\(diagnostics)")
    }

    @Test func missingImageIsNotAnIOFailure() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        try tree.write("messages/a.yaml", Self.message.replacingOccurrences(of: "IMAGE", with: "images/missing.png"))
        let (catalog, diagnostics) = ContentTree(root: tree.root).load()
        #expect(diagnostics.isEmpty)
        #expect(catalog.images["images/missing.png"]?.problem == .missing)
    }

    @Test func normalizesRelativePaths() {
        #expect(ContentTree.normalize("images/./icons/../hero.png") == "images/hero.png")
        #expect(ContentTree.normalize("images//hero.png") == "images/hero.png")
        #expect(ContentTree.normalize("images\\hero.png") == nil)
    }

    /// Snippets of a UTF-16 XLIFF file show its text, as the reader decodes it.
    @Test(arguments: [(false, true), (true, true), (false, false)])
    func sourceFileOfUTF16(bigEndian: Bool, hasBOM: Bool) throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\r\n<xliff version=\"1.2\">\n<target>Jusqu’à 😀</target>\n</xliff>\n"
        var bytes: [UInt8] = hasBOM ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        try tree.write("translations/fr-FR.xliff", bytes: bytes)
        let file = try #require(ContentTree(root: tree.root).load().0.sourceFiles["translations/fr-FR.xliff"])
        #expect(file.line(1) == "<?xml version=\"1.0\" encoding=\"UTF-16\"?>")
        #expect(file.line(3) == "<target>Jusqu’à 😀</target>")
    }

    @Test func sourceFileOfUTF8IsUnchanged() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config])
        try tree.write("translations/de-DE.xliff", bytes: [0xEF, 0xBB, 0xBF] + Array("<xliff>\n<target>Grüße</target>\n".utf8))
        try tree.write("translations/bad.xliff", bytes: [0xFF, 0xFE, 0x3C])
        let (catalog, _) = ContentTree(root: tree.root).load()
        #expect(catalog.sourceFiles["translations/de-DE.xliff"]?.line(2) == "<target>Grüße</target>")
        #expect(catalog.sourceFiles["translations/bad.xliff"] == nil)
    }

    /// A message source the parser makes no document of (nested too deep) keeps its text from
    /// the one read, so that its finding shows a snippet without reading the file again.
    @Test func aSourceWithoutADocumentKeepsItsText() throws {
        let deep = "messages:\n" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "\n"
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "messages/deep.yaml": deep])
        let compilation = Compilation.compile(root: tree.root)
        #expect(compilation.diagnostics.contains { $0.location.path == "messages/deep.yaml" && $0.location.line != nil })
        #expect(compilation.snippetSources["messages/deep.yaml"]?.line(2)?.hasPrefix("[[[") == true)
    }
}
