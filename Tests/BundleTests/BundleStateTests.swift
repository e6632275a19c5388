@testable import Bundle
import Diagnostics
import Model
import Testing

/// `msgc build --state`: what Apple holds moves to `present`, what it holds and the bundle no
/// longer uses is `unreferenced`, and production defaults wait for approval in `deferred`.
@Suite struct BundleStateTests {
    static let here = SourceLocation(path: "state.json")

    /// Every upload of the sample input, planned for `environment`.
    static func planned(_ environment: Environment) throws -> [PlannedMessage] {
        let input = BundleTests.input(environment)
        let planner = try BundlePlanner(config: input.config, images: input.images, environment: environment)
        return try input.messages.map { try planner.message($0) }
    }

    /// A state holding every upload of the sample in `state`, except those in `overrides`.
    static func state(_ environment: Environment, _ state: ReviewState, overrides: [String: ReviewState] = [:], extra: [HeldUpload] = []) throws -> StateFile {
        let messages = try planned(environment)
        var images: [String: HeldUpload] = [:]
        for message in messages {
            for image in message.images {
                images[image.identifier] = HeldUpload(
                    identifier: image.identifier.uppercased(), state: overrides[image.identifier] ?? state, imageSize: image.size.rawValue, location: here)
            }
        }
        return StateFile(
            messages: messages.map { HeldUpload(identifier: $0.identifier, state: overrides[$0.identifier] ?? state, location: here) }
                + extra.filter { $0.imageSize == nil },
            images: images.keys.sorted().map { images[$0]! } + extra.filter { $0.imageSize != nil })
    }

    static func build(_ environment: Environment, state: StateFile?) throws -> (UploadBundle, [String: JSONValue]) {
        var input = BundleTests.input(environment)
        input.state = state
        let bundle = try BundleBuilder.build(input)
        return (bundle, try #require(bundle.manifest.json.object))
    }

    static func ops(_ value: JSONValue?) -> [String] {
        (value?.array ?? []).compactMap { if case .string(let op) = $0.object?["op"] { op } else { nil } }
    }

    @Test func withoutStateTheManifestHasNoStateSections() throws {
        let (_, manifest) = try Self.build(.production, state: nil)
        #expect(manifest["present"] == nil && manifest["deferred"] == nil && manifest["unreferenced"] == nil)
    }

    @Test func uploadsAppleHoldsArePresentNotOperations() throws {
        let (bundle, manifest) = try Self.build(.production, state: try Self.state(.production, .approved))
        #expect(Self.ops(manifest["operations"]) == ["configureDefault", "configureDefault"])
        #expect(Self.ops(manifest["present"]) == ["uploadImage", "uploadImage", "uploadMessage", "uploadMessage"])
        #expect(manifest["deferred"] == .array([]))
        #expect(manifest["unreferenced"] == .array([]))
        // Same shape as an operation, plus Apple's state; the file stays in the bundle.
        let image = try #require(manifest["present"]?.array?.first?.object)
        #expect(Set(image.keys) == ["op", "method", "path", "query", "identifier", "file", "sha256", "source", "state"])
        #expect(image["state"] == "APPROVED")
        guard case .string(let file) = image["file"] else { Issue.record("no file"); return }
        #expect(bundle.files[file] != nil)
        #expect(bundle.presentCount == 4)
        #expect(bundle.diagnostics.isEmpty)
    }

    @Test func identifiersAppleHoldsThatTheBundleDoesNotUseAreUnreferenced() throws {
        let extra = [
            HeldUpload(identifier: "FFFFFFFF-0000-5000-8000-000000000001", state: .approved, location: Self.here),
            HeldUpload(identifier: "00000000-0000-5000-8000-000000000002", state: .other("IN_REVIEW"), imageSize: "FULL_SIZE", location: Self.here),
        ]
        let (bundle, manifest) = try Self.build(.sandbox, state: try Self.state(.sandbox, .approved, extra: extra))
        #expect(manifest["unreferenced"] == .array([
            ["kind": "image", "identifier": "00000000-0000-5000-8000-000000000002", "state": "IN_REVIEW", "imageSize": "FULL_SIZE",
             "path": "/inApps/v1/messaging/image/00000000-0000-5000-8000-000000000002"],
            ["kind": "message", "identifier": "ffffffff-0000-5000-8000-000000000001", "state": "APPROVED",
             "path": "/inApps/v1/messaging/message/ffffffff-0000-5000-8000-000000000001"],
        ]))
        #expect(bundle.unreferencedCount == 2)
        #expect(bundle.messagesHeldAfterApply == 3)
        #expect(bundle.imagesHeldAfterApply == 3)
    }

    @Test func productionNeverConfiguresADefaultThatPointsAtUnapprovedContent() throws {
        let messages = try Self.planned(.production)
        let arabic = try #require(messages.first { $0.localized.locale == "ar-SA" })
        let english = try #require(messages.first { $0.localized.locale == "en-US" })
        for overrides in [
            [arabic.identifier: ReviewState.pending],
            [arabic.identifier: .rejected],
            [arabic.images[0].identifier: .pending],  // shared by both locales
            [english.identifier: .other("IN_REVIEW")],
        ] {
            let state = try Self.state(.production, .approved, overrides: overrides)
            let (bundle, manifest) = try Self.build(.production, state: state)
            for operation in manifest["operations"]?.array ?? [] where operation.object?["op"] == "configureDefault" {
                for case .string(let required) in operation.object?["requires"]?.array ?? [] {
                    let held = state.message(required) ?? state.image(required)
                    #expect(held?.state == .approved, "configureDefault requires \(required), which is \(held?.state.rawValue ?? "not uploaded")")
                }
            }
            #expect(bundle.deferredCount >= 1)
            #expect(bundle.diagnostics.contains { $0.code == "STA003" && $0.severity == .warning })
        }
    }

    @Test func contentNotUploadedYetDefersTheProductionDefault() throws {
        let (bundle, manifest) = try Self.build(.production, state: StateFile(messages: [], images: []))
        #expect(Self.ops(manifest["operations"]) == ["uploadImage", "uploadImage", "uploadMessage", "uploadMessage"])
        let deferred = try #require(manifest["deferred"]?.array)
        #expect(deferred.count == 2)
        let first = try #require(deferred.first?.object)
        #expect(first["op"] == "configureDefault")
        guard case .string(let reason) = first["reason"] else { Issue.record("no reason"); return }
        #expect(reason.contains("is not uploaded yet"))
        #expect(bundle.defaultCount == 2)
        // The configuration's file stays, so the applier can apply it once approved.
        guard case .string(let file) = first["file"] else { Issue.record("no file"); return }
        #expect(bundle.files[file] != nil)
    }

    @Test func sandboxIgnoresReviewStateForDefaults() throws {
        let (bundle, manifest) = try Self.build(.sandbox, state: try Self.state(.sandbox, .pending))
        #expect(Self.ops(manifest["operations"]) == ["configureDefault", "configureDefault"])
        #expect(manifest["deferred"] == .array([]))
        #expect(bundle.diagnostics.isEmpty)
    }

    @Test func aRejectedUploadIsAWarningInEitherEnvironment() throws {
        for environment in Environment.allCases {
            let messages = try Self.planned(environment)
            let arabic = try #require(messages.first { $0.localized.locale == "ar-SA" })
            let (bundle, manifest) = try Self.build(environment, state: try Self.state(environment, .approved, overrides: [arabic.identifier: .rejected]))
            let rejected = bundle.diagnostics.filter { $0.code == "STA002" }
            #expect(rejected.count == 1)
            #expect(rejected.first?.subject?.locale == "ar-SA")
            #expect(rejected.first?.severity == .warning)
            // Still present: Apple holds it, whatever its state.
            #expect(manifest["present"]?.array?.contains { $0.object?["identifier"] == .string(arabic.identifier) } == true)
        }
    }

    @Test func identifiersMatchWhateverTheirCase() throws {
        let messages = try Self.planned(.production)
        let upper = StateFile(
            messages: messages.map { HeldUpload(identifier: $0.identifier.uppercased(), state: .approved, location: Self.here) },
            images: [])
        #expect(upper.message(messages[0].identifier)?.state == .approved)
        #expect(upper.message(messages[0].identifier.uppercased()) != nil)
    }
}
