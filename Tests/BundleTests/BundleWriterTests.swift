import Foundation
@testable import Bundle
import Model
import Testing

@Suite struct BundleWriterTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("msgc-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func bundle(_ files: [String: String], release: String = "1") -> UploadBundle {
        UploadBundle(
            files: files.mapValues { Array($0.utf8) },
            manifest: Manifest(
                generatorVersion: "test", bundleId: "com.example", environment: .sandbox, release: release,
                digest: BundleBuilder.digest(of: files.mapValues { Array($0.utf8) }), operations: []),
            imageCount: 0, messageCount: 0, defaultCount: 0)
    }

    func contents(_ url: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory)
            if !isDirectory.boolValue {
                result[String(file.path.dropFirst(url.path.count + 1))] = try String(contentsOf: file, encoding: .utf8)
            }
        }
        return result
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
    }

    @Test func replacesAPreviousBundleWhole() throws {
        let destination = folder.appendingPathComponent("sandbox")
        try BundleWriter.write(bundle(["messages/a.json": "old", "messages/gone.json": "old"], release: "1"), to: destination)
        try BundleWriter.write(bundle(["messages/a.json": "new"], release: "2"), to: destination)
        let files = try contents(destination)
        #expect(files["messages/a.json"] == "new")
        #expect(files["messages/gone.json"] == nil)
        #expect(files["manifest.json"]?.contains("\"release\": \"2\"") == true)
        #expect(try leftovers().isEmpty)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func aFailedWriteLeavesThePreviousBundleAndNoTemporaryFolder() throws {
        let destination = folder.appendingPathComponent("sandbox")
        try BundleWriter.write(bundle(["messages/a.json": "old"]), to: destination)
        // "a" is written as a file, so "a/b" cannot be created: the write fails half-way.
        let broken = bundle(["a": "file", "a/b": "cannot exist"], release: "2")
        #expect(throws: BundleWriter.Failure.self) { try BundleWriter.write(broken, to: destination) }
        #expect(try contents(destination)["messages/a.json"] == "old")
        #expect(try leftovers().isEmpty)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func refusesAFolderThatIsNotABundle() throws {
        let destination = folder.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: destination.appendingPathComponent("notes.txt"))
        #expect(throws: BundleWriter.Failure.destinationNotABundle(destination.path)) {
            try BundleWriter.write(bundle(["messages/a.json": "x"]), to: destination)
        }
        #expect(try contents(destination) == ["notes.txt": "keep me"])
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func refusesAFile() throws {
        let destination = folder.appendingPathComponent("out")
        try Data("a file".utf8).write(to: destination)
        #expect(throws: BundleWriter.Failure.destinationNotABundle(destination.path)) {
            try BundleWriter.write(bundle(["messages/a.json": "x"]), to: destination)
        }
        #expect(try String(contentsOf: destination, encoding: .utf8) == "a file")
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func refusesASymbolicLinkAndLeavesWhatItPointsTo() throws {
        let target = folder.appendingPathComponent("b7")
        try BundleWriter.write(bundle(["messages/a.json": "old"]), to: target)
        let link = folder.appendingPathComponent("link7")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "b7")
        #expect(throws: BundleWriter.Failure.destinationIsLink(link.path)) {
            try BundleWriter.write(bundle(["messages/a.json": "new"]), to: link)
        }
        #expect(try contents(target)["messages/a.json"] == "old")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "b7")
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func makesFoldersWithReasonsItCanName() throws {
        try FileOutput.makeFolder(folder.appendingPathComponent("a/b/c"))
        try FileOutput.makeFolder(folder.appendingPathComponent("a/b"))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a/b/c").path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        try Data("a file".utf8).write(to: folder.appendingPathComponent("file"))
        #expect(throws: FileOutput.Failure.self) { try FileOutput.makeFolder(self.folder.appendingPathComponent("file/sub")) }
        do {
            try FileOutput.makeFolder(folder.appendingPathComponent("file/sub"))
        } catch {
            #expect(error.description == "'\(folder.appendingPathComponent("file").path)' is a regular file, not a folder")
        }
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func removesTemporaryFoldersOfKilledBuilds() throws {
        let destination = folder.appendingPathComponent("sandbox")
        let stale = folder.appendingPathComponent(".sandbox.msgc-tmp-999999999")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try BundleWriter.write(bundle(["messages/a.json": "x"]), to: destination)
        #expect(try leftovers().isEmpty)
        try? FileManager.default.removeItem(at: folder)
    }
}
