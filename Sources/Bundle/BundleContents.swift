/// What a bundle written by `msgc build` holds, as read back from disk for `msgc diff`.
///
/// The Emitter writes bundles; the Parser reads them back (they are input like any other file a
/// person may have edited or damaged), and this is the plain data between the two.
public struct BundleContents: Sendable {
    public var manifest: BundleManifest
    /// Every file of the bundle except `manifest.json`, bundle-relative with `/`, sorted bytewise.
    public var files: [String]
    /// The request body of each `uploadMessage` entry, by its `file`.
    public var messageBodies: [String: UploadedMessageBody]
    /// The message identifier each `configureDefault` entry points at, by its `file`.
    public var defaultTargets: [String: String]

    public init(manifest: BundleManifest, files: [String], messageBodies: [String: UploadedMessageBody], defaultTargets: [String: String]) {
        self.manifest = manifest
        self.files = files
        self.messageBodies = messageBodies
        self.defaultTargets = defaultTargets
    }
}

/// `manifest.json` of a bundle (docs/formats.md, "The bundle").
public struct BundleManifest: Hashable, Sendable {
    public var formatVersion: Int
    public var bundleId: String
    public var environment: String
    public var release: String?
    public var digest: String
    /// `operations`, then `present`, then `deferred`, each in the manifest's order.
    public var entries: [BundleEntry]

    public init(formatVersion: Int, bundleId: String, environment: String, release: String?, digest: String, entries: [BundleEntry]) {
        self.formatVersion = formatVersion
        self.bundleId = bundleId
        self.environment = environment
        self.release = release
        self.digest = digest
        self.entries = entries
    }
}

/// One entry of a manifest: an upload or a default configuration.
public struct BundleEntry: Hashable, Sendable {
    public enum Operation: String, Sendable, CaseIterable {
        case uploadImage, uploadMessage, configureDefault
    }

    /// Which list of the manifest holds the entry.
    public enum Section: String, Sendable, CaseIterable {
        /// To apply.
        case operations
        /// Already held by Apple (the build had `--state`); its file is in the bundle all the same.
        case present
        /// A production default configuration waiting for Apple's approval of what it points at.
        case deferred
    }

    public var operation: Operation
    public var section: Section
    /// The upload's identifier; nil for `configureDefault`.
    public var identifier: String?
    public var file: String
    public var sha256: String
    /// For messages and default configurations.
    public var product: String?
    public var locale: String?
    public var key: String?
    /// The content-tree file it came from: the image's path for `uploadImage`.
    public var source: String?
    /// `FULL_SIZE` or `BULLET_POINT`, for `uploadImage`.
    public var imageSize: String?

    public init(
        operation: Operation, section: Section, identifier: String?, file: String, sha256: String, product: String? = nil,
        locale: String? = nil, key: String? = nil, source: String? = nil, imageSize: String? = nil
    ) {
        self.operation = operation
        self.section = section
        self.identifier = identifier
        self.file = file
        self.sha256 = sha256
        self.product = product
        self.locale = locale
        self.key = key
        self.source = source
        self.imageSize = imageSize
    }
}

/// An `UploadMessageRequestBody` as a bundle holds it.
public struct UploadedMessageBody: Hashable, Sendable {
    public struct Image: Hashable, Sendable {
        public var identifier: String
        public var altText: String?
        public init(identifier: String, altText: String?) {
            self.identifier = identifier
            self.altText = altText
        }
    }

    public struct Bullet: Hashable, Sendable {
        public var text: String?
        public var imageIdentifier: String?
        public var altText: String?
        public init(text: String?, imageIdentifier: String?, altText: String?) {
            self.text = text
            self.imageIdentifier = imageIdentifier
            self.altText = altText
        }
    }

    public var header: String
    public var body: String
    /// Apple's raw value; nil means `ABOVE_BODY`.
    public var headerPosition: String?
    public var image: Image?
    public var bullets: [Bullet]

    public init(header: String, body: String, headerPosition: String?, image: Image?, bullets: [Bullet]) {
        self.header = header
        self.body = body
        self.headerPosition = headerPosition
        self.image = image
        self.bullets = bullets
    }
}
