import Foundation
import TestSupport
import Testing

/// Every command as a user runs it, compared whole against a recorded transcript: the command
/// line, the exit status, standard output and standard error, byte for byte.
///
/// Each case starts from a copy of `Fixtures/everyday/content`, a tree as users have it: a
/// header edited after its translation (stale), a German target too long for Apple, a French
/// file half done in another tool, a Japanese XLIFF 2.0 file without states, and a rule
/// setting. The case's steps run in a fresh folder holding that copy as `content/`, so every
/// path in the output is relative and the same on every machine. `MSGC_RECORD=1 swift test`
/// rewrites the transcripts in `Transcripts/` for review.
@Suite(.ownThreads) struct CommandTranscriptTests {
    enum Step: Sendable {
        /// Runs msgc with these arguments; only the last step's run is recorded.
        case run([String])
        /// Writes a file, relative to the working folder.
        case write(String, String)
        /// Replaces text in a file, as a writer's edit would.
        case replace(String, String, with: String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [Step]
        var testDescription: String { name }

        init(_ name: String, _ steps: [Step]) {
            self.name = name
            self.steps = steps
        }

        init(_ name: String, _ arguments: String...) {
            self.init(name, [.run(arguments)])
        }
    }

    static let brokenSource = """
        messages:
          - key: spring-offer
            product: com.example.reader.yearly
            type: text
            heder: Spring is here
            body: Three months for the price of one.

        """

    static let cases: [Case] = [
        Case("help", "--help"),
        Case("lint", "lint"),
        Case("lint-json", "lint", "--format", "json"),
        Case("lint-sarif", "lint", "--format", "sarif"),
        Case("lint-github", "lint", "--format", "github"),
        Case("lint-strict", "lint", "--strict"),
        Case("lint-one-file", "lint", "content/translations/de-DE.xliff"),
        Case("lint-quiet", "lint", "--quiet"),
        Case("lint-broken-source", [.write("content/messages/spring.yaml", brokenSource), .run(["lint"])]),
        Case("lint-no-tree", "lint", "--content", "missing"),
        Case("lint-outside-tree", [.write("notes.txt", "x"), .run(["lint", "notes.txt"])]),
        Case("build", "build", "--environment", "sandbox"),
        Case("build-strict", "build", "--environment", "production", "--strict"),
        Case("build-stopped", [.write("content/messages/spring.yaml", brokenSource), .run(["build", "--environment", "sandbox"])]),
        Case("build-no-environment", "build"),
        Case("build-bad-state", [.write("state.json", "{\"messages\": []}"), .run(["build", "--environment", "production", "--state", "state.json"])]),
        Case("coverage", "coverage"),
        Case("coverage-json", "coverage", "--format", "json"),
        Case("coverage-markdown", "coverage", "--format", "markdown"),
        Case("coverage-fail-under", "coverage", "--fail-under", "90"),
        Case("extract", "extract", "--locale", "de-DE"),
        Case("extract-unknown-locale", "extract", "--locale", "it-IT"),
        Case("pseudo", "pseudo", "--locale", "en-XA", "--out", "pseudo.xliff"),
        Case("explain", "explain"),
        Case("explain-code", "explain", "TRN001"),
        Case("explain-name", "explain", "stale-translation"),
        Case("explain-unknown", "explain", "TXT999"),
        Case("diff", [
            .run(["build", "--environment", "sandbox", "--out", "old", "--quiet"]),
            .replace("content/messages/winback.yaml", "save 50%", with: "save 60%"),
            .run(["build", "--environment", "sandbox", "--out", "new", "--quiet"]),
            .run(["diff", "old", "new"]),
        ]),
        Case("schema-unknown", "schema", "xliff"),
        Case("apply-no-bundle", "apply", "missing", "--key-file", "none.p8", "--key-id", "K", "--issuer-id", "I"),
        Case("apply-no-key", [.run(["build", "--environment", "sandbox", "--quiet"]), .run(["apply", "build/sandbox"])]),
        Case("apply-not-a-key", [
            .run(["build", "--environment", "sandbox", "--quiet"]), .write("key.p8", "-----BEGIN PRIVATE KEY-----\nnot a key\n"),
            .run(["apply", "build/sandbox", "--key-file", "key.p8", "--key-id", "K", "--issuer-id", "I"]),
        ]),
        Case("state-fetch-no-key", "state", "fetch", "--environment", "sandbox", "--bundle-id", "com.example.app", "--out", "state.json"),
        Case("init", "init", "new"),
        Case("init-not-empty", "init", "content"),
        Case("diff-not-a-bundle", [.write("old/notes.txt", "x"), .run(["diff", "old", "old"])]),
    ]

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/everyday/content")
    static let golden = Golden("Transcripts")

    @Test(arguments: cases)
    func transcript(_ testCase: Case) throws {
        let folder = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Self.fixture, to: folder.appendingPathComponent("content"))
        var transcript = ""
        for step in testCase.steps {
            switch step {
            case .write(let path, let text):
                try MsgcRunner.write([path: text], into: folder)
            case .replace(let path, let old, let new):
                let url = folder.appendingPathComponent(path)
                let text = try String(contentsOf: url, encoding: .utf8)
                #expect(text.contains(old), "\(path) does not hold '\(old)'")
                try MsgcRunner.write([path: text.replacingOccurrences(of: old, with: new)], into: folder)
            case .run(let arguments):
                let result = try MsgcRunner.run(arguments, in: folder, environment: ["NO_COLOR": "1", "COLUMNS": "80", "MSGC_KEY_FILE": "", "MSGC_KEY_ID": "", "MSGC_ISSUER_ID": ""])
                transcript = "$ msgc \(arguments.joined(separator: " "))\nstatus: \(result.status)\n"
                    + "--- stdout\n\(result.stdout)--- stderr\n\(result.stderr)"
            }
        }
        Self.golden.check(transcript, against: "\(testCase.name).txt")
    }
}
