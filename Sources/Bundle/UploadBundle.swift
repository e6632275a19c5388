import Diagnostics
import Foundation
import Model

/// The environment a bundle is for; part of every identifier.
public enum Environment: String, CaseIterable, Sendable {
    case sandbox
    case production
}

/// Apple's `imageSize` values.
public enum ImageSize: String, Sendable, Comparable {
    case fullSize = "FULL_SIZE"
    case bulletPoint = "BULLET_POINT"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A complete bundle in memory: every file's bytes by bundle-relative path, manifest included.
public struct UploadBundle: Sendable {
    /// Files other than `manifest.json`, by path.
    public var files: [String: [UInt8]]
    public var manifest: Manifest
    /// What the bundle holds, for the summary msgc prints: uploads and configurations in
    /// `operations`, whether or not Apple already holds them.
    public var imageCount: Int
    public var messageCount: Int
    public var defaultCount: Int
    /// With a state file: uploads Apple already holds (`present`), production default
    /// configurations that wait for approval (`deferred`), and identifiers Apple holds that
    /// the bundle no longer uses (`unreferenced`).
    public var presentCount: Int = 0
    public var deferredCount: Int = 0
    public var unreferencedCount: Int = 0
    /// What Apple will hold once the bundle is applied, for the 2,000 caps: everything the
    /// bundle ships plus what Apple holds that the bundle does not use.
    public var messagesHeldAfterApply: Int = 0
    public var imagesHeldAfterApply: Int = 0
    /// Findings from comparing the bundle with the state file (rejected uploads, deferrals).
    public var diagnostics: [Diagnostic] = []

    /// The manifest's `digest`: `sha256:` and the hash of the bundle's file list.
    public var digest: String { manifest.digest }

    /// Every file including `manifest.json`, sorted by path.
    public var allFiles: [(path: String, bytes: [UInt8])] {
        var result = files.map { (path: $0.key, bytes: $0.value) }
        result.append((path: "manifest.json", bytes: manifest.json.canonicalBytes))
        return result.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}

/// Turns the messages that ship into upload requests, identifiers and a manifest.
///
/// With a state file (what Apple holds, read back by the applier), uploads Apple already
/// holds move from `operations` to `present` (their files stay, so the bundle is complete
/// whatever Apple holds), identifiers Apple holds that the bundle does not use are listed
/// under `unreferenced`, and in production every default configuration whose message or
/// images are not APPROVED moves to `deferred` with the reason.
public enum BundleBuilder {
    public struct Input: Sendable {
        public var config: ProjectConfig
        /// The localized messages that ship: rules already passed.
        public var messages: [LocalizedMessage]
        /// Image bytes by root-relative path, for every image the messages use.
        public var images: [String: [UInt8]]
        public var environment: Environment
        public var release: String?
        public var generatorVersion: String
        /// What Apple holds in `environment`, when the build was given `--state`.
        public var state: StateFile?
        /// What the sources configure and the bundle does not ship (the manifest's `notShipped`).
        public var notShipped: [Manifest.NotShipped] = []
        /// The default messages among `notShipped` that wait for translation, by `PRODUCT/LOCALE`.
        public var waitingDefaults: [String: Manifest.NotShipped] = [:]

        public init(
            config: ProjectConfig, messages: [LocalizedMessage], images: [String: [UInt8]], environment: Environment,
            release: String?, generatorVersion: String, state: StateFile? = nil
        ) {
            self.config = config
            self.messages = messages
            self.images = images
            self.environment = environment
            self.release = release
            self.generatorVersion = generatorVersion
            self.state = state
        }
    }

    public typealias Failure = BundlePlanner.Failure

    public static func build(_ input: Input) throws(Failure) -> UploadBundle {
        let planner = try BundlePlanner(config: input.config, images: input.images, environment: input.environment)
        let state = input.state
        var files: [String: [UInt8]] = [:]

        let sorted = input.messages.sorted {
            ($0.message.product.value, $0.locale, $0.message.key.value) < ($1.message.product.value, $1.locale, $1.message.key.value)
        }
        var planned: [PlannedMessage] = []
        for localized in sorted { planned.append(try planner.message(localized)) }

        // Images: one upload per (file content, size), however many messages use it; the
        // first message (in output order) that uses an image is where a finding about it points.
        var imageUploads: [String: PlannedImage] = [:]
        var firstUser: [String: PlannedMessage] = [:]
        for message in planned {
            for image in message.images where imageUploads[image.identifier] == nil {
                imageUploads[image.identifier] = image
                firstUser[image.identifier] = message
            }
        }

        var diagnostics: [Diagnostic] = []
        var operations: [Manifest.Entry] = []
        var present: [Manifest.Entry] = []
        var deferred: [Manifest.Entry] = []

        for upload in imageUploads.values.sorted(by: { ($0.path, $0.size, $0.identifier) < ($1.path, $1.size, $1.identifier) }) {
            let file = "images/\(upload.identifier).png"
            files[file] = input.images[upload.path]
            var entry = Manifest.Entry(
                operation: .uploadImage, identifier: upload.identifier, file: file, sha256: upload.sha256, imageSize: upload.size,
                source: upload.path)
            if let held = state?.image(upload.identifier) {
                entry.state = held.state.rawValue
                present.append(entry)
                // No size in Apple's list (an upload before API 1.4) is no contradiction.
                if let heldSize = held.imageSize, heldSize != upload.size.rawValue, let user = firstUser[upload.identifier] {
                    diagnostics.append(StateDiagnostics.imageSizeContradiction.diagnose(
                        "Apple lists image '\(upload.path)' (\(upload.identifier)) as \(heldSize), but this bundle uploads it as \(upload.size.rawValue)",
                        at: user.localized.message.image?.file?.location ?? user.localized.message.location,
                        fixIts: [FixIt("check how this image reached Apple; changed bytes give it a new identifier, which is uploaded with the size msgc chooses")]))
                }
                if held.state == .rejected, let user = firstUser[upload.identifier] {
                    diagnostics.append(StateDiagnostics.rejectedAtApple.diagnose(
                        "Apple has rejected image '\(upload.path)' (\(upload.size.rawValue), \(upload.identifier)), which this bundle still uses",
                        at: user.localized.message.image?.file?.location ?? user.localized.message.location,
                        fixIts: [FixIt("change the image; changed bytes give it a new identifier, which can be uploaded and reviewed again")]))
                }
            } else {
                operations.append(entry)
            }
        }

        var defaultOperations: [Manifest.Entry] = []
        var configuredDefaults: [DefaultDrift.Configured] = []
        for message in planned {
            let localized = message.localized
            files[message.file] = message.body
            var entry = origin(of: localized, operation: .uploadMessage, identifier: message.identifier, file: message.file, sha256: message.bodySHA256)
            entry.requires = message.imageIdentifiers
            entry.messageType = localized.message.type.value
            if localized.message.type.value == .switchPlan {
                entry.switchTo = localized.message.switchTo?.value
                entry.billingPlanType = localized.message.billingPlanType?.value.appleValue
            }
            if localized.message.type.value == .promotionalOffer { entry.offer = localized.message.offer?.value }
            if let held = state?.message(message.identifier) {
                entry.state = held.state.rawValue
                present.append(entry)
                if held.state == .rejected {
                    diagnostics.append(StateDiagnostics.rejectedAtApple.diagnose(
                        "Apple has rejected message '\(localized.message.key.value)' in \(localized.locale) (\(message.identifier)), which this bundle still uses",
                        at: localized.message.location,
                        fixIts: [FixIt("change the message's text in \(localized.locale); changed content gives it a new identifier, which can be uploaded and reviewed again")],
                        subject: localized.subject))
                }
            } else {
                operations.append(entry)
            }

            guard localized.message.isDefaultMessage else { continue }
            configuredDefaults.append(DefaultDrift.Configured(localized: localized, identifier: message.identifier))
            let defaultFile = "defaults/\(localized.message.product.value)/\(localized.locale).json"
            let defaultBytes = JSONValue.object(["messageIdentifier": .string(message.identifier)]).canonicalBytes
            files[defaultFile] = defaultBytes
            var configure = origin(of: localized, operation: .configureDefault, identifier: nil, file: defaultFile, sha256: Digest.sha256Hex(defaultBytes))
            configure.requires = message.defaultRequirements
            if input.environment == .production, let state, let reason = unapproved(message, in: state) {
                configure.reason = reason
                deferred.append(configure)
                diagnostics.append(StateDiagnostics.defaultDeferred.diagnose(
                    "the production default configuration of \(localized.message.product.value) in \(localized.locale) is deferred: \(reason)",
                    at: localized.message.location,
                    fixIts: [FixIt("apply this bundle, wait for Apple's review, then fetch the state and build again")],
                    subject: localized.subject))
            } else {
                defaultOperations.append(configure)
            }
        }

        if let state { diagnostics += DefaultDrift.diagnostics(
            configuredDefaults, config: input.config, state: state, waiting: input.waitingDefaults) }

        var manifest = Manifest(
            generatorVersion: input.generatorVersion, bundleId: input.config.bundleId.value, environment: input.environment,
            release: input.release, digest: "", operations: operations + defaultOperations)
        manifest.notShipped = input.notShipped.sorted()
        manifest.products = input.config.products.map { product in
            Manifest.Product(
                id: product.id.value, group: product.group?.value, choice: product.realtime?.mode,
                realtime: product.realtime?.arms.map { ($0.message.value, $0.weight) } ?? [])
        }
        var unreferencedMessages = 0
        var unreferencedImages = 0
        if let state {
            var unreferenced: [Manifest.Unreferenced] = []
            let usedMessages = Set(planned.map(\.identifier))
            let usedImages = Set(imageUploads.keys)
            for held in state.images where !usedImages.contains(held.identifier) {
                unreferencedImages += 1
                unreferenced.append(.init(kind: .image, identifier: held.identifier, state: held.state.rawValue, imageSize: held.imageSize))
            }
            for held in state.messages where !usedMessages.contains(held.identifier) {
                unreferencedMessages += 1
                unreferenced.append(.init(kind: .message, identifier: held.identifier, state: held.state.rawValue))
            }
            unreferenced.sort { ($0.identifier + " " + $0.kind.rawValue) < ($1.identifier + " " + $1.kind.rawValue) }
            manifest.present = present
            manifest.deferred = deferred
            manifest.unreferenced = unreferenced
        }
        // What a realtime answer trusts, in a file the digest covers (the manifest keeps copies).
        if let facts = RealtimeFacts(manifest: manifest) { files[RealtimeFacts.file] = facts.json.canonicalBytes }
        manifest.digest = digest(of: files)
        var bundle = UploadBundle(
            files: files, manifest: manifest, imageCount: imageUploads.count, messageCount: planned.count,
            defaultCount: defaultOperations.count + deferred.count)
        bundle.presentCount = present.count
        bundle.deferredCount = deferred.count
        bundle.unreferencedCount = unreferencedMessages + unreferencedImages
        bundle.messagesHeldAfterApply = planned.count + unreferencedMessages
        bundle.imagesHeldAfterApply = imageUploads.count + unreferencedImages
        bundle.diagnostics = diagnostics.sortedForOutput()
        return bundle
    }

    /// Why a default configuration that points at `message` cannot be applied yet, or nil when
    /// its message and every image it uses are APPROVED. Content Apple does not hold yet will
    /// be PENDING once uploaded, so it is not approved either.
    static func unapproved(_ message: PlannedMessage, in state: StateFile) -> String? {
        var reasons: [String] = []
        func describe(_ what: String, _ identifier: String, _ held: HeldUpload?) {
            guard let held else { reasons.append("\(what) \(identifier) is not uploaded yet"); return }
            if held.state != .approved { reasons.append("\(what) \(identifier) is \(held.state.rawValue) at Apple") }
        }
        describe("message", message.identifier, state.message(message.identifier))
        var seen = Set<String>()
        for image in message.images where seen.insert(image.identifier).inserted {
            describe("image '\(image.path)'", image.identifier, state.image(image.identifier))
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// `sha256:` and the SHA-256 of `sha256sum`-style lines for every file, sorted by path.
    public static func digest(of files: [String: [UInt8]]) -> String {
        digest(ofSHA256: files.mapValues { Digest.sha256Hex($0) })
    }

    /// The same digest from each file's lower-case hex SHA-256, by path.
    public static func digest(ofSHA256 hashes: [String: String]) -> String {
        var text = ""
        for path in hashes.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            text += "\(hashes[path]!)  \(path)\n"
        }
        return "sha256:" + Digest.sha256Hex(Array(text.utf8))
    }

    private static func origin(
        of localized: LocalizedMessage, operation: Manifest.Entry.Operation, identifier: String?, file: String, sha256: String
    ) -> Manifest.Entry {
        Manifest.Entry(
            operation: operation, identifier: identifier, file: file, sha256: sha256, product: localized.message.product.value,
            locale: localized.locale, key: localized.message.key.value, source: localized.message.location.path,
            translation: localized.translationPath)
    }
}
