/// What a bundle written by `msgc build` holds, as read back from disk for `msgc diff`.
///
/// `BundleWriter` writes bundles and `BundleReader` reads them back (they are input like any other file a
/// person may have edited or damaged), and this is the plain data between the two.
public struct BundleContents: Sendable {
    public var manifest: Manifest
    /// Every file of the bundle except `manifest.json`, bundle-relative with `/`, sorted bytewise.
    public var files: [String]
    /// The request body of each `uploadMessage` entry, by its `file`.
    public var messageBodies: [String: UploadedMessageBody]
    /// The message identifier each `configureDefault` entry points at, by its `file`.
    public var defaultTargets: [String: String]

    /// `realtime.json`: the facts a realtime answer trusts, which the manifest's copies match;
    /// nil in a bundle written by an earlier msgc, whose digest does not cover them.
    public var realtime: RealtimeFacts?

    public init(
        manifest: Manifest, files: [String], messageBodies: [String: UploadedMessageBody], defaultTargets: [String: String],
        realtime: RealtimeFacts? = nil
    ) {
        self.manifest = manifest
        self.files = files
        self.messageBodies = messageBodies
        self.defaultTargets = defaultTargets
        self.realtime = realtime
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
