import Foundation
import Testing
import TestSupport

/// Hostile files in a content tree, end to end through the built `msgc`: each one gives exactly
/// one clear diagnostic with its location, exit status 1 or 2, bounded memory, and never the
/// contents of a file outside the tree.
///
/// The small files are committed under `Adversarial/`; the big ones (50 MB of garbage, nesting
/// 100,000 deep) are made at test time. Every tree sits beside a secret file, outside the tree,
/// that hostile files point at; its marker must never appear in msgc's output.
@Suite(.ownThreads) struct AdversarialInputTests {
    static let fixtures = MsgcRunner.packageRoot.appendingPathComponent("Tests/msgcTests/Adversarial")

    /// Peak resident memory allowed for one lint of a hostile tree. A clean lint of a small tree
    /// takes about 30 MB; reading a 50 MB file about 80 MB.
    static let memoryBoundBytes = 400 << 20

    static let config = """
        bundleId: com.example.app
        sourceLocale: en-US
        locales: [en-US, de-DE]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: com.example.app.yearly

        """

    static func message(image: String? = nil) -> String {
        var text = """
            messages:
              - key: winback
                product: com.example.app.yearly
                type: text
                default: true
                header: Stay with us
                body: Keep reading without limits.

            """
        if let image { text += "    image: { file: \"\(image)\", alt: A reader with a newspaper }\n" }
        return text
    }

    /// A scratch folder holding `content/` (a clean tree) and `secret.txt` beside it.
    struct Scenario {
        let scratch: URL
        let content: URL
        let secretURL: URL
        let secret = "MSGC-SECRET-\(UUID().uuidString)"

        init(image: String? = nil) throws {
            scratch = try MsgcRunner.temporaryFolder()
            content = scratch.appendingPathComponent("content")
            secretURL = scratch.appendingPathComponent("secret.txt")
            try Data("<secret>\(secret)</secret>\n".utf8).write(to: secretURL)
            // "SECRET" stands for the secret's absolute path.
            let imagePath = image == "SECRET" ? secretURL.path : image
            try MsgcRunner.write(["msgc.yaml": AdversarialInputTests.config,
                                  "messages/a.yaml": AdversarialInputTests.message(image: imagePath)], into: content)
        }

        /// Copies a committed fixture into the tree, pointing its `SECRET_URL` at the secret.
        func place(fixture name: String, at path: String) throws {
            var bytes = try Data(contentsOf: AdversarialInputTests.fixtures.appendingPathComponent(name))
            if let text = String(data: bytes, encoding: .utf8), text.contains("SECRET_URL") {
                bytes = Data(text.replacingOccurrences(of: "SECRET_URL", with: secretURL.absoluteString).utf8)
            }
            try write(bytes, at: path)
        }

        func write(_ bytes: Data, at path: String) throws {
            let url = content.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }

        func link(_ path: String, to target: URL) throws {
            let url = content.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: url, withDestinationURL: target)
        }

        func remove() { try? FileManager.default.removeItem(at: scratch) }
    }

    /// What one diagnostic must say.
    struct Expected {
        var code: String
        var path: String
        var line: Int?
        var messageContains: String
    }

    /// Lints the scenario in JSON (to check the one diagnostic) and in the human format (the one
    /// with source snippets, where a leak would show), both measured.
    func expectOneDiagnostic(_ scenario: Scenario, _ expected: Expected, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for format in ["json", "human"] {
            let result = try MeasuredProcess.run(
                MsgcRunner.executable, ["lint", "--content", "content", "--format", format], in: scenario.scratch,
                environment: ["MSGC_TEST_SECRET": scenario.secret], hangGuardSeconds: 120)
            #expect(!result.timedOut, "msgc lint did not finish", sourceLocation: sourceLocation)
            #expect(result.signal == nil, "msgc was killed by signal \(result.signal ?? 0)", sourceLocation: sourceLocation)
            #expect([1, 2].contains(result.status), "exit status \(result.status)", sourceLocation: sourceLocation)
            #expect(result.peakRSSBytes < Self.memoryBoundBytes, "peak RSS \(result.peakRSSBytes >> 20) MB",
                    sourceLocation: sourceLocation)
            let output = result.stdout + result.stderr
            #expect(!output.contains(scenario.secret), "the secret leaked into the output", sourceLocation: sourceLocation)
            // One diagnostic reads as a few lines, however long the hostile file's lines are.
            #expect(output.utf8.count < 2_048, "\(output.utf8.count) bytes of output", sourceLocation: sourceLocation)
            guard format == "json" else { continue }
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let diagnostics = object?["diagnostics"] as? [[String: Any]] ?? []
            #expect(diagnostics.count == 1, "\(result.stdout)", sourceLocation: sourceLocation)
            guard let diagnostic = diagnostics.first else { continue }
            #expect(diagnostic["code"] as? String == expected.code, "\(diagnostic)", sourceLocation: sourceLocation)
            #expect(diagnostic["severity"] as? String == "error", sourceLocation: sourceLocation)
            #expect(diagnostic["path"] as? String == "content/" + expected.path, "\(diagnostic)", sourceLocation: sourceLocation)
            if let line = expected.line {
                #expect(diagnostic["line"] as? Int == line, "\(diagnostic)", sourceLocation: sourceLocation)
            }
            let message = diagnostic["message"] as? String ?? ""
            #expect(message.contains(expected.messageContains), "\(message)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - XLIFF

    @Test("XLIFF fixtures that must be refused", arguments: [
        ("external-entity.xliff", Expected(code: "XLF002", path: "translations/de-DE.xliff", line: 2, messageContains: "DOCTYPE")),
        ("parameter-entity.xliff", Expected(code: "XLF002", path: "translations/de-DE.xliff", line: 2, messageContains: "DOCTYPE")),
        ("entity-bomb.xliff", Expected(code: "XLF002", path: "translations/de-DE.xliff", line: 2, messageContains: "DOCTYPE")),
        ("external-dtd.xliff", Expected(code: "XLF002", path: "translations/de-DE.xliff", line: 2, messageContains: "DOCTYPE")),
        ("truncated.xliff", Expected(code: "XLF001", path: "translations/de-DE.xliff", line: 7, messageContains: "truncated")),
        ("latin1-declared-utf8.xliff", Expected(code: "XLF007", path: "translations/de-DE.xliff", line: 7,
                                                 messageContains: "not valid UTF-8")),
        ("utf16-without-bom.xliff", Expected(code: "XLF007", path: "translations/de-DE.xliff", line: 1,
                                              messageContains: "UTF-16 with neither a byte order mark")),
    ])
    func hostileXLIFF(fixture: String, expected: Expected) throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        try scenario.place(fixture: fixture, at: "translations/de-DE.xliff")
        try expectOneDiagnostic(scenario, expected)
    }

    @Test func xliffNested100000Deep() throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        let text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">"#
            + String(repeating: "<g>", count: 100_000) + String(repeating: "</g>", count: 100_000) + "</xliff>\n"
        try scenario.write(Data(text.utf8), at: "translations/de-DE.xliff")
        try expectOneDiagnostic(scenario, Expected(
            code: "XLF005", path: "translations/de-DE.xliff", line: 2, messageContains: "nest"))
    }

    // MARK: - YAML

    @Test func yamlWithInvalidUTF8() throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        try scenario.place(fixture: "invalid-utf8.yaml", at: "messages/b.yaml")
        try expectOneDiagnostic(scenario, Expected(code: "PRS002", path: "messages/b.yaml", line: 6, messageContains: "0x92"))
    }

    @Test func yamlAliasBomb() throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        try scenario.place(fixture: "alias-bomb.yaml", at: "messages/b.yaml")
        try expectOneDiagnostic(scenario, Expected(
            code: "PRS009", path: "messages/b.yaml", line: 6, messageContains: "aliases expand to more than 100000 nodes"))
    }

    @Test("YAML nested 100,000 deep", arguments: ["flow", "block"])
    func yamlNested100000Deep(style: String) throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        let text = style == "flow"
            ? "messages: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
            : "messages:\n" + (0..<100_000).map { String(repeating: " ", count: $0 % 200) + "- " }.joined() + "x\n"
        try scenario.write(Data(text.utf8), at: "messages/b.yaml")
        try expectOneDiagnostic(scenario, Expected(
            code: "PRS009", path: "messages/b.yaml", line: nil, messageContains: "nests deeper than 64 levels"))
    }

    // MARK: - Any kind of file

    @Test("50 MB of garbage", arguments: ["translations/de-DE.xliff", "messages/b.yaml", "images/hero.png"])
    func garbage(path: String) throws {
        let scenario = try Scenario(image: path.hasPrefix("images/") ? path : nil)
        defer { scenario.remove() }
        var generator = SplitMix64(seed: 0x6D73_6763)
        var bytes = Data(count: 50_000_000)
        bytes.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        try scenario.write(bytes, at: path)
        let expected: Expected = switch path {
        case "translations/de-DE.xliff":
            // Under the XLIFF size cap (64 MiB), so it is read: the first byte that is not UTF-8.
            Expected(code: "XLF007", path: path, line: 1, messageContains: "not valid UTF-8")
        case "messages/b.yaml":
            Expected(code: "PRS009", path: path, line: nil, messageContains: "has 50000000 bytes")
        default:
            // Reported where the message refers to the image.
            Expected(code: "IMG001", path: "messages/a.yaml", line: 8, messageContains: "has 50000000 bytes")
        }
        try expectOneDiagnostic(scenario, expected)
    }

    // MARK: - Images

    @Test("image paths that lead out of the tree: with .., and absolute", arguments: ["../secret.txt", "images/../../secret.txt", "SECRET"])
    func imagePathOutOfTree(path: String) throws {
        let scenario = try Scenario(image: path)
        defer { scenario.remove() }
        try expectOneDiagnostic(scenario, Expected(
            code: "IMG001", path: "messages/a.yaml", line: 8, messageContains: "leads outside the content tree"))
    }

    @Test("a symbolic link out of the tree, to a file or to a folder", arguments: [
        (image: "images/hero.png", link: "images/hero.png", toFolder: false),
        (image: "images/outside/secret.txt", link: "images/outside", toFolder: true),
    ])
    func symbolicLinkOutOfTheTree(image: String, link: String, toFolder: Bool) throws {
        let scenario = try Scenario(image: image)
        defer { scenario.remove() }
        try scenario.link(link, to: toFolder ? scenario.scratch : scenario.secretURL)
        try expectOneDiagnostic(scenario, Expected(
            code: "IMG001", path: "messages/a.yaml", line: 8, messageContains: "leads outside the content tree"))
    }

    @Test func unreferencedSymbolicLinkOutOfTheTreeIsReportedByTheWalk() throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        try scenario.link("translations/de-DE.xliff", to: scenario.secretURL)
        try expectOneDiagnostic(scenario, Expected(
            code: "PRS008", path: "translations/de-DE.xliff", line: nil, messageContains: "outside the content tree"))
    }

    // MARK: - msgc.yaml

    /// What `content/msgc.yaml` is, for `configThatIsNotAFileOfTheTree`.
    enum ConfigKind: String, CaseIterable {
        case linkToSecret, linkToEnvironment, linkToZeroDevice, fifo, folder, linkLoop, danglingLink, linkThroughFolderOut
    }

    /// msgc.yaml is read only when it is a regular file that resolves inside the tree, like every
    /// other file of the tree: a link out would print the file it leads to as snippets (secrets
    /// in a CI log), a FIFO would hang, a device would be read for ever.
    @Test(arguments: ConfigKind.allCases)
    func configThatIsNotAFileOfTheTree(kind: ConfigKind) throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        let config = scenario.content.appendingPathComponent("msgc.yaml")
        try FileManager.default.removeItem(at: config)
        // YAML the config parser would quote back line by line.
        try Data("bundleId: \(scenario.secret)\nsourceLocale: [\(scenario.secret)\n".utf8).write(to: scenario.secretURL)
        var message = "leads outside the content tree"
        switch kind {
        case .linkToSecret: try scenario.link("msgc.yaml", to: scenario.secretURL)
        case .linkToEnvironment: try scenario.link("msgc.yaml", to: URL(fileURLWithPath: "/proc/self/environ"))
        case .linkToZeroDevice: try scenario.link("msgc.yaml", to: URL(fileURLWithPath: "/dev/zero"))
        case .fifo:
            #expect(mkfifo(config.path, 0o600) == 0)
            message = "not a regular file"
        case .folder:
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: false)
            message = "not a regular file"
        case .linkLoop:
            try FileManager.default.createSymbolicLink(atPath: config.path, withDestinationPath: "msgc.yaml")
            message = "leads back to itself"
        case .danglingLink:
            try FileManager.default.createSymbolicLink(atPath: config.path, withDestinationPath: "nowhere.yaml")
            message = "symbolic link to a file that does not exist"
        case .linkThroughFolderOut:
            // msgc.yaml links to a folder of the tree that is itself a link out.
            try FileManager.default.createSymbolicLink(atPath: config.path, withDestinationPath: "settings/secret.txt")
            try scenario.link("settings", to: scenario.scratch)
        }
        try expectOneDiagnostic(scenario, Expected(code: "PRS008", path: "msgc.yaml", line: nil, messageContains: message))
    }

    /// The content folder itself may be a link (the user's choice), and msgc.yaml a link to a
    /// file inside the tree.
    @Test func linkedContentFolderAndConfigLinkedInsideIt() throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        let real = scenario.scratch.appendingPathComponent("real")
        try FileManager.default.moveItem(at: scenario.content, to: real)
        try FileManager.default.createSymbolicLink(at: scenario.content, withDestinationURL: real)
        try FileManager.default.createDirectory(at: real.appendingPathComponent("settings"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: real.appendingPathComponent("msgc.yaml"), to: real.appendingPathComponent("settings/app.yaml"))
        try FileManager.default.createSymbolicLink(atPath: real.appendingPathComponent("msgc.yaml").path, withDestinationPath: "settings/app.yaml")
        let result = try MeasuredProcess.run(MsgcRunner.executable, ["lint", "--content", "content"], in: scenario.scratch)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// Two files Linux keeps apart but macOS and Windows do not: one would vanish on checkout.
    @Test("file names that differ only in case or normalization", arguments: [
        ("messages/Extra.yaml", "messages/extra.yaml"),
        ("messages/cafe\u{301}.yaml", "messages/caf\u{E9}.yaml"),
    ])
    func namesDifferingOnlyInCase(first: String, second: String) throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        try scenario.write(Data("messages: []\n".utf8), at: first)
        try scenario.write(Data("messages: []\n".utf8), at: second)
        try expectOneDiagnostic(scenario, Expected(code: "PRJ007", path: second, line: nil, messageContains: "differ only in case"))
    }

    /// A translation file that links to itself is a loop, not a missing file; an image that
    /// does is one that cannot be read.
    @Test func linkLoopsSayWhatTheyAre() throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        try FileManager.default.createDirectory(at: scenario.content.appendingPathComponent("translations"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scenario.content.appendingPathComponent("translations/de-DE.xliff").path, withDestinationPath: "de-DE.xliff")
        try expectOneDiagnostic(scenario, Expected(
            code: "PRS008", path: "translations/de-DE.xliff", line: nil, messageContains: "leads back to itself (a loop)"))

        let image = try Scenario(image: "images/hero.png")
        defer { image.remove() }
        try FileManager.default.createDirectory(at: image.content.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: image.content.appendingPathComponent("images/hero.png").path, withDestinationPath: "hero.png")
        try expectOneDiagnostic(image, Expected(
            code: "IMG001", path: "messages/a.yaml", line: 8, messageContains: "symbolic link that leads back to itself"))
    }

    @Test func pngClaiming100000By100000Pixels() throws {
        let scenario = try Scenario(image: "images/hero.png")
        defer { scenario.remove() }
        try scenario.place(fixture: "huge-dimensions.png", at: "images/hero.png")
        try expectOneDiagnostic(scenario, Expected(
            code: "IMG005", path: "messages/a.yaml", line: 8, messageContains: "100000 × 100000 pixels"))
    }

    @Test func theCleanTreeLintsClean() throws {
        let scenario = try Scenario()
        defer { scenario.remove() }
        let result = try MeasuredProcess.run(MsgcRunner.executable, ["lint", "--content", "content"], in: scenario.scratch)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.peakRSSBytes < Self.memoryBoundBytes)
    }
}

/// A small deterministic generator, so the garbage is the same on every run.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
