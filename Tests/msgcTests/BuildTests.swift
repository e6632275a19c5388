import Foundation
import Testing
import TestSupport

@Suite(.ownThreads, .serialized) struct BuildTests {
    let example = MsgcRunner.packageRoot.appendingPathComponent("content").path

    @Test func exampleContentLintsClean() throws {
        let result = try MsgcRunner.run(["lint", "--content", example])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("no problems found\n"))
    }

    @Test func buildsTheExampleAndSaysWhatItWrote() throws {
        let out = try MsgcRunner.temporaryFolder().appendingPathComponent("sandbox")
        let result = try MsgcRunner.run(["build", "--content", example, "--environment", "sandbox", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(out.path): 6 image uploads, "))
        let files = try MsgcRunner.files(in: out)
        #expect(files["manifest.json"] != nil)
        #expect(files.keys.contains { $0.hasPrefix("messages/") && $0.hasSuffix(".json") })
        #expect(files.keys.contains("defaults/com.example.parla.plus.yearly/en-US.json"))
    }

    // Identical bytes from another directory, under other locales and listing orders: DeterminismTests.

    @Test func sandboxAndProductionIdentifiersDiffer() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        for environment in ["sandbox", "production"] {
            let out = scratch.appendingPathComponent(environment).path
            #expect(try MsgcRunner.run(["build", "--content", example, "--environment", environment, "--out", out]).status == 0)
        }
        let sandbox = Set(try MsgcRunner.files(in: scratch.appendingPathComponent("sandbox")).keys.filter { !$0.hasPrefix("defaults/") && $0 != "manifest.json" && $0 != "realtime.json" })
        let production = Set(try MsgcRunner.files(in: scratch.appendingPathComponent("production")).keys.filter { !$0.hasPrefix("defaults/") && $0 != "manifest.json" && $0 != "realtime.json" })
        #expect(!sandbox.isEmpty)
        #expect(sandbox.isDisjoint(with: production))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["MSGC_APPLE_LIBRARY_PYTHON"] != nil,
                   "needs Apple's Python library; scripts/test.sh installs it"))
    func applesClientLibraryAcceptsEveryMessage() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        for environment in ["sandbox", "production"] {
            let out = scratch.appendingPathComponent(environment).path
            #expect(try MsgcRunner.run(["build", "--content", example, "--environment", environment, "--out", out]).status == 0)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.environment["MSGC_APPLE_LIBRARY_PYTHON"]!)
        process.arguments = [
            MsgcRunner.packageRoot.appendingPathComponent("scripts/check-bundle-with-apple-library.py").path,
            scratch.appendingPathComponent("sandbox").path, scratch.appendingPathComponent("production").path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func errorsInSourcesStopTheBuildAndWriteNothing() throws {
        let tree = try MsgcRunner.temporaryFolder()
        try MsgcRunner.write([
            "msgc.yaml": "bundleId: com.example.app\nsourceLocale: en-US\nlocales: [en-US]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.app.yearly\n",
            "messages/a.yaml": "messages:\n  - key: winback\n    product: com.example.app.yearly\n    type: text\n    default: true\n    heder: Stay\n    body: Keep reading.\n",
        ], into: tree)
        let out = tree.appendingPathComponent("build/sandbox")
        let result = try MsgcRunner.run(["build", "--content", tree.path, "--environment", "sandbox", "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: unknown key 'heder' in message [PRS003]"))
        #expect(result.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func anOutputThatIsAFileIsAnIOFailure() throws {
        let scratch = try MsgcRunner.temporaryFolder()
        let file = scratch.appendingPathComponent("bundle")
        try Data("not a folder".utf8).write(to: file)
        let result = try MsgcRunner.run(["build", "--content", example, "--environment", "sandbox", "--out", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is not an msgc bundle"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "not a folder")
    }
}
