import Bundle
@testable import Compiler
import Diagnostics
import Foundation
import Model
import TestSupport
import Testing

/// `Release.build` is `msgc build`'s one job: compile, plan, bundle, and every finding kept for
/// the command's one policy.
@Suite struct ReleaseTests {
    static let message = """
        messages:
          - key: stay
            product: com.example.app.yearly
            type: text
            default: true
            header: Stay
            body: Keep reading.

        """

    @Test func aSoundTreeBuildsItsBundle() throws {
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "messages/a.yaml": Self.message])
        let release = Release.build(root: tree.root, environment: .sandbox, release: nil, generatorVersion: "test", state: nil)
        #expect(!release.stoppedEarly)
        #expect(release.failure == nil)
        let bundle = try #require(release.bundle)
        #expect(bundle.messageCount == release.plan.shipped.count)
        #expect(release.outcome(strict: false).status == .success)
    }

    /// An error in a message source stops the build before bundling; the outcome reports it and
    /// fails, with or without `--strict`.
    @Test func anErrorInTheSourcesStopsTheBuild() throws {
        let broken = Self.message.replacingOccurrences(of: "type: text", with: "type: txt")
        let tree = try TemporaryTree(["msgc.yaml": TemporaryTree.config, "messages/a.yaml": broken])
        let release = Release.build(root: tree.root, environment: .sandbox, release: nil, generatorVersion: "test", state: nil)
        #expect(release.stoppedEarly)
        #expect(release.bundle == nil)
        #expect(release.findings == release.compilation.findings)
        for strict in [false, true] {
            let outcome = release.outcome(strict: strict)
            #expect(outcome.status == .findings)
            #expect(outcome.diagnostics.contains { $0.severity == .error && $0.location.path == "messages/a.yaml" })
        }
    }
}
