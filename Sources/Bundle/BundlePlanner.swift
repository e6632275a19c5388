import Foundation
import Model

/// An image upload: one file at one size, however many messages use it.
public struct PlannedImage: Hashable, Sendable {
    /// Root-relative path of the PNG in the content tree.
    public var path: String
    public var size: ImageSize
    /// UUIDv5 of `{bundleId}:{environment}:image:{size}:{sha256}`, lower case.
    public var identifier: String
    /// Lower-case hex SHA-256 of the file's bytes.
    public var sha256: String
}

/// A message upload: the request body Apple takes, and the identifier derived from it.
public struct PlannedMessage: Sendable {
    public var localized: LocalizedMessage
    /// UUIDv5 of `{bundleId}:{environment}:{product}:{locale}:{key}:{contentVersion}`, lower case.
    public var identifier: String
    /// The `UploadMessageRequestBody`, canonical JSON.
    public var body: [UInt8]
    /// Lower-case hex SHA-256 of `body`; its first 16 digits are the content version.
    public var bodySHA256: String
    /// The images the message uses: its full-size image first, then bullet images in order.
    public var images: [PlannedImage]

    /// `messages/UUID.json`.
    public var file: String { "messages/\(identifier).json" }

    /// The identifiers of the images it uses, unique and sorted: what its upload `requires`.
    public var imageIdentifiers: [String] { Array(Set(images.map(\.identifier))).sorted() }

    /// What a default configuration that points at this message `requires`: the message and its images.
    public var defaultRequirements: [String] { Array(Set([identifier] + images.map(\.identifier))).sorted() }
}

/// Computes identifiers and request bodies for localized messages, the one place that does.
///
/// The bundle writer builds bundles with it, and Coverage uses it to find a message's identifiers
/// in a state file; both must agree byte for byte, so neither computes identifiers by itself.
public struct BundlePlanner: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidNamespace(String)
        case missingImage(String)
        /// A message in a pseudo locale (`en-XA`, `ar-XB`, `en-x-pseudo`), which must never reach Apple.
        case pseudoLocale(product: String, key: String, locale: String)

        public var description: String {
            switch self {
            case .invalidNamespace(let text): "namespace '\(text)' is not a UUID"
            case .missingImage(let path): "image '\(path)' has no bytes"
            case .pseudoLocale(let product, let key, let locale):
                "\(product)/\(key) is in the pseudo locale '\(locale)', which never enters a bundle"
            }
        }
    }

    public let environment: Environment
    private let namespace: [UInt8]
    /// `{bundleId}:{environment}`, the start of every identifier's name.
    private let prefix: String
    /// SHA-256 of each image's bytes, computed once.
    private let imageSHA256: [String: String]

    /// A planner for `config`'s project in `environment`. `images` holds the bytes of every
    /// image (root-relative path) that the messages to plan may use.
    public init(config: ProjectConfig, images: [String: [UInt8]], environment: Environment) throws(Failure) {
        guard let namespace = UUIDText.parse(config.namespace.value) else { throw .invalidNamespace(config.namespace.value) }
        self.namespace = namespace
        self.environment = environment
        self.prefix = "\(config.bundleId.value):\(environment.rawValue)"
        self.imageSHA256 = images.mapValues { Digest.sha256Hex($0) }
    }

    /// The upload of the image at `path` (root-relative) at `size`.
    public func image(path: String, size: ImageSize) throws(Failure) -> PlannedImage {
        guard let sha = imageSHA256[path] else { throw .missingImage(path) }
        let identifier = NameBasedUUID(namespace: namespace, name: "\(prefix):image:\(size.rawValue):\(sha)").description
        return PlannedImage(path: path, size: size, identifier: identifier, sha256: sha)
    }

    /// The upload of one localized message: its request body and identifier, and its images.
    ///
    /// A pseudo locale is refused here, the one place every bundle's messages pass through, so
    /// that no caller can ship one by mistake: Apple would refuse its default configuration
    /// (`InvalidLocaleError`) and, worse, could show its text to subscribers.
    public func message(_ localized: LocalizedMessage) throws(Failure) -> PlannedMessage {
        let message = localized.message
        guard !PseudoLocale.isPseudo(localized.locale) else {
            throw .pseudoLocale(product: message.product.value, key: message.key.value, locale: localized.locale)
        }
        var body: [String: JSONValue] = [:]
        var images: [PlannedImage] = []
        body["header"] = .string(Self.nfc(localized.text(.header)?.value ?? ""))
        body["body"] = .string(Self.nfc(localized.text(.body)?.value ?? ""))
        if let image = message.image, let file = image.file?.value {
            let planned = try self.image(path: file, size: .fullSize)
            images.append(planned)
            var imageObject: [String: JSONValue] = ["imageIdentifier": .string(planned.identifier)]
            if let alt = localized.text(.imageAlt) { imageObject["altText"] = .string(Self.nfc(alt.value)) }
            body["image"] = .object(imageObject)
        }
        if let position = message.headerPosition?.value, position != .aboveBody {
            body["headerPosition"] = .string(position.appleValue)
        }
        if !message.bullets.isEmpty {
            var bullets: [JSONValue] = []
            for (index, bullet) in message.bullets.enumerated() {
                var object: [String: JSONValue] = [:]
                if let text = localized.text(.bulletText(index)) { object["text"] = .string(Self.nfc(text.value)) }
                if let alt = localized.text(.bulletAlt(index)) { object["altText"] = .string(Self.nfc(alt.value)) }
                if let imagePath = bullet.image?.value {
                    let planned = try self.image(path: imagePath, size: .bulletPoint)
                    images.append(planned)
                    object["imageIdentifier"] = .string(planned.identifier)
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
        return PlannedMessage(localized: localized, identifier: identifier, body: bodyBytes, bodySHA256: bodySHA, images: images)
    }

    /// Text reaches the bundle in Unicode Normalization Form C and is otherwise unchanged.
    static func nfc(_ text: String) -> String {
        text.nfcNormalized
    }
}
