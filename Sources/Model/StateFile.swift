/// Apple's review state of an uploaded message or image.
///
/// Apple documents `PENDING`, `APPROVED` and `REJECTED`. Any other value is kept as written,
/// so that a state Apple adds later is shown rather than lost, and is never taken for approval.
public enum ReviewState: Hashable, Sendable, Comparable {
    case approved
    case pending
    case rejected
    case other(String)

    public init(raw: String) {
        switch raw {
        case "APPROVED": self = .approved
        case "PENDING": self = .pending
        case "REJECTED": self = .rejected
        default: self = .other(raw)
        }
    }

    /// The value as Apple writes it.
    public var rawValue: String {
        switch self {
        case .approved: "APPROVED"
        case .pending: "PENDING"
        case .rejected: "REJECTED"
        case .other(let raw): raw
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8) }
}

/// One upload Apple holds, as its Get Message List or Get Image List response lists it.
public struct HeldUpload: Hashable, Sendable {
    /// The identifier in lower case, as msgc writes identifiers.
    public var identifier: String
    public var state: ReviewState
    /// `FULL_SIZE` or `BULLET_POINT` for images, as Apple wrote it; nil for messages.
    public var imageSize: String?
    /// Where the entry is written in the state file.
    public var location: SourceLocation

    public init(identifier: String, state: ReviewState, imageSize: String? = nil, location: SourceLocation) {
        self.identifier = identifier.lowercased()
        self.state = state
        self.imageSize = imageSize
        self.location = location
    }
}

/// What the applier read back from Apple for one environment: every message and image Apple
/// holds, with its review state (docs/formats.md, "The state file").
///
/// Identifiers are compared case-insensitively: msgc writes them in lower case, and Apple may
/// echo them in either case.
public struct StateFile: Hashable, Sendable {
    /// Messages in the file's order; an identifier listed twice keeps its first entry.
    public var messages: [HeldUpload]
    /// Images in the file's order; an identifier listed twice keeps its first entry.
    public var images: [HeldUpload]
    /// The defaults Apple serves, when the state was fetched with `--defaults`; nil for a state
    /// file without them (written by earlier versions, or fetched without `--defaults`).
    public var defaults: [HeldDefault]?
    /// Which environment (`sandbox`, `production`) and app (bundle id) the lists are of, and
    /// when `msgc state fetch` read them (RFC 3339, UTC): nil in a state file written before
    /// msgc recorded them. `fetchedAt` is only reported; nothing is computed from it.
    public var environment: String?
    public var bundleId: String?
    public var fetchedAt: String?

    private var messageIndex: [String: Int]
    private var imageIndex: [String: Int]

    public init(messages: [HeldUpload], images: [HeldUpload], defaults: [HeldDefault]? = nil) {
        self.defaults = defaults
        var messageIndex: [String: Int] = [:]
        var keptMessages: [HeldUpload] = []
        for held in messages where messageIndex[held.identifier] == nil {
            messageIndex[held.identifier] = keptMessages.count
            keptMessages.append(held)
        }
        var imageIndex: [String: Int] = [:]
        var keptImages: [HeldUpload] = []
        for held in images where imageIndex[held.identifier] == nil {
            imageIndex[held.identifier] = keptImages.count
            keptImages.append(held)
        }
        self.messages = keptMessages
        self.images = keptImages
        self.messageIndex = messageIndex
        self.imageIndex = imageIndex
    }

    /// The message Apple holds under `identifier` (any case), if any.
    public func message(_ identifier: String) -> HeldUpload? {
        messageIndex[identifier.lowercased()].map { messages[$0] }
    }

    /// The image Apple holds under `identifier` (any case), if any.
    public func image(_ identifier: String) -> HeldUpload? {
        imageIndex[identifier.lowercased()].map { images[$0] }
    }
}

extension StateFile {
    /// The state file as `msgc state fetch` writes it, in msgc's canonical JSON: Apple's two
    /// list responses, `{"images": {"imageIdentifiers": […]}, "messages": {"messageIdentifiers": […]}}`,
    /// with `environment`, `bundleId` and `fetchedAt` beside them when known,
    /// entries sorted by identifier and members Apple did not send left out, so that the same
    /// answer gives the same bytes on every platform and in every order Apple lists it.
    public var json: JSONValue {
        func items(_ held: [HeldUpload], identifierKey: String, stateKey: String) -> JSONValue {
            .array(held.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }.map { upload in
                var members: [String: JSONValue] = [identifierKey: .string(upload.identifier)]
                if !upload.state.rawValue.isEmpty { members[stateKey] = .string(upload.state.rawValue) }
                if let size = upload.imageSize { members["imageSize"] = .string(size) }
                return .object(members)
            })
        }
        var object: [String: JSONValue] = [
            "messages": .object(["messageIdentifiers": items(messages, identifierKey: "messageIdentifier", stateKey: "messageState")]),
            "images": .object(["imageIdentifiers": items(images, identifierKey: "imageIdentifier", stateKey: "imageState")]),
        ]
        if let defaults { object["defaults"] = HeldDefault.json(defaults) }
        if let environment { object["environment"] = .string(environment) }
        if let bundleId { object["bundleId"] = .string(bundleId) }
        if let fetchedAt { object["fetchedAt"] = .string(fetchedAt) }
        return .object(object)
    }
}
