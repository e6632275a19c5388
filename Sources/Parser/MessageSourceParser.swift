import Diagnostics
import Model
internal import Yams

/// Reads a message source file (`messages/**/*.yaml`) into messages.
public enum MessageSourceParser {
    public static let fileKeys = ["messages"]
    public static let messageKeys = [
        "key", "product", "type", "default", "header", "body", "headerPosition", "image", "bullets", "note", "switchTo", "billingPlanType", "offer",
        "staleTranslations",
    ]
    public static let imageKeys = ["file", "alt"]
    public static let bulletKeys = ["text", "image", "alt"]

    /// Parses one source file. Messages with mistakes are kept as far as they could be read,
    /// so that later rules still see them; each mistake is a diagnostic.
    public static func parse(bytes: [UInt8], path: String) -> ([Message], SourceFile?, [Diagnostic]) {
        let read = read(bytes: bytes, path: path)
        return (read.messages, read.source, read.diagnostics)
    }

    /// `parse(bytes:path:)`, saying also which messages its errors kept from being read whole.
    public static func read(bytes: [UInt8], path: String) -> ParsedMessageSource {
        let (document, parseDiagnostics) = YAMLDocument.parse(bytes: bytes, path: path)
        var damage = Damage()
        guard let document else {
            return ParsedMessageSource(messages: [], source: nil, diagnostics: parseDiagnostics, path: path, damage: .unnamed)
        }
        var diagnostics = parseDiagnostics
        guard let root = document.root else {
            return ParsedMessageSource(
                messages: [], source: document.source, diagnostics: diagnostics, path: path,
                damage: diagnostics.contains { $0.severity == .error } ? .unnamed : Damage())
        }
        guard var fileReader = MappingReader(root, in: document, context: "a message source file", diagnostics: &diagnostics) else {
            return ParsedMessageSource(messages: [], source: document.source, diagnostics: diagnostics, path: path, damage: .unnamed)
        }
        var messages: [Message] = []
        if let (nodes, _) = fileReader.sequence("messages", required: true) {
            for node in nodes {
                if let message = parseMessage(node, in: document, diagnostics: &diagnostics, damage: &damage) {
                    messages.append(message)
                }
            }
        } else {
            // No list of messages could be read: whatever the file meant to hold is unnamed.
            damage.hasUnnamedMessages = true
        }
        fileReader.finish(known: fileKeys)
        diagnostics += fileReader.diagnostics
        return ParsedMessageSource(messages: messages, source: document.source, diagnostics: diagnostics, path: path, damage: damage)
    }

    /// What a source's errors kept from being read (`DamagedMessageSource`).
    struct Damage {
        var messageIDs: [String] = []
        var hasUnnamedMessages = false

        static let unnamed = Damage(hasUnnamedMessages: true)
    }

    /// One message, or nil when its key, product or type could not be read. A message that
    /// errors kept from being read whole is noted in `damage`: by its id where its product and
    /// key were read, else as unnamed.
    private static func parseMessage(
        _ node: Node, in document: YAMLDocument, diagnostics: inout [Diagnostic], damage: inout Damage
    ) -> Message? {
        let findingsBefore = diagnostics.count
        guard var reader = MappingReader(node, in: document, context: "message", diagnostics: &diagnostics) else {
            damage.hasUnnamedMessages = true
            return nil
        }
        let key = reader.string("key", required: true)
        let product = reader.string("product", required: true)
        let type = reader.choice("type", as: MessageType.self, required: true)
        let isDefault = reader.bool("default")
        let header = reader.string("header", required: true)
        let body = reader.string("body", required: true)
        let headerPosition = reader.choice("headerPosition", as: HeaderPosition.self)
        let note = reader.string("note")
        let switchTo = reader.string("switchTo")
        let billingPlanType = reader.choice("billingPlanType", as: BillingPlanType.self)
        let offer = reader.string("offer")
        let staleTranslations = reader.choice("staleTranslations", as: StaleTranslationPolicy.self)
        if let offer, !isOfferIdentifier(offer.value) {
            reader.report(ParserDiagnostics.invalidOfferId.diagnose(
                "offer '\(offer.value)' may hold only ASCII letters, digits, '.', '_' and '-'", at: offer.valueSpan,
                fixIts: [FixIt("copy the promotional offer's identifier from App Store Connect")]))
        }

        var image: MessageImage?
        if let imageNode = reader.value("image") {
            if case .scalar(let scalar) = imageNode, !scalar.isNull {
                reader.report(ParserDiagnostics.wrongType.diagnose(
                    "'image' must be a mapping with 'file' and 'alt', not text", at: document.location(of: imageNode),
                    fixIts: [FixIt("write `image: { file: \(scalar.string), alt: … }`")]))
            } else if case .scalar = imageNode {
                // `image:` with no value: no image.
            } else if var imageReader = MappingReader(imageNode, in: document, context: "image", diagnostics: &diagnostics) {
                let file = imageReader.string("file", required: true)
                let alt = imageReader.string("alt")
                imageReader.finish(known: imageKeys)
                diagnostics += imageReader.diagnostics
                image = MessageImage(file: file, alt: alt, location: imageReader.location)
            }
        }

        var bullets: [BulletPoint] = []
        let bulletList = reader.sequence("bullets")
        for bulletNode in bulletList?.nodes ?? [] {
            guard var bulletReader = MappingReader(bulletNode, in: document, context: "bullet point", diagnostics: &diagnostics) else {
                continue
            }
            let text = bulletReader.string("text")
            let bulletImage = bulletReader.string("image")
            let alt = bulletReader.string("alt")
            bulletReader.finish(known: bulletKeys)
            diagnostics += bulletReader.diagnostics
            bullets.append(BulletPoint(text: text, image: bulletImage, alt: alt, location: bulletReader.location))
        }
        reader.finish(known: messageKeys)
        diagnostics += reader.diagnostics

        if let key, !isValidKey(key.value) {
            let suggestion = suggestedKey(key.value)
            diagnostics.append(ParserDiagnostics.invalidKey.diagnose(
                "message key '\(key.value)' must match [a-z0-9][a-z0-9._-]*", at: key.valueSpan,
                fixIts: suggestion.map { [FixIt("use '\($0)'", edits: [.init(location: key.valueSpan, replacement: $0)])] } ?? []))
        }
        if diagnostics[findingsBefore...].contains(where: { $0.severity == .error }) {
            if let key, let product {
                damage.messageIDs.append("\(product.value)/\(key.value)")
            } else {
                damage.hasUnnamedMessages = true
            }
        }
        guard let key, let product, let type else { return nil }
        var message = Message(
            key: key, product: product, type: type, isDefault: isDefault, header: header, body: body,
            headerPosition: headerPosition, image: image, bullets: bullets, bulletsLocation: bulletList?.location,
            note: note, switchTo: switchTo, billingPlanType: billingPlanType, offer: offer, location: reader.location)
        message.staleTranslations = staleTranslations
        return message
    }

    /// Whether `text` can be a promotional offer's identifier: one to 255 ASCII letters, digits,
    /// '.', '_' and '-'. It travels into a signed claim and into logs, never unchecked.
    public static func isOfferIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && text.utf8.allSatisfy {
            isLowerAlphanumeric($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// Whether `key` matches `[a-z0-9][a-z0-9._-]*`.
    public static func isValidKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, isLowerAlphanumeric(first) else { return false }
        return key.utf8.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func suggestedKey(_ key: String) -> String? {
        var result = ""
        for scalar in key.lowercased().unicodeScalars {
            if scalar.isASCII, isLowerAlphanumeric(UInt8(scalar.value)) || scalar == "." || scalar == "_" || scalar == "-" {
                result.unicodeScalars.append(scalar)
            } else if scalar == " " {
                result += "-"
            }
        }
        while let first = result.utf8.first, !isLowerAlphanumeric(first) { result.removeFirst() }
        return isValidKey(result) ? result : nil
    }
}

/// One message source as read: its messages, text and findings, and what its errors kept from
/// being read.
public struct ParsedMessageSource: Sendable {
    public var messages: [Message]
    public var source: SourceFile?
    public var diagnostics: [Diagnostic]
    /// Nil when the source's errors (if any) left every message it holds read whole.
    public var damage: DamagedMessageSource?

    init(messages: [Message], source: SourceFile?, diagnostics: [Diagnostic], path: String, damage: MessageSourceParser.Damage) {
        self.messages = messages
        self.source = source
        self.diagnostics = diagnostics
        self.damage = damage.messageIDs.isEmpty && !damage.hasUnnamedMessages
            ? nil : DamagedMessageSource(path: path, messageIDs: damage.messageIDs, hasUnnamedMessages: damage.hasUnnamedMessages)
    }

    /// A source that could not be read at all (`diagnostics` says why): nothing in it is named.
    public init(unreadable path: String, diagnostics: [Diagnostic]) {
        self.init(messages: [], source: nil, diagnostics: diagnostics, path: path, damage: .unnamed)
    }
}
