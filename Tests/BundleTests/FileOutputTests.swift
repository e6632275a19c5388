import Bundle
import Foundation
import Testing

/// `FileOutput` replaces only a regular file: a device, a FIFO or a folder at the path is
/// refused and left as it was; a link the user named is written through, a link inside an
/// output folder is replaced and never followed.
@Suite struct FileOutputTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("msgc-file-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func failure(_ body: () throws(FileOutput.Failure) -> Void) -> String? {
        do { try body() } catch { return error.description }
        return nil
    }

    func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func aDeviceAFIFOOrAFolderIsRefusedAndLeftAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [
            ("/dev/null", "'/dev/null' is a character device; msgc writes its output only as a regular file"),
            (fifo, "'\(fifo)' is a FIFO; msgc writes its output only as a regular file"),
            (folder.path, "'\(folder.path)' is a folder"),
        ]
        for (path, message) in cases {
            let before = kind(path)
            #expect(failure { () throws(FileOutput.Failure) in try FileOutput.write(Array("x".utf8), to: URL(fileURLWithPath: path)) } == message)
            #expect(kind(path) == before, "\(path)")
        }
        let link = folder.appendingPathComponent("null")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/null")
        #expect(failure { () throws(FileOutput.Failure) in try FileOutput.write(Array("x".utf8), to: link) }
            == "'\(link.path)' is a character device; msgc writes its output only as a regular file")
        #expect(kind(link.path) == S_IFLNK)
        #expect(kind("/dev/null") == S_IFCHR)
        // Nothing was left beside them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["fifo", "null"])
    }

    @Test func aLinkTheUserNamedIsWrittenThroughAndKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("real.txt")
        try Data("old".utf8).write(to: target)
        let link = folder.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.txt")
        try FileOutput.write(Array("new".utf8), to: link)
        #expect(kind(link.path) == S_IFLNK)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")

        let dangling = folder.appendingPathComponent("dangling.txt")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "nowhere.txt")
        #expect(failure { () throws(FileOutput.Failure) in try FileOutput.write(Array("x".utf8), to: dangling) }
            == "'\(dangling.path)' is a link to nothing that exists; give the file's own path")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere.txt").path))
    }

    @Test func aLinkInsideAnOutputFolderIsReplacedNeverFollowed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outside = folder.appendingPathComponent("outside.html")
        try Data("keep".utf8).write(to: outside)
        let pages = folder.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: pages.appendingPathComponent("index.html").path, withDestinationPath: outside.path)
        try FileOutput.write(Array("page".utf8), named: "index.html", in: pages)
        #expect(kind(pages.appendingPathComponent("index.html").path) == S_IFREG)
        #expect(try String(contentsOf: pages.appendingPathComponent("index.html"), encoding: .utf8) == "page")
        #expect(try String(contentsOf: outside, encoding: .utf8) == "keep")
    }
}
