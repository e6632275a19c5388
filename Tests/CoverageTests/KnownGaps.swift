import Bundle
import Compiler
import Foundation
import Model
import TestSupport
import Testing

/// The `known-gaps` fixture: two products in four locales with one of each kind of gap.
///
/// | product | locale | message | what is wrong |
/// | --- | --- | --- | --- |
/// | yearly | de-DE | benefits | header translated from an older source text: stale; body repeated with two different targets: ambiguous |
/// | yearly | de-DE | offer | REJECTED at Apple (with the state file) |
/// | yearly | fr-FR | benefits | body only `translated`, below `minimumState: reviewed` |
/// | yearly | fr-FR | offer | header has a target in state `new`: not translated; no body: missing |
/// | yearly | ar-SA | winback (default) | PENDING at Apple (with the state file) |

/// | monthly | de-DE | stay (default) | header of 75 UTF-16 units: fails LEN001 |
///
/// Everything is a file under `Fixtures/known-gaps/content`, translations included
/// (`translations/*.xliff`, XLIFF 1.2), so these tests run the whole front half of msgc.
enum KnownGaps {
    static let golden = Golden("Fixtures")
    static let root = golden.folder.appendingPathComponent("known-gaps/content")

    static let yearly = "com.example.gaps.yearly"
    static let monthly = "com.example.gaps.monthly"

    /// The fixture read from disk, its translations bound, its rules run.
    static func compilation() -> Compilation {
        Compilation.compile(root: root)
    }

    /// What Apple holds in `environment` after the bundle of this fixture was applied once:
    /// every upload APPROVED, except the Arabic default message (PENDING) and the German offer
    /// (REJECTED), plus one message and one image the bundle no longer uses.
    static func state(for compilation: Compilation, environment: Environment) throws -> StateFile {
        let config = try #require(compilation.catalog.config)
        var images: [String: [UInt8]] = [:]
        for (path, asset) in compilation.catalog.images { if let bytes = asset.bytes { images[path] = bytes } }
        let planner = try BundlePlanner(config: config, images: images, environment: environment)
        let here = SourceLocation(path: "state.json")
        var messages: [HeldUpload] = []
        var heldImages: [String: HeldUpload] = [:]
        for localized in ReleasePlan(compilation: compilation).shipped {
            let planned = try planner.message(localized)
            var state = ReviewState.approved
            if localized.locale == "ar-SA" && localized.message.key.value == "winback" { state = .pending }
            if localized.locale == "de-DE" && localized.message.key.value == "offer" { state = .rejected }
            messages.append(HeldUpload(identifier: planned.identifier, state: state, location: here))
            for image in planned.images {
                heldImages[image.identifier] = HeldUpload(identifier: image.identifier, state: .approved, imageSize: image.size.rawValue, location: here)
            }
        }
        messages.append(HeldUpload(identifier: "0b7e6a52-9d41-5c3e-8f20-5a6b7c8d9e0f", state: .approved, location: here))
        var imageList = heldImages.keys.sorted().map { heldImages[$0]! }
        imageList.append(HeldUpload(identifier: "7c9e6679-7425-50de-944b-e07fc1f90ae7", state: .rejected, imageSize: "BULLET_POINT", location: here))
        var state = StateFile(messages: messages, images: imageList)
        state.environment = environment.rawValue
        state.bundleId = config.bundleId.value
        return state
    }

    /// The state file's text, as the applier would save it.
    static func stateJSON(_ state: StateFile) -> String {
        JSONValue.object([
            "environment": .string(state.environment ?? ""),
            "bundleId": .string(state.bundleId ?? ""),
            "messages": ["messageIdentifiers": .array(state.messages.map {
                ["messageIdentifier": .string($0.identifier), "messageState": .string($0.state.rawValue)]
            })],
            "images": ["imageIdentifiers": .array(state.images.map {
                ["imageIdentifier": .string($0.identifier), "imageState": .string($0.state.rawValue), "imageSize": .string($0.imageSize ?? "")]
            })],
        ]).canonicalText
    }
}
