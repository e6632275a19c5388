import Diagnostics
import Model
import Parser

/// JSON Schemas (draft-07) for `msgc.yaml` and message sources, for editors: with
/// yaml-language-server, a file that names one completes its keys, explains them and marks a
/// wrong shape as it is typed. `msgc schema` prints them; `schemas/` in the repository holds
/// the same bytes.
///
/// The schemas describe the shape the parser reads, from the parser's own key lists and
/// value sets, so that both give the same verdict on shape: unknown keys (PRS003), wrong types
/// (PRS004), missing fields (PRS005) and values not allowed (PRS006). Text is any scalar, as
/// msgc reads it (`header: 2024` is the text "2024"). What a schema cannot say, msgc still
/// checks: lengths in the project's measure, locales, identifiers and every lint rule.
public enum Schemas {
    public enum Kind: String, CaseIterable, Sendable {
        case config
        case messages

        /// The file name in `schemas/`.
        public var fileName: String {
            switch self {
            case .config: "msgc.schema.json"
            case .messages: "messages.schema.json"
            }
        }
    }

    public static func schema(_ kind: Kind) -> JSONValue {
        switch kind {
        case .config: config
        case .messages: messages
        }
    }

    // MARK: - msgc.yaml

    static var config: JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in ConfigParser.knownKeys {
            properties[key] = switch key {
            case "bundleId":
                text("The app's bundle identifier, as in App Store Connect: letters, digits, '.', '_' and '-'.")
            case "sourceLocale":
                text("The locale the message sources are written in, one of `locales`: an App Store locale code such as en-US.")
            case "locales":
                textList("Every locale the app ships retention messages in, the source locale included: App Store locale codes such as de-DE, ja, zh-Hans.")
            case "extraLocales":
                textList("Further BCP 47 language tags (well-formed, every subtag registered, canonical case) that msgc admits as locales beside App Store's codes.")
            case "namespace":
                text("The UUID every message and image identifier is derived from (UUID version 5). `msgc init` makes one; never change it once messages are uploaded.", pattern: uuidPattern)
            case "minimumState":
                choice(ReadinessLevel.allCases.map(\.rawValue), "How far a translation must have come (its XLIFF state) to ship: translated (the default), reviewed or final.")
            case "lengthMeasure":
                choice(LengthMeasure.allCases.map(\.rawValue), "How text lengths are counted against Apple's limits: utf16 (the default; what Apple's limits count), graphemes, scalars or utf8. Always after NFC normalization.")
            case "staleTranslations":
                choice(StaleTranslationPolicy.allCases.map(\.rawValue), Self.staleTranslationsDescription)
            case "products":
                .object([
                    "description": "The subscription products that show retention messages, each with its App Store product identifier.",
                    "type": "array",
                    "items": product,
                ])
            case "rules":
                rules
            default:
                text("")
            }
        }
        return .object([
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "msgc.yaml",
            "description": "The configuration of an msgc content tree: the app, its locales and products, the identifier namespace and rule settings.",
            "type": "object",
            "properties": .object(properties),
            "required": .array(ConfigParser.requiredKeys.map { .string($0) }),
            "additionalProperties": false,
        ])
    }

    static var product: JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in ConfigParser.productKeys {
            properties[key] = switch key {
            case "id": text("The product identifier, as in App Store Connect.")
            case "locales": textList("The locales this product is sold in, when fewer than the project's.")
            case "group": text("The product's subscription group, as the team names it in App Store Connect: a switch-plan message may offer only a product of the same group.")
            case "realtime": realtime
            default: text("")
            }
        }
        return .object([
            "type": "object",
            "properties": .object(properties),
            "required": ["id"],
            "additionalProperties": false,
        ])
    }

    /// A product's `realtime:`: message keys, or weighted entries.
    static var realtime: JSONValue {
        .object([
            "description": "The messages a realtime server answers with for this product: message keys, of which the first usable one (approved, and complete for its type) wins, or `{message: KEY, weight: N}` entries for a split that is stable per subscriber. Nothing usable: the product's default.",
            "type": ["array", "null"],
            "items": .object([
                "type": ["string", "object"],
                "pattern": "^[a-z0-9][a-z0-9._-]*$",
                "properties": .object([
                    "message": text("A message key of this product.", pattern: "^[a-z0-9][a-z0-9._-]*$"),
                    "weight": .object([
                        "description": "The entry's share of the split: its weight over the sum of the weights.",
                        "type": "integer", "minimum": 1, "maximum": .integer(ConfigParser.maxRealtimeWeight),
                    ]),
                ]),
                "required": .array(ConfigParser.realtimeArmKeys.map { .string($0) }),
                "additionalProperties": false,
            ]),
        ])
    }

    /// `rules:`, keyed by every code and rule name msgc knows.
    static var rules: JSONValue {
        let levels = RuleSetting.Level.allCases.map(\.rawValue)
        var names: [JSONValue] = []
        for info in Codes.all {
            names.append(.string(info.code))
            names.append(.string(info.name))
        }
        return .object([
            "description": "Turns a check off or changes its severity, by code or rule name: `LEN002: off`, `TXT011: error`. `false` means off too: YAML 1.1 readers (many editors' YAML plugins) read `off` as false. Checks that find what Apple refuses cannot be lowered (`msgc explain CODE` says which).",
            "type": "object",
            "propertyNames": .object(["enum": .array(names)]),
            "additionalProperties": .object(["enum": .array(levels.map { .string($0) } + [.bool(false)])]),
        ])
    }

    // MARK: - Message sources

    static var messages: JSONValue {
        .object([
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "msgc message source",
            "description": "Retention messages in the source locale, in messages/**/*.yaml of an msgc content tree.",
            "type": "object",
            "properties": .object([
                "messages": .object([
                    "description": "The messages of this file. A message is identified by its product and key.",
                    "type": ["array", "null"],
                    "items": message,
                ]),
            ]),
            "required": .array(MessageSourceParser.fileKeys.map { .string($0) }),
            "additionalProperties": false,
        ])
    }

    static var message: JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in MessageSourceParser.messageKeys {
            properties[key] = switch key {
            case "key":
                text("The message's name within its product: lower-case letters, digits, '.', '_' and '-', starting with a letter or digit. Part of XLIFF unit ids; never rename a translated message lightly.", pattern: "^[a-z0-9][a-z0-9._-]*$")
            case "product":
                text("The product identifier this message is for, one of `products` in msgc.yaml.")
            case "type":
                choice(MessageType.allCases.map(\.rawValue), "What the message offers: text, promotional-offer or switch-plan.", required: true)
            case "default":
                .object(["description": "Whether this is the product's default message in each locale it ships in (Apple's default configuration).", "type": ["boolean", "null"]])
            case "header":
                limitedText(MessageField.header, "The header, above the body or the image.", required: true)
            case "body":
                limitedText(MessageField.body, "The body text.", required: true)
            case "headerPosition":
                choice(HeaderPosition.allCases.map(\.rawValue), "Where the header goes: above-body (the default) or above-image.")
            case "image":
                image
            case "bullets":
                .object([
                    "description": "Bullet points, each with text and an optional image.",
                    "type": ["array", "null"],
                    "items": bullet,
                ])
            case "note":
                optionalText("A note for translators; goes into the XLIFF, never to Apple.")
            case "switchTo":
                text("switch-plan messages: the product a realtime answer offers instead, another product of the same subscription group (`group:` in msgc.yaml).")
            case "billingPlanType":
                choice(BillingPlanType.allCases.map(\.rawValue), "switch-plan messages: how the plan `switchTo` names is billed, monthly or billed-upfront (Apple's MONTHLY, BILLED_UPFRONT), told to Apple with the realtime answer.")
            case "offer":
                text("promotional-offer messages: the promotional offer's identifier in App Store Connect, which a realtime answer's signature names.", pattern: "^[A-Za-z0-9._-]+$")
            case "staleTranslations":
                choice(StaleTranslationPolicy.allCases.map(\.rawValue), Self.staleTranslationsDescription + " On a message, it wins over msgc.yaml's.")
            default:
                text("")
            }
        }
        return .object([
            "type": "object",
            "properties": .object(properties),
            "required": ["key", "product", "type", "header", "body"],
            "additionalProperties": false,
        ])
    }

    static var image: JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in MessageSourceParser.imageKeys {
            properties[key] = switch key {
            case "file": text("The PNG file, relative to the content tree: images/hero.png.")
            case "alt": limitedText(MessageField.imageAlt, "The image's alternative text, read by VoiceOver.", required: false)
            default: text("")
            }
        }
        return .object([
            "description": "The message's image: `{ file: images/hero.png, alt: … }`.",
            "type": ["object", "null"],
            "properties": .object(properties),
            "required": ["file"],
            "additionalProperties": false,
        ])
    }

    static var bullet: JSONValue {
        var properties: [String: JSONValue] = [:]
        for key in MessageSourceParser.bulletKeys {
            properties[key] = switch key {
            case "text": limitedText(MessageField.bulletText(0), "The bullet point's text.", required: false)
            case "image": optionalText("The bullet point's PNG image, relative to the content tree.")
            case "alt": limitedText(MessageField.bulletAlt(0), "The bullet image's alternative text.", required: false)
            default: text("")
            }
        }
        return .object([
            "type": "object",
            "properties": .object(properties),
            "additionalProperties": false,
        ])
    }

    // MARK: - Pieces

    static let uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"

    /// Text, which msgc reads from any scalar; a value is required.
    static func text(_ description: String, pattern: String? = nil) -> JSONValue {
        var object: [String: JSONValue] = ["description": .string(description), "type": ["string", "number", "boolean"]]
        if let pattern { object["pattern"] = .string(pattern) }
        return .object(object)
    }

    /// Text that may be left without a value.
    static func optionalText(_ description: String) -> JSONValue {
        .object(["description": .string(description), "type": ["string", "number", "boolean", "null"]])
    }

    static func textList(_ description: String) -> JSONValue {
        .object(["description": .string(description), "type": "array", "items": ["type": ["string", "number", "boolean"]]])
    }

    /// One of `values`; an optional one may be left without a value.
    static let staleTranslationsDescription =
        "What a locale ships while its translation is stale (the source text changed since): keep-previous (the default) keeps shipping the previous translation, the same upload, until the translator updates it; withhold ships nothing there, for an edit whose old wording must not be shown (a price, a legal text)."

    static func choice(_ values: [String], _ description: String, required: Bool = false) -> JSONValue {
        .object(["description": .string(description), "enum": .array(values.map { .string($0) } + (required ? [] : [.null]))])
    }

    /// A text field with Apple's limit as a hint: `maxLength` counts code points, which is the
    /// project's count only with `lengthMeasure: scalars`.
    static func limitedText(_ field: MessageField, _ description: String, required: Bool) -> JSONValue {
        let limit = field.maxLength
        let note = " Apple's limit is \(limit) (in UTF-16 units unless msgc.yaml's lengthMeasure says otherwise); this schema counts code points, so it only hints at it. `msgc lint` counts in the project's measure after NFC, and an editor connected to `msgc lsp` shows every count on hover."
        return .object([
            "description": .string(description + note),
            "type": required ? ["string", "number", "boolean"] : ["string", "number", "boolean", "null"],
            "maxLength": .integer(limit),
        ])
    }
}
