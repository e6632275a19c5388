import Foundation
import Model
import Parser

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
    public var manifest: JSONValue
    /// What the bundle holds, for the summary msgc prints.
    public var imageCount: Int
    public var messageCount: Int
    public var defaultCount: Int

    /// Every file including `manifest.json`, sorted by path.
    public var allFiles: [(path: String, bytes: [UInt8])] {
        var result = files.map { (path: $0.key, bytes: $0.value) }
        result.append((path: "manifest.json", bytes: manifest.canonicalBytes))
        return result.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}

/// Turns the messages that ship into upload requests, identifiers and a manifest.
public enum BundleBuilder {
    public static let formatName = "msgc-bundle"
    public static let formatVersion = 1

    public struct Input: Sendable {
        public var config: ProjectConfig
        /// The localized messages that ship: rules already passed.
        public var messages: [LocalizedMessage]
        /// Image bytes by root-relative path, for every image the messages use.
        public var images: [String: [UInt8]]
        public var environment: Environment
        public var release: String?
        public var generatorVersion: String

        public init(
            config: ProjectConfig, messages: [LocalizedMessage], images: [String: [UInt8]], environment: Environment,
            release: String?, generatorVersion: String
        ) {
            self.config = config
            self.messages = messages
            self.images = images
            self.environment = environment
            self.release = release
            self.generatorVersion = generatorVersion
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidNamespace(String)
        case missingImage(String)

        public var description: String {
            switch self {
            case .invalidNamespace(let text): "namespace '\(text)' is not a UUID"
            case .missingImage(let path): "image '\(path)' has no bytes"
            }
        }
    }

    private struct ImageUpload {
        var path: String
        var size: ImageSize
        var identifier: String
        var sha256: String
        var bytes: [UInt8]
    }

    public static func build(_ input: Input) throws(Failure) -> UploadBundle {
        guard let namespace = UUIDText.parse(input.config.namespace.value) else {
            throw .invalidNamespace(input.config.namespace.value)
        }
        let prefix = "\(input.config.bundleId.value):\(input.environment.rawValue)"
        var files: [String: [UInt8]] = [:]

        // Images: one upload per (file content, size), however many messages use it.
        var imageUploads: [String: ImageUpload] = [:]  // by "SIZE path"
        func imageIdentifier(path: String, size: ImageSize) throws(Failure) -> String {
            let key = "\(size.rawValue) \(path)"
            if let existing = imageUploads[key] { return existing.identifier }
            guard let bytes = input.images[path] else { throw .missingImage(path) }
            let sha = Digest.sha256Hex(bytes)
            let identifier = NameBasedUUID(namespace: namespace, name: "\(prefix):image:\(size.rawValue):\(sha)").description
            imageUploads[key] = ImageUpload(path: path, size: size, identifier: identifier, sha256: sha, bytes: bytes)
            return identifier
        }

        var messageOperations: [JSONValue] = []
        var defaultOperations: [JSONValue] = []
        let sorted = input.messages.sorted {
            ($0.message.product.value, $0.locale, $0.message.key.value) < ($1.message.product.value, $1.locale, $1.message.key.value)
        }
        for localized in sorted {
            let message = localized.message
            var body: [String: JSONValue] = [:]
            var requires: [String] = []
            body["header"] = .string(nfc(localized.text(.header)?.value ?? ""))
            body["body"] = .string(nfc(localized.text(.body)?.value ?? ""))
            if let image = message.image, let file = image.file?.value {
                let identifier = try imageIdentifier(path: file, size: .fullSize)
                requires.append(identifier)
                var imageObject: [String: JSONValue] = ["imageIdentifier": .string(identifier)]
                if let alt = localized.text(.imageAlt) { imageObject["altText"] = .string(nfc(alt.value)) }
                body["image"] = .object(imageObject)
            }
            if let position = message.headerPosition?.value, position != .aboveBody {
                body["headerPosition"] = .string(position.appleValue)
            }
            if !message.bullets.isEmpty {
                var bullets: [JSONValue] = []
                for (index, bullet) in message.bullets.enumerated() {
                    var object: [String: JSONValue] = [:]
                    if let text = localized.text(.bulletText(index)) { object["text"] = .string(nfc(text.value)) }
                    if let alt = localized.text(.bulletAlt(index)) { object["altText"] = .string(nfc(alt.value)) }
                    if let imagePath = bullet.image?.value {
                        let identifier = try imageIdentifier(path: imagePath, size: .bulletPoint)
                        requires.append(identifier)
                        object["imageIdentifier"] = .string(identifier)
                    }
                    bullets.append(.object(object))
                }
                body["bulletPoints"] = .array(bullets)
            }
            let bodyBytes = JSONValue.object(body).canonicalBytes
            let bodySHA = Digest.sha256Hex(bodyBytes)
            let contentVersion = String(bodySHA.prefix(16))
            let name = "\(prefix):\(message.product.value):\(localized.locale):\(message.key.value):\(contentVersion)"
            let identifier = NameBasedUUID(namespace: namespace, name: name).description
            let file = "messages/\(identifier).json"
            files[file] = bodyBytes
            let imageRequirements = uniqueSorted(requires)
            var operation = origin(of: localized)
            operation["op"] = "uploadMessage"
            operation["method"] = "PUT"
            operation["path"] = .string("/inApps/v1/messaging/message/\(identifier)")
            operation["identifier"] = .string(identifier)
            operation["file"] = .string(file)
            operation["sha256"] = .string(bodySHA)
            if !imageRequirements.isEmpty { operation["requires"] = .array(imageRequirements.map { .string($0) }) }
            messageOperations.append(.object(operation))

            if message.isDefaultMessage {
                let defaultFile = "defaults/\(message.product.value)/\(localized.locale).json"
                let defaultBytes = JSONValue.object(["messageIdentifier": .string(identifier)]).canonicalBytes
                files[defaultFile] = defaultBytes
                var configure = origin(of: localized)
                configure["op"] = "configureDefault"
                configure["method"] = "PUT"
                configure["path"] = .string("/inApps/v1/messaging/default/\(message.product.value)/\(localized.locale)")
                configure["file"] = .string(defaultFile)
                configure["sha256"] = .string(Digest.sha256Hex(defaultBytes))
                configure["requires"] = .array(uniqueSorted([identifier] + imageRequirements).map { .string($0) })
                defaultOperations.append(.object(configure))
            }
        }

        var imageOperations: [JSONValue] = []
        let uploads = imageUploads.values.sorted { ($0.path, $0.size) < ($1.path, $1.size) }
        for upload in uploads {
            let file = "images/\(upload.identifier).png"
            files[file] = upload.bytes
            imageOperations.append([
                "op": "uploadImage",
                "method": "PUT",
                "path": .string("/inApps/v1/messaging/image/\(upload.identifier)"),
                "query": ["imageSize": .string(upload.size.rawValue)],
                "identifier": .string(upload.identifier),
                "file": .string(file),
                "sha256": .string(upload.sha256),
                "source": .string(upload.path),
            ])
        }

        let manifest: JSONValue = [
            "format": .string(formatName),
            "formatVersion": .integer(formatVersion),
            "generator": ["name": "msgc", "version": .string(input.generatorVersion)],
            "bundleId": .string(input.config.bundleId.value),
            "environment": .string(input.environment.rawValue),
            "release": input.release.map { .string($0) } ?? .null,
            "digest": .string(digest(of: files)),
            "operations": .array(imageOperations + messageOperations + defaultOperations),
        ]
        return UploadBundle(
            files: files, manifest: manifest, imageCount: imageOperations.count, messageCount: messageOperations.count,
            defaultCount: defaultOperations.count)
    }

    /// `sha256:` and the SHA-256 of `sha256sum`-style lines for every file, sorted by path.
    public static func digest(of files: [String: [UInt8]]) -> String {
        var text = ""
        for path in files.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            text += "\(Digest.sha256Hex(files[path]!))  \(path)\n"
        }
        return "sha256:" + Digest.sha256Hex(Array(text.utf8))
    }

    private static func origin(of localized: LocalizedMessage) -> [String: JSONValue] {
        var result: [String: JSONValue] = [
            "product": .string(localized.message.product.value),
            "locale": .string(localized.locale),
            "key": .string(localized.message.key.value),
            "source": .string(localized.message.location.path),
        ]
        if let translation = localized.translationPath { result["translation"] = .string(translation) }
        return result
    }

    private static func uniqueSorted(_ values: [String]) -> [String] {
        Array(Set(values)).sorted()
    }

    /// Text reaches the bundle in Unicode Normalization Form C and is otherwise unchanged.
    static func nfc(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }
}
