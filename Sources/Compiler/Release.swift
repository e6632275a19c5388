import Bundle
import Diagnostics
import Foundation
import Lint
import Model

/// `msgc build`'s one job: compile the tree, plan what ships, and build the bundle when the
/// sources allow it.
///
/// Everything found is kept at its rule's default severity, for the command's one
/// `SeverityPolicy` (`outcome(strict:)`); the plan reads the project's settled findings, as
/// every stage after compiling does.
public struct Release: Sendable {
    public var compilation: Compilation
    public var plan: ReleasePlan
    /// The bundle, unless errors in the sources stopped the build or the builder failed.
    public var bundle: UploadBundle?
    /// Why the builder could not build the bundle the plan asked for.
    public var failure: BundleBuilder.Failure?
    /// Whether the build stopped before bundling: a file msgc could not read, or an error
    /// outside translations (`ReleasePlan.blockingErrors`), or no usable msgc.yaml.
    public var stoppedEarly: Bool
    /// The compilation's findings, the bundle's and, with a state file, the cap on what Apple
    /// would hold, at their rules' default severities.
    public var findings: [Diagnostic]

    /// Compiles the tree at `root` and builds its bundle for `environment`. `state` is what
    /// Apple holds there (`msgc build --state`): with it, uploads Apple holds are `present` and
    /// the 2,000 cap counts what Apple would hold after applying.
    public static func build(
        root: URL, environment: Environment, release: String?, generatorVersion: String, state: StateFile?
    ) -> Release {
        let compilation = Compilation.compile(root: root)
        let plan = ReleasePlan(compilation: compilation)
        var built = Release(
            compilation: compilation, plan: plan, bundle: nil, failure: nil, stoppedEarly: true, findings: compilation.findings)
        guard !compilation.hasIOFailure, plan.blockingErrors.isEmpty, let config = compilation.catalog.config else { return built }
        built.stoppedEarly = false
        var images: [String: [UInt8]] = [:]
        for (path, asset) in compilation.catalog.images { if let bytes = asset.bytes { images[path] = bytes } }
        var input = BundleBuilder.Input(
            config: config, messages: plan.shipped, images: images, environment: environment, release: release,
            generatorVersion: generatorVersion, state: state)
        input.notShipped = plan.notShipped
        input.waitingDefaults = plan.waitingDefaults(compilation.catalog)
        let bundle: UploadBundle
        do {
            bundle = try BundleBuilder.build(input)
        } catch {
            built.failure = error
            return built
        }
        built.bundle = bundle
        // With a state file, the cap counts what Apple will hold: the bundle plus what it no longer uses.
        let caps = state == nil ? [] : TooManyUploads.capDiagnostics(
            messages: bundle.messagesHeldAfterApply, images: bundle.imagesHeldAfterApply,
            unreferencedMessages: bundle.manifest.unreferenced?.count { $0.kind == .message } ?? 0,
            unreferencedImages: bundle.manifest.unreferenced?.count { $0.kind == .image } ?? 0)
        built.findings += bundle.diagnostics + caps
        return built
    }

    /// What the build reports and its status: errors in message sources and msgc.yaml fail it,
    /// errors in translations only leave their messages out (`ReleasePlan`), unless `strict`.
    public func outcome(strict: Bool) -> Outcome {
        let sourceLocale = compilation.catalog.config?.sourceLocale.value
        return compilation.policy.strict(strict).outcome(of: findings) { ReleasePlan.blocksBuild($0, sourceLocale: sourceLocale) }
    }
}
