import Bundle
import Compiler
import Diagnostics
import Foundation
import Model

/// `msgc coverage`'s one job: compile the content tree and report which products are ready in
/// which locales; with Apple's state, also the defaults Apple serves that the tree no longer
/// configures as it does (STA009, STA010).
public struct CoverageRun: Sendable {
    public var compilation: Compilation
    /// The report; nil when a file of the tree could not be read (`failures` says which).
    public var report: CoverageReport?
    /// The files msgc could not read: any one stops the report.
    public var failures: [Diagnostic]
    /// With a state file, where Apple's defaults drift from the tree's, settled by the project's
    /// rules and in output order.
    public var drift: [Diagnostic]

    /// Compiles the tree at `root` and reports on it. `environment` is whose identifiers to
    /// match against `state`: by default production with a state file, else sandbox.
    public static func run(root: URL, environment: Environment?, state: StateFile?) -> CoverageRun {
        let compilation = Compilation.compile(root: root)
        var run = CoverageRun(compilation: compilation, report: nil, failures: compilation.ioFailures, drift: [])
        guard run.failures.isEmpty else { return run }
        let report = Coverage.report(
            compilation: compilation, environment: environment ?? (state == nil ? .sandbox : .production), state: state)
        run.report = report
        if let state, let config = compilation.catalog.config {
            var images: [String: [UInt8]] = [:]
            for (path, asset) in compilation.catalog.images { if let bytes = asset.bytes { images[path] = bytes } }
            let plan = ReleasePlan(compilation: compilation)
            let drift = DefaultDrift.diagnostics(
                shipped: plan.shipped, config: config, images: images, environment: report.environment, state: state,
                waiting: plan.waitingDefaults(compilation.catalog))
            run.drift = compilation.policy.settle(drift).sortedForOutput()
        }
        return run
    }
}
