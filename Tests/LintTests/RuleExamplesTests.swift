import Bundle
import Compiler
import Diagnostics
import Foundation
import Lint
import Model
import Testing

/// One example of one rule, as a test argument.
struct RuleExampleCase: Sendable, CustomTestStringConvertible {
    var info: RuleInfo
    var number: Int
    var example: RuleExample

    var testDescription: String { "\(info.code) \(info.name) example \(number) (\(example.kind.rawValue))" }

    static let all: [RuleExampleCase] = Codes.all.flatMap { info in
        info.examples.enumerated().map { RuleExampleCase(info: info, number: $0.offset + 1, example: $0.element) }
    }
}

/// Runs every example of every rule through the whole front end: ContentTree, Localizer, Linter.
@Suite struct RuleExamplesTests {
    @Test func baseTreeLintsClean() throws {
        let diagnostics = try Self.diagnostics(for: ExampleTree())
        #expect(diagnostics.isEmpty, "\(Self.describe(diagnostics))")
    }

    @Test(arguments: RuleExampleCase.all)
    func example(_ testCase: RuleExampleCase) throws {
        let tree = ExampleTree(testCase.example)
        let readsTranslations = tree.files.keys.contains { $0.hasPrefix("translations/") }
        let root = try tree.write()
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: ExampleTree.stateURL(root))
        }
        // Every code's examples go through the compiler as `msgc lint` does: parsing, the
        // rules, and msgc.yaml's rule settings; a state example goes on through a production build.
        let compilation = Compilation.compile(root: root)
        var diagnostics = testCase.example.isStateFile ? try Self.build(root: root, state: ExampleTree.stateURL(root)) : compilation.diagnostics
        if TranslatorReport.codes.contains(testCase.info.code) {
            // A translator's report's notes go through `msgc lint translations/`, which reports
            // on the translation files only.
            let isReported = { (path: String) in path.hasPrefix("translations/") }
            diagnostics = (diagnostics.filter { isReported($0.location.path) }
                + TranslatorReport.notes(for: compilation, reportingOn: isReported)).sortedForOutput()
        }

        if readsTranslations {
            #expect(!compilation.catalog.translationFiles.isEmpty, "the example's XLIFF files were not loaded")
        }
        Self.check(diagnostics, against: tree.expected, testCase: testCase)
    }

    static func check(_ diagnostics: [Diagnostic], against expected: [ExampleTree.Span], testCase: RuleExampleCase) {
        switch testCase.example.kind {
        case .valid:
            #expect(diagnostics.isEmpty, "valid example produced:\n\(describe(diagnostics))")
        case .invalid:
            #expect(!expected.isEmpty, "invalid example marks no span")
            let wrongCode = diagnostics.filter { $0.code != testCase.info.code }
            #expect(wrongCode.isEmpty, "unexpected diagnostics:\n\(describe(wrongCode))")
            var remaining = expected
            var unmatched: [Diagnostic] = []
            for diagnostic in diagnostics where diagnostic.code == testCase.info.code {
                if let index = remaining.firstIndex(where: { matches(diagnostic.location, $0) }) {
                    remaining.remove(at: index)
                } else {
                    unmatched.append(diagnostic)
                }
            }
            #expect(unmatched.isEmpty, "diagnostics outside the marked spans \(expected):\n\(describe(unmatched))")
            #expect(remaining.isEmpty, "marked spans without a diagnostic: \(remaining)\ngot:\n\(describe(diagnostics))")
        }
    }

    /// Start line and column must match; the end too when the diagnostic has one.
    static func matches(_ location: Model.SourceLocation, _ span: ExampleTree.Span) -> Bool {
        guard location.path == span.path, location.line == span.line, location.column == span.column else { return false }
        if let endLine = location.endLine, endLine != span.endLine { return false }
        if let endColumn = location.endColumn, endColumn != span.endColumn { return false }
        return true
    }

    /// What `msgc build --environment production --state STATE` reports: the state file's
    /// findings, else the release's.
    static func build(root: URL, state url: URL) throws -> [Diagnostic] {
        let (state, stateDiagnostics) = StateFileParser.load(url, displayPath: RuleExample.stateFilePath)
        guard let state else { return stateDiagnostics }
        let release = Release.build(root: root, environment: .production, release: nil, generatorVersion: "test", state: state)
        return stateDiagnostics + release.outcome(strict: false).diagnostics
    }

    static func diagnostics(for tree: ExampleTree) throws -> [Diagnostic] {
        let root = try tree.write()
        defer { try? FileManager.default.removeItem(at: root) }
        return Compilation.compile(root: root).diagnostics
    }

    static func describe(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { diagnostic in
            let location = diagnostic.location
            let position = [location.line, location.column].compactMap { $0 }.map(String.init).joined(separator: ":")
            let end = [location.endLine, location.endColumn].compactMap { $0 }.map(String.init).joined(separator: ":")
            return "  \(location.path):\(position)\(end.isEmpty ? "" : "-" + end) \(diagnostic.code) \(diagnostic.message)"
        }.joined(separator: "\n")
    }
}

/// The registry's own promises: order, uniqueness, and examples for every rule.
@Suite struct RegistryTests {
    @Test func codesAreSortedAndUnique() {
        let codes = Codes.all.map(\.code)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        let ruleCodes = Registry.rules.map { $0.info.code }
        #expect(ruleCodes == ruleCodes.sorted(), "Registry.rules must be alphabetized by code")
    }

    @Test func namesAreUniqueAndKebabCase() {
        let names = Codes.all.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name)")
        }
    }

    /// Codes whose invalid example a content tree written as text cannot show; their own tests
    /// show them failing.
    static let exemptFromInvalidExample: [String: String] = [
        "CFG001": "an example tree always has msgc.yaml; ContentTreeTests leaves it out",
        "PRJ006": "needs more than 2,000 messages; TooManyUploadsTests builds such a catalog",
        "PRS002": "example files are written as text, which is always UTF-8; MessageSourceParserTests writes the bytes",
    ]

    /// Codes whose valid example would show nothing about them, since the content tree is not
    /// where they look.
    static let exemptFromValidExample: [String: String] = [:]

    @Test func everyCodeHasValidAndInvalidExamples() {
        for info in Codes.all {
            if Self.exemptFromValidExample[info.code] == nil {
                #expect(info.examples.contains { $0.kind == .valid }, "\(info.code) has no valid example")
            }
            if Self.exemptFromInvalidExample[info.code] == nil {
                #expect(info.examples.contains { $0.kind == .invalid }, "\(info.code) has no invalid example")
            }
        }
    }

    /// An exemption that is no longer needed is dropped, so the lists stay true.
    @Test func exemptionsAreStillNeeded() {
        for info in Codes.all {
            if Self.exemptFromInvalidExample[info.code] != nil {
                #expect(!info.examples.contains { $0.kind == .invalid }, "\(info.code) has an invalid example now")
            }
            if Self.exemptFromValidExample[info.code] != nil {
                #expect(!info.examples.contains { $0.kind == .valid }, "\(info.code) has a valid example now")
            }
        }
    }

    @Test func messagesFollowHouseStyle() {
        for info in Codes.all {
            #expect(info.summary.hasSuffix("."), "\(info.code) summary is a sentence")
            #expect(!info.rationale.isEmpty, "\(info.code) has a rationale")
        }
    }
}
