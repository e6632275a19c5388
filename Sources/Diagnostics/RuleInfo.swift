import Model

/// Everything msgc says about one diagnostic code: the single source for tests,
/// `msgc explain`, the SARIF rules table and the docs.
public struct RuleInfo: Hashable, Sendable {
    /// Area prefix plus number, never reused: `LEN001`.
    public var code: String
    /// Names the problem found, in kebab case: `field-too-long`.
    public var name: String
    public var severity: Severity
    /// One line: what the rule finds.
    public var summary: String
    /// Why it matters.
    public var rationale: String
    /// Examples that must not and must trigger the rule; they are also its tests.
    public var examples: [RuleExample]
    /// Whether `rules:` in msgc.yaml may turn the code off or make it a warning. Every warning
    /// may be turned off or raised; an error only where it is msgc's judgement rather than
    /// something Apple refuses or msgc cannot read past.
    public var mayBeLowered: Bool

    public init(
        code: String, name: String, severity: Severity, summary: String, rationale: String, examples: [RuleExample] = [],
        mayBeLowered: Bool? = nil
    ) {
        self.code = code
        self.name = name
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.examples = examples
        self.mayBeLowered = mayBeLowered ?? (severity != .error)
    }
}

/// A small content-tree change that shows a rule at work.
///
/// `files` maps root-relative paths to file text. Message examples are usually written as
/// the fields of one message (`path` is `messages/example.yaml`): the example harness merges
/// them over a valid base message. `⟦` and `⟧` mark the span an invalid example's diagnostic
/// must cover; they are removed before the text is parsed. Image files cannot be written as
/// text, so an example describes the ones it needs in `images` and the harness makes them.
public struct RuleExample: Hashable, Sendable {
    public enum Kind: String, Sendable { case valid, invalid }

    public var kind: Kind
    /// The file the example is written in, as `msgc explain` shows it.
    public var path: String
    public var text: String
    /// Further files of the example tree (translations, config), by root-relative path.
    public var extraFiles: [String: String]
    /// Whether `text` is a fragment of message fields to merge into the base message.
    public var isMessageFragment: Bool
    /// Image files of the example tree, by root-relative path, described rather than given.
    public var images: [String: ExampleImage]
    /// Files of the example tree that text cannot show (links, oversized files), described.
    public var specialFiles: [String: ExampleSpecialFile]
    /// Whether `text` is not in the content tree but the file given to `msgc build --state`
    /// (the build is for production).
    public var isStateFile: Bool

    public init(
        kind: Kind, path: String, text: String, extraFiles: [String: String] = [:], images: [String: ExampleImage] = [:],
        specialFiles: [String: ExampleSpecialFile] = [:], isMessageFragment: Bool, isStateFile: Bool = false
    ) {
        self.kind = kind
        self.path = path
        self.text = text
        self.extraFiles = extraFiles
        self.images = images
        self.specialFiles = specialFiles
        self.isMessageFragment = isMessageFragment
        self.isStateFile = isStateFile
    }

    /// The path a state example's file has; it lies outside the content tree.
    public static let stateFilePath = "state.json"

    /// Message fields that must not trigger the rule.
    public static func valid(_ fields: String, extraFiles: [String: String] = [:], images: [String: ExampleImage] = [:]) -> RuleExample {
        RuleExample(kind: .valid, path: "messages/example.yaml", text: fields, extraFiles: extraFiles, images: images, isMessageFragment: true)
    }

    /// Message fields that must trigger the rule exactly on the `⟦…⟧` spans.
    public static func invalid(_ fields: String, extraFiles: [String: String] = [:], images: [String: ExampleImage] = [:]) -> RuleExample {
        RuleExample(kind: .invalid, path: "messages/example.yaml", text: fields, extraFiles: extraFiles, images: images, isMessageFragment: true)
    }

    /// A whole file that must not trigger the rule.
    public static func validFile(
        _ path: String, _ text: String, extraFiles: [String: String] = [:], images: [String: ExampleImage] = [:],
        specialFiles: [String: ExampleSpecialFile] = [:]
    ) -> RuleExample {
        RuleExample(kind: .valid, path: path, text: text, extraFiles: extraFiles, images: images, specialFiles: specialFiles, isMessageFragment: false)
    }

    /// A whole file that must trigger the rule exactly on the `⟦…⟧` spans.
    public static func invalidFile(
        _ path: String, _ text: String, extraFiles: [String: String] = [:], images: [String: ExampleImage] = [:],
        specialFiles: [String: ExampleSpecialFile] = [:]
    ) -> RuleExample {
        RuleExample(kind: .invalid, path: path, text: text, extraFiles: extraFiles, images: images, specialFiles: specialFiles, isMessageFragment: false)
    }

    /// A state file (`msgc build --state`, production) that must not trigger the rule.
    public static func validState(_ text: String, extraFiles: [String: String] = [:]) -> RuleExample {
        RuleExample(kind: .valid, path: stateFilePath, text: text, extraFiles: extraFiles, isMessageFragment: false, isStateFile: true)
    }

    /// A state file that must trigger the rule exactly on the `⟦…⟧` spans, here or in `extraFiles`.
    public static func invalidState(_ text: String, extraFiles: [String: String] = [:]) -> RuleExample {
        RuleExample(kind: .invalid, path: stateFilePath, text: text, extraFiles: extraFiles, isMessageFragment: false, isStateFile: true)
    }
}

/// A file of an example tree that text cannot show, described so that `msgc explain` can say
/// what it is and the example harness can make it.
public enum ExampleSpecialFile: Hashable, Sendable {
    /// A symbolic link to `target`, relative to the link's folder.
    case symbolicLink(to: String)
    /// An XLIFF file for `locale` padded with an XML comment to one byte more than `bytes`.
    case xliffLargerThan(bytes: Int, locale: String)

    public var description: String {
        switch self {
        case .symbolicLink(let target): "a symbolic link to \(target)"
        case .xliffLargerThan(let bytes, let locale): "an XLIFF file for \(locale) of \(bytes + 1) bytes (\(bytes) and one more)"
        }
    }
}

/// An image file an example needs, described so that `msgc explain` can say what it is and the
/// example harness can make it.
public enum ExampleImage: Hashable, Sendable {
    /// A well-formed PNG of this size. Colour type 2 is 8-bit RGB; 6 is RGBA, 4 grey with alpha.
    case png(width: Int, height: Int, colorType: UInt8 = 2, hasTransparencyChunk: Bool = false)
    /// A PNG of this size whose IHDR chunk carries a wrong CRC.
    case pngWithBadCRC(width: Int, height: Int)
    /// The first 40 bytes of a PNG of this size: the signature and IHDR, then nothing.
    case truncatedPNG(width: Int, height: Int)
    /// A JPEG file, whatever its name says.
    case jpeg

    /// What the file is, for `msgc explain`: "a 3840 × 640 RGB PNG".
    public var description: String {
        switch self {
        case .png(let width, let height, let colorType, let hasTransparencyChunk):
            let kind = switch colorType {
            case 0: "greyscale"
            case 2: "RGB"
            case 3: "palette"
            case 4: "greyscale + alpha"
            case 6: "RGBA"
            default: "colour type \(colorType)"
            }
            return "a \(width) × \(height) \(kind) PNG\(hasTransparencyChunk ? " with a tRNS chunk" : "")"
        case .pngWithBadCRC(let width, let height): return "a \(width) × \(height) PNG whose IHDR chunk has a wrong CRC"
        case .truncatedPNG(let width, let height): return "a \(width) × \(height) PNG cut off after its IHDR chunk"
        case .jpeg: return "a JPEG file"
        }
    }
}

extension RuleInfo {
    /// A diagnostic of this code at its default severity.
    public func diagnose(
        _ message: String, at location: SourceLocation, notes: [Note] = [], fixIts: [FixIt] = [], subject: Subject? = nil
    ) -> Diagnostic {
        Diagnostic(code: code, severity: severity, location: location, message: message, notes: notes, fixIts: fixIts, subject: subject)
    }
}
