import Diagnostics
import Model

/// The diagnostics the parser itself reports: files that cannot be read and sources whose
/// shape is wrong. Every one is an error: a build cannot trust a tree it could not read.
public enum ParserDiagnostics {
    public static let malformedYAML = RuleInfo(
        code: "PRS001", name: "malformed-yaml", severity: .error,
        summary: "A message source or msgc.yaml is not well-formed YAML.",
        rationale: "msgc cannot know what a file that does not parse means, so it reports the first place libyaml could not read and uses nothing from the file.",
        examples: [
            .validFile("messages/example.yaml", "messages:\n  - key: winback\n    product: com.example.news.premium.yearly\n    type: text\n    default: true\n    header: Stay with Premium\n    body: Keep reading without limits.\n"),
            .invalidFile("messages/draft.yaml", "messages:\n  - key: last-chance\n    header: ⟦\"⟧Stay with Premium\n"),
        ])

    public static let invalidEncoding = RuleInfo(
        code: "PRS002", name: "invalid-utf8", severity: .error,
        summary: "A source file is not valid UTF-8.",
        rationale: "Apple takes UTF-8 text. A byte sequence that is not UTF-8 (often a file saved as Windows-1252) would reach users as replacement characters, so msgc refuses it and points at the first bad byte rather than repairing it.",
        examples: [
            .valid("header: Stay with Premium — save €10"),
        ])

    public static let unknownKey = RuleInfo(
        code: "PRS003", name: "unknown-key", severity: .error,
        summary: "A mapping has a key msgc does not know.",
        rationale: "A misspelt key (`heder`, `defualt`) would otherwise be ignored silently and the field it meant to set would keep its default.",
        examples: [
            .valid("header: Stay with Premium"),
            .invalid("header: Stay with Premium\n⟦subtitle⟧: Save 50%"),
        ])

    public static let wrongType = RuleInfo(
        code: "PRS004", name: "wrong-type", severity: .error,
        summary: "A value has the wrong YAML type: a list where text belongs, text where a mapping belongs.",
        rationale: "msgc reads each key as one type; anything else is a mistake in the source that would change the message silently if msgc guessed.",
        examples: [
            .valid("bullets:\n  - { text: Unlimited articles, image: images/check.png, alt: Check mark }"),
            .invalid("bullets: ⟦Unlimited articles⟧"),
        ])

    public static let missingField = RuleInfo(
        code: "PRS005", name: "missing-required-field", severity: .error,
        summary: "A required key is missing or has no value.",
        rationale: "Apple requires a header and a body for every message, and msgc needs each message's key, product and type to place it.",
        examples: [
            .validFile("messages/example.yaml", "messages:\n  - key: winback\n    product: com.example.news.premium.yearly\n    type: text\n    default: true\n    header: Stay with Premium\n    body: Keep reading without limits.\n"),
            .invalidFile("messages/example.yaml", "messages:\n  - ⟦key: winback⟧\n    product: com.example.news.premium.yearly\n    type: text\n    default: true\n    body: Keep reading without limits.\n"),
        ])

    public static let valueNotAllowed = RuleInfo(
        code: "PRS006", name: "value-not-allowed", severity: .error,
        summary: "A value is outside the set the key allows.",
        rationale: "Keys such as `type`, `headerPosition`, `minimumState` and `lengthMeasure` take one of a few words; any other word is a typo msgc must not guess at.",
        examples: [
            .valid("headerPosition: above-body"),
            .invalid("headerPosition: ⟦above-title⟧"),
        ])

    public static let duplicateYAMLKey = RuleInfo(
        code: "PRS007", name: "duplicate-yaml-key", severity: .error,
        summary: "A mapping gives the same key twice.",
        rationale: "YAML forbids it, and which value a tool keeps differs from tool to tool.",
        examples: [
            .valid("header: Stay with Premium\nbody: Keep reading without limits."),
            .invalidFile("messages/draft.yaml", "messages:\n  - key: last-chance\n    header: Stay with Premium\n    ⟦header⟧: Stay with us\n"),
        ])

    public static let unreadableFile = RuleInfo(
        code: "PRS008", name: "unreadable-file", severity: .error,
        summary: "A file or folder of the content tree cannot be read.",
        rationale: "A file msgc cannot read is content it cannot check or ship; this is an I/O failure and makes msgc exit with status 2. A symbolic link is followed only when it stays inside the content tree: one that leads out of it, or to nothing, is reported here.",
        examples: [
            .invalidFile("messages/shared.yaml", "", specialFiles: ["⟦messages/shared.yaml⟧": .symbolicLink(to: "../../shared/retention.yaml")]),
            .validFile(
                "messages/example.yaml", "",
                extraFiles: ["shared/example.yaml": "messages:\n  - key: winback\n    product: com.example.news.premium.yearly\n    type: text\n    default: true\n    header: Stay with Premium\n    body: Keep reading without limits.\n"],
                specialFiles: ["messages/example.yaml": .symbolicLink(to: "../shared/example.yaml")]),
        ])

    public static let inputTooLarge = RuleInfo(
        code: "PRS009", name: "input-too-large", severity: .error,
        summary: "A file is larger, nests deeper, or expands through YAML aliases further, than msgc reads.",
        rationale: "Message sources are small. A huge or absurdly nested file, or one whose aliases stand for more than 100,000 nodes (an alias bomb: a few hundred bytes that expand to a billion nodes), is a mistake or an attack, and reading it could exhaust memory, the stack or hours of CPU.",
        examples: [
            .valid("bullets:\n  - { text: Unlimited articles, image: images/check.png, alt: Check mark }"),
            .invalidFile("messages/draft.yaml", "messages: " + String(repeating: "[", count: 64) + "⟦[⟧" + String(repeating: "]", count: 65) + "\n"),
        ])

    public static let invalidKey = RuleInfo(
        code: "PRS010", name: "invalid-message-key", severity: .error,
        summary: "A message key does not match `[a-z0-9][a-z0-9._-]*`.",
        rationale: "Keys become part of XLIFF unit ids, identifiers and bundle paths; keeping them to lower-case ASCII letters, digits, `.`, `_` and `-` keeps every one of those safe.",
        examples: [
            .valid("key: winback.v2"),
            .invalid("key: ⟦Winback Offer⟧"),
        ])

    public static let missingConfig = RuleInfo(
        code: "CFG001", name: "missing-config", severity: .error,
        summary: "The content tree has no msgc.yaml.",
        rationale: "msgc.yaml names the app, its locales and products and the identifier namespace; without it nothing can be checked or built. Run `msgc init` to make one.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
        ])

    public static let invalidNamespace = RuleInfo(
        code: "CFG002", name: "invalid-namespace", severity: .error,
        summary: "`namespace` in msgc.yaml is not a UUID.",
        rationale: "Every message and image identifier is a UUID version 5 in this namespace. It must be a UUID written as 36 hexadecimal characters and hyphens, and must never change once messages have been uploaded.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: ⟦1b4e28ba2fa14d3b⟧\nproducts:\n  - id: com.example.news.premium.yearly\n"),
        ])

    public static let invalidProductId = RuleInfo(
        code: "CFG003", name: "invalid-product-id", severity: .error,
        summary: "A product identifier or the bundle identifier cannot be used in Apple's paths.",
        rationale: "Apple's client libraries put the product identifier into the request path verbatim; it must be a non-empty run of letters, digits, `.`, `_` and `-`.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
            .invalidFile("msgc.yaml", "bundleId: ⟦com.example/news app⟧\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
        ])

    public static let duplicateProduct = RuleInfo(
        code: "CFG004", name: "duplicate-product", severity: .error,
        summary: "msgc.yaml lists the same product or locale twice.",
        rationale: "A product or locale listed twice is a copy-and-paste slip; its second entry would be ignored.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n  - id: ⟦com.example.news.premium.yearly⟧\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE, ⟦de-DE⟧]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
        ])

    public static let sourceLocaleNotListed = RuleInfo(
        code: "CFG005", name: "source-locale-not-listed", severity: .error,
        summary: "`sourceLocale` is not in the project's `locales`.",
        rationale: "The source text ships as the source locale's messages, so that locale must be one the project enables.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: ⟦en-GB⟧\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
        ])

    public static let emptyProjectList = RuleInfo(
        code: "CFG006", name: "empty-project-list", severity: .error,
        summary: "msgc.yaml lists no products or no locales.",
        rationale: "A project without products or locales has nothing to build.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
            .invalidFile("msgc.yaml", "⟦⟧bundleId: com.example.news\nsourceLocale: en-US\nlocales: []\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
        ])

    public static let productLocaleNotListed = RuleInfo(
        code: "CFG007", name: "product-locale-not-listed", severity: .error,
        summary: "A product's `locales` names a locale that is not in the project's `locales`.",
        rationale: "A product's `locales` narrows the project's list for that product; it cannot add to it. msgc builds, translates and checks only the project's locales, so a locale listed for one product alone would never ship and is a slip, usually a locale missing from the project's list or misspelt in one of the two.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n    locales: [en-US]\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n    locales: [en-US, ⟦fr-FR⟧]\n"),
        ])

    public static let localeNotAFileName = RuleInfo(
        code: "CFG008", name: "locale-not-a-file-name", severity: .error,
        summary: "A locale in msgc.yaml cannot name a file: it holds a path separator or a control character, or is `.`, `..` or too long.",
        rationale: "msgc names files after locales (`LOCALE.html` in a preview, `defaults/PRODUCT/LOCALE.json` in a bundle), so a locale that is not one safe path segment could make a command write outside its output folder. Such a locale is left out of the configuration where msgc.yaml is read, so no command ever uses it. No BCP 47 tag is affected: tags hold only letters, digits and hyphens.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, ⟦../../victim/index⟧]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n"),
        ])

    public static let invalidOfferId = RuleInfo(
        code: "PRS011", name: "invalid-offer-id", severity: .error,
        summary: "A promotional-offer message's `offer` is not an identifier App Store Connect could have given.",
        rationale: "`offer` names the promotional offer in App Store Connect whose signature a realtime server mints for the answer. It travels into that signed claim and into logs, so msgc keeps it to what App Store Connect's identifiers hold: ASCII letters, digits, `.`, `_` and `-`.",
        examples: [
            .validFile("messages/example.yaml", "messages:\n  - key: winback\n    product: com.example.news.premium.yearly\n    type: text\n    default: true\n    header: Stay with Premium\n    body: Keep reading without limits.\n  - key: half-price\n    product: com.example.news.premium.yearly\n    type: promotional-offer\n    header: Half price for a year\n    body: Stay and pay half as much for your next year.\n    offer: premium.yearly.half_price\n"),
            .invalidFile("messages/example.yaml", "messages:\n  - key: winback\n    product: com.example.news.premium.yearly\n    type: text\n    default: true\n    header: Stay with Premium\n    body: Keep reading without limits.\n  - key: half-price\n    product: com.example.news.premium.yearly\n    type: promotional-offer\n    header: Half price for a year\n    body: Stay and pay half as much for your next year.\n    offer: ⟦half price!⟧\n"),
        ])

    public static let invalidRealtimeList = RuleInfo(
        code: "CFG012", name: "invalid-realtime-list", severity: .error,
        summary: "A product's `realtime:` mixes its two forms, lists a message twice or gives a weight that is not a whole number from 1 to 1,000,000.",
        rationale: "`realtime:` says which messages a realtime server answers with: either message keys, of which the first usable one wins, or `{message: KEY, weight: N}` entries, a split stable per subscriber. A list that mixes both, or names a message twice, has no one meaning, and a weight of 0, a fraction or a word cannot be a share.",
        examples: [
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n    realtime: [winback]\n"),
            .validFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n    realtime:\n      - { message: winback, weight: 3 }\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n    realtime:\n      - { message: winback, weight: ⟦0⟧ }\n"),
            .invalidFile("msgc.yaml", "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\n    realtime: [winback, ⟦winback⟧]\n"),
        ])

    /// Every code the parser can report, alphabetized by code.
    public static let all: [RuleInfo] = [
        missingConfig, invalidNamespace, invalidProductId, duplicateProduct, sourceLocaleNotListed, emptyProjectList,
        productLocaleNotListed, localeNotAFileName, invalidRealtimeList,
        malformedYAML, invalidEncoding, unknownKey, wrongType, missingField, valueNotAllowed, duplicateYAMLKey,
        unreadableFile, inputTooLarge, invalidKey, invalidOfferId,
    ]

    /// Codes that stand for an I/O failure rather than a mistake in the content.
    public static let ioFailureCodes: Set<String> = [unreadableFile.code, missingConfig.code]
}
