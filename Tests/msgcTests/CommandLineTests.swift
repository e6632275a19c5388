import Foundation
import Testing
import TestSupport

@Suite(.ownThreads) struct CommandLineTests {
    @Test func initCreatesATreeThatLintsAndBuilds() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        let initResult = try MsgcRunner.run(["init", "app-content"], in: scratch)
        #expect(initResult.status == 0, "\(initResult.stderr)")
        let config = try String(contentsOf: scratch.appendingPathComponent("app-content/msgc.yaml"), encoding: .utf8)
        #expect(config.contains("namespace: "))
        #expect(try MsgcRunner.run(["lint", "--content", "app-content"], in: scratch).status == 0)
        let build = try MsgcRunner.run(["build", "--content", "app-content", "--environment", "sandbox"], in: scratch)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("build/sandbox/manifest.json").path))
    }

    @Test func initGivesEachProjectItsOwnNamespace() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        _ = try MsgcRunner.run(["init", "a"], in: scratch)
        _ = try MsgcRunner.run(["init", "b"], in: scratch)
        let a = try String(contentsOf: scratch.appendingPathComponent("a/msgc.yaml"), encoding: .utf8)
        let b = try String(contentsOf: scratch.appendingPathComponent("b/msgc.yaml"), encoding: .utf8)
        #expect(a != b)
    }

    @Test func initOnASymbolicLinkToNothingSaysSo() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("content").path, withDestinationPath: "missing/tree")
        let result = try MsgcRunner.run(["init"], in: scratch)
        #expect(result.status == 2)
        #expect(result.stderr == "msgc: 'content' is a symbolic link to 'missing/tree', which does not exist; remove the link, or create the folder it points to first\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("missing").path))
    }

    /// A folder on the way to the new tree that is a link to nothing, a link loop or a file is
    /// named, with what it is, rather than the file system's "a file with the same name exists".
    @Test("init below a link to nothing, a loop, or a file", arguments: [
        ("content/sub", "msgc: 'content' is a symbolic link to 'missing/tree', which does not exist; remove the link, or create the folder it points to first\n"),
        ("content/a/b", "msgc: 'content' is a symbolic link to 'missing/tree', which does not exist; remove the link, or create the folder it points to first\n"),
        ("loop/sub", "msgc: 'loop' is a symbolic link that leads back to itself (a loop); remove it or point it at a folder\n"),
        ("notes.txt/sub", "msgc: 'notes.txt' is not a folder, so 'notes.txt/sub' cannot be created in it\n"),
    ])
    func initBelowSomethingThatIsNotAFolder(directory: String, stderr: String) throws {
        let scratch = try MsgcRunner.temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("content").path, withDestinationPath: "missing/tree")
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("loop").path, withDestinationPath: "loop")
        try MsgcRunner.write(["notes.txt": "mine"], into: scratch)
        let result = try MsgcRunner.run(["init", directory], in: scratch)
        #expect(result.status == 2)
        #expect(result.stderr == stderr)
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("missing").path))
    }

    @Test func initRefusesToOverwrite() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        try MsgcRunner.write(["content/msgc.yaml": "mine"], into: scratch)
        let result = try MsgcRunner.run(["init"], in: scratch)
        #expect(result.status == 2)
        #expect(try String(contentsOf: scratch.appendingPathComponent("content/msgc.yaml"), encoding: .utf8) == "mine")
    }

    @Test(arguments: ["a: b # c", "com/bad id", "", "com.exämple.app"])
    func initRefusesABundleIdItCannotWrite(bundleId: String) throws {
        let scratch = try MsgcRunner.temporaryFolder()
        let result = try MsgcRunner.run(["init", "app", "--bundle-id", bundleId], in: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--bundle-id '\(bundleId)' may hold only ASCII letters, digits, '.', '_' and '-'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("app").path))
    }

    @Test func initWritesTheBundleIdGiven() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        #expect(try MsgcRunner.run(["init", "app", "--bundle-id", "org.example.reader_2-x"], in: scratch).status == 0)
        let config = try String(contentsOf: scratch.appendingPathComponent("app/msgc.yaml"), encoding: .utf8)
        #expect(config.contains("bundleId: org.example.reader_2-x\n"))
        #expect(try MsgcRunner.run(["lint", "--content", "app"], in: scratch).status == 0)
    }

    @Test func usageMistakesExitWithTwo() throws {
        #expect(try MsgcRunner.run(["build"]).status == 2)
        #expect(try MsgcRunner.run(["build", "--environment", "staging"]).status == 2)
        #expect(try MsgcRunner.run(["lint", "--no-such-flag"]).status == 2)
        let missing = try MsgcRunner.run(["lint", "--content", "/nonexistent/content"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no content tree at '/nonexistent/content'"))
    }

    @Test func helpAndVersionExitWithZero() throws {
        let help = try MsgcRunner.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("A compiler for App Store retention messages."))
        #expect(try MsgcRunner.run(["build", "--help"]).stdout.contains("--environment"))
        #expect(try MsgcRunner.run(["--version"]).status == 0)
    }

    @Test func lintPrintsCompilerStyleDiagnostics() throws {
        let tree = try MsgcRunner.temporaryFolder()
        try MsgcRunner.write([
            "msgc.yaml": "bundleId: com.example.app\nsourceLocale: en-US\nlocales: [en-US]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.app.yearly\n",
            "messages/a.yaml": "messages:\n  - key: winback\n    product: com.example.app.yearly\n    type: text\n    default: true\n    heder: Stay\n    body: Keep reading.\n",
        ], into: tree)
        let result = try MsgcRunner.run(["lint", "--content", "."], in: tree)
        #expect(result.status == 1)
        #expect(result.stdout == """
            messages/a.yaml:2:5: error: message has no 'header' [PRS005]
               |
             2 |   - key: winback
               |     ^
              = fix: add 'header: …'
            messages/a.yaml:6:5: error: unknown key 'heder' in message [PRS003]
               |
             6 |     heder: Stay
               |     ^~~~~
              = fix: did you mean 'header'?
            2 errors, 0 warnings in 1 file

            """)
        let json = try MsgcRunner.run(["lint", "--content", tree.path, "--format", "json"])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["schemaVersion"] as? Int == 1)
        #expect((object?["diagnostics"] as? [Any])?.count == 2)
    }

    /// An empty or comments-only msgc.yaml is a broken config like `---`: lint reports it and
    /// exits 1, and build stops on it rather than on "no problems found".
    @Test(arguments: ["", "# bundleId: com.example.app\n"])
    func emptyConfigIsAnError(_ config: String) throws {
        let tree = try MsgcRunner.temporaryFolder()
        try MsgcRunner.write([
            "msgc.yaml": config,
            "messages/a.yaml": "messages:\n  - key: winback\n    product: com.example.app.yearly\n    type: text\n    default: true\n    header: Stay\n    body: Keep reading.\n",
        ], into: tree)
        let lint = try MsgcRunner.run(["lint", "--content", "."], in: tree)
        #expect(lint.status == 1)
        #expect(lint.stdout.hasPrefix("msgc.yaml:1: error: msgc.yaml is empty; it needs bundleId, sourceLocale, locales, namespace, products [PRS005]\n"))
        #expect(lint.stdout.hasSuffix("1 error, 0 warnings in 1 file\n"))
        let build = try MsgcRunner.run(["build", "--content", ".", "--environment", "sandbox"], in: tree)
        #expect(build.status == 1)
        #expect(build.stderr.contains("[PRS005]"))
        #expect(build.stderr.hasSuffix("msgc: build stopped: 1 error, 0 warnings in 1 file; nothing was written\n"))
    }

    @Test func colourFollowsTheFlagAndNoColor() throws {
        let tree = try MsgcRunner.temporaryFolder()
        try MsgcRunner.write(["msgc.yaml": "bundleId: [x]\n"], into: tree)
        let coloured = try MsgcRunner.run(["lint", "--content", tree.path, "--color", "always"])
        #expect(coloured.stdout.contains("\u{1B}[1;31merror:"))
        let plain = try MsgcRunner.run(["lint", "--content", tree.path])
        #expect(!plain.stdout.contains("\u{1B}["))
    }

    @Test func explainListsTheCatalogAndOneRule() throws {
        let list = try MsgcRunner.run(["explain"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("PRJ003"))
        let one = try MsgcRunner.run(["explain", "missing-default-message"])
        #expect(one.stdout.hasPrefix("PRJ003 missing-default-message (error)"))
        #expect(try MsgcRunner.run(["explain", "NOPE999"]).status == 2)
        // The longest names are listed whole, and explain accepts them as listed.
        #expect(list.stdout.contains(" translation-below-minimum-state "))
        let long = try MsgcRunner.run(["explain", "translation-below-minimum-state"])
        #expect(long.status == 0)
        #expect(long.stdout.hasPrefix("TRN002 translation-below-minimum-state (warning)"))
    }
}
