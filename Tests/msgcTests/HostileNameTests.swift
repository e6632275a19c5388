import Foundation
import Testing
import TestSupport

/// Names that become paths are checked where they enter: no locale, product id or pseudo
/// locale from a file someone else wrote can make msgc write outside its output folder.
@Suite(.ownThreads) struct HostileNameTests {
    func exampleCopy() throws -> URL {
        let copy = try MsgcRunner.temporaryFolder().appendingPathComponent("project/content")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: MsgcRunner.packageRoot.appendingPathComponent("content"), to: copy)
        return copy
    }

    /// Every file under `folder`, relative, sorted.
    func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var result: [String] = []
        while let path = enumerator?.nextObject() as? String { result.append(path) }
        return result.sorted()
    }

    /// An XLIFF file whose target language only looks like a pseudo locale is no pseudo locale:
    /// preview draws no page for it, and writes nothing outside --out.
    @Test func aTargetLanguageThatLooksLikeAPseudoLocaleWritesNothingOutside() throws {
        let copy = try exampleCopy()
        let project = copy.deletingLastPathComponent()
        let hostile = try String(contentsOf: copy.appendingPathComponent("translations/de-DE.xliff"), encoding: .utf8)
            .replacingOccurrences(of: "target-language=\"de-DE\"", with: "target-language=\"ab-xa-/../../victim/index\"")
        try Data(hostile.utf8).write(to: copy.appendingPathComponent("translations/victim.xliff"))
        let before = files(under: project)
        let preview = try MsgcRunner.run(["preview", "--content", "content", "--out", "gallery/out"], in: project)
        #expect(preview.status == 0, "\(preview.stderr)")
        let written = files(under: project).filter { !before.contains($0) }
        #expect(written.allSatisfy { $0 == "gallery" || $0.hasPrefix("gallery/out") }, "\(written)")
        #expect(!written.contains { $0.contains("victim") || $0.contains("ab-xa") })
        let lint = try MsgcRunner.run(["lint", "--content", "content"], in: project)
        #expect(lint.stdout.contains("ab-xa-/../../victim/index"))
        #expect(lint.status == 1)
    }

    /// A locale in msgc.yaml that is not one path segment is an error where msgc.yaml is read,
    /// and no command ever uses it.
    @Test(arguments: ["../../victim/index", "..", "de/DE", "a\\u{1B}[31m"])
    func aLocaleThatIsAPathIsRefusedInMsgcYaml(locale: String) throws {
        let copy = try exampleCopy()
        let project = copy.deletingLastPathComponent()
        let config = copy.appendingPathComponent("msgc.yaml")
        let text = try String(contentsOf: config, encoding: .utf8)
        let yamlLocale = "\"" + locale.replacingOccurrences(of: "\\", with: "\\\\") + "\""
        try Data(text.replacingOccurrences(of: "locales: [en-US,", with: "locales: [\(yamlLocale), en-US,").utf8).write(to: config)
        let lint = try MsgcRunner.run(["lint", "--content", "content"], in: project)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("[CFG008]"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("\u{1B}[31m"))
        let before = files(under: project)
        let preview = try MsgcRunner.run(["preview", "--content", "content", "--out", "gallery/out"], in: project)
        #expect(preview.status == 0, "\(preview.stderr)")
        let written = files(under: project).filter { !before.contains($0) }
        #expect(written.allSatisfy { $0 == "gallery" || $0.hasPrefix("gallery/out") }, "\(written)")
        #expect(written.count == files(under: project.appendingPathComponent("gallery/out")).count + 2)
    }

    /// A product id that cannot be a folder name is CFG003, and stops the build before it writes.
    @Test(arguments: [".", "..", String(repeating: "p", count: 5_000)])
    func aProductIdThatCannotBeAFolderIsRefused(id: String) throws {
        let copy = try exampleCopy()
        let config = copy.appendingPathComponent("msgc.yaml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try Data((text + "  - id: \"\(id)\"\n").utf8).write(to: config)
        let lint = try MsgcRunner.run(["lint", "--content", copy.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("[CFG003]"), "\(lint.stdout.prefix(2_000))")
        let out = copy.deletingLastPathComponent().appendingPathComponent("bundle")
        let build = try MsgcRunner.run(["build", "--content", copy.path, "--environment", "sandbox", "--out", out.path])
        #expect(build.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A file name is text from whoever named the file: a newline in it must not forge a
    /// diagnostic line, and an escape sequence must not reach the terminal.
    @Test func fileNamesReachTheTerminalEscaped() throws {
        let copy = try exampleCopy()
        let name = "evil\u{1B}[31mred\napp.swift:1:1: error: forged.xliff"
        try Data("not xml".utf8).write(to: copy.appendingPathComponent("translations").appendingPathComponent(name))
        for format in ["human", "github"] {
            let lint = try MsgcRunner.run(["lint", "--content", copy.path, "--format", format])
            #expect(lint.status == 1)
            #expect(!lint.stdout.contains("\u{1B}"), "\(format)")
            #expect(!lint.stdout.split(separator: "\n").contains { $0.hasPrefix("app.swift") }, "\(format)")
            #expect(lint.stdout.contains("evil<U+001B>[31mred<U+000A>app.swift"), "\(format): \(lint.stdout)")
        }
    }

    /// States from a state file and manifests from elsewhere are quoted escaped too.
    @Test func stateFilesAndManifestsReachTheTerminalEscaped() throws {
        let copy = try exampleCopy()
        let scratch = copy.deletingLastPathComponent()
        let state = scratch.appendingPathComponent("state.json")
        // Every upload of the example held in a state Apple never wrote, with an escape in it.
        let bundle = scratch.appendingPathComponent("bundle")
        #expect(try MsgcRunner.run(["build", "--content", copy.path, "--environment", "production", "--out", bundle.path]).status == 0)
        let manifest = try String(contentsOf: bundle.appendingPathComponent("manifest.json"), encoding: .utf8)
        let identifiers = manifest.matches(of: /"identifier": "([0-9a-f-]{36})"/).map { String($0.output.1) }
        #expect(!identifiers.isEmpty)
        let entries = Set(identifiers).sorted().map { "{ \"messageIdentifier\": \"\($0)\", \"messageState\": \"\\u001b[2JPENDING\" }" }
        try Data("{ \"messages\": { \"messageIdentifiers\": [\(entries.joined(separator: ","))] }, \"images\": { \"imageIdentifiers\": [] } }".utf8)
            .write(to: state)
        let coverage = try MsgcRunner.run(["coverage", "--content", copy.path, "--state", state.path])
        #expect(coverage.status == 0, "\(coverage.stderr)")
        #expect(coverage.stdout.contains("<U+001B>[2JPENDING at Apple"), "\(coverage.stdout)")
        #expect(!coverage.stdout.contains("\u{1B}"))

        // A manifest naming a file with an escape in its name.
        let tampered = manifest.replacingOccurrences(of: "\"file\": \"messages/", with: "\"file\": \"messages/\\u001b[31m")
        try Data(tampered.utf8).write(to: bundle.appendingPathComponent("manifest.json"))
        let diff = try MsgcRunner.run(["diff", bundle.path, bundle.path])
        #expect(diff.status == 2)
        #expect(!diff.stderr.contains("\u{1B}"), "\(diff.stderr)")
        #expect(diff.stderr.contains("<U+001B>"), "\(diff.stderr)")
    }
}
