@testable import Lint
import Model
import Parser

/// Catalogs built in memory for a rule's own tests, translations included, without files.
///
/// Source texts sit in `messages/example.yaml` at fixed lines (header 6, body 7, image alt 9,
/// bullet N text and alt on line 10 + N), value at column 13; a translation's texts sit in
/// `translations/LOCALE.xliff`, header on line 10, body 11, and so on, at column 20.
enum LintFixture {
    static let sourcePath = "messages/example.yaml"
    static let product = "com.example.news.premium.yearly"

    static func located(_ value: String, path: String = sourcePath, line: Int, column: Int = 13, style: ScalarStyle = .plain) -> Located<String> {
        Located(value, at: SourceLocation(path: path, line: line, column: column), style: style)
    }

    struct Bullet {
        var text: String?
        var image: String?
        var alt: String?
        init(text: String? = "Unlimited articles", image: String? = "images/check.png", alt: String? = "Check mark") {
            self.text = text
            self.image = image
            self.alt = alt
        }
    }

    static func message(
        key: String = "winback", type: MessageType = .text, isDefault: Bool = true,
        header: String? = "Stay with Premium", body: String? = "Keep your yearly plan and save 50% on your next renewal.",
        headerPosition: HeaderPosition? = nil, image: String? = nil, alt: String? = "Readers with the morning edition",
        bullets: [Bullet] = [], line: Int = 2
    ) -> Message {
        let path = sourcePath
        func at(_ offset: Int, column: Int = 13) -> SourceLocation { SourceLocation(path: path, line: line + offset, column: column) }
        return Message(
            key: located(key, line: line, column: 12), product: located(product, line: line + 1, column: 14),
            type: Located(type, at: at(2, column: 11)), isDefault: Located(isDefault, at: at(3, column: 14)),
            header: header.map { located($0, line: line + 4) }, body: body.map { located($0, line: line + 5) },
            headerPosition: headerPosition.map { Located($0, at: at(6, column: 21)) },
            image: image.map { MessageImage(file: located($0, line: line + 7, column: 20), alt: alt.map { located($0, line: line + 7, column: 50) }, location: at(7, column: 12)) },
            bullets: bullets.enumerated().map { index, bullet in
                BulletPoint(
                    text: bullet.text.map { located($0, line: line + 9 + index, column: 16) },
                    image: bullet.image.map { located($0, line: line + 9 + index, column: 40) },
                    alt: bullet.alt.map { located($0, line: line + 9 + index, column: 70) },
                    location: at(9 + index, column: 9))
            },
            location: at(0, column: 5))
    }

    static func config(
        locales: [String] = ["en-US", "de-DE"], sourceLocale: String = "en-US", extraLocales: [String] = [],
        measure: LengthMeasure = .utf16, productLocales: [String]? = nil
    ) -> ProjectConfig {
        func list(_ values: [String], line: Int) -> [Located<String>] {
            var column = 10
            return values.map { value in
                defer { column += value.unicodeScalars.count + 2 }
                return located(value, path: "msgc.yaml", line: line, column: column)
            }
        }
        return ProjectConfig(
            bundleId: located("com.example.news", path: "msgc.yaml", line: 1, column: 11),
            sourceLocale: located(sourceLocale, path: "msgc.yaml", line: 2, column: 15),
            locales: list(locales, line: 3), extraLocales: list(extraLocales, line: 4),
            namespace: located("1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b", path: "msgc.yaml", line: 5, column: 12),
            lengthMeasure: measure,
            products: [ProductConfig(id: located(product, path: "msgc.yaml", line: 7, column: 11), locales: productLocales.map { list($0, line: 8) })])
    }

    /// The context rules see. `translations` gives, per locale, the translated text of fields of
    /// the first message; each becomes a candidate as if read from `translations/LOCALE.xliff`.
    static func context(
        messages: [Message] = [message()], config: ProjectConfig = config(), translations: [String: [MessageField: String]] = [:],
        images: [String: [UInt8]] = [:], imageFilesOnDisk: [String] = [], translationFiles: [TranslationFile] = [],
        sourceFiles: [SourceFile] = []
    ) -> LintContext {
        var assets: [String: ImageAsset] = [:]
        for (path, bytes) in images { assets[path] = ImageAsset(path: path, bytes: bytes, png: PNGReader.read(bytes)) }
        let catalog = Catalog(
            config: config, messages: messages, translationFiles: translationFiles, images: assets, imageFilesOnDisk: imageFilesOnDisk,
            sourceFiles: Dictionary(uniqueKeysWithValues: sourceFiles.map { ($0.path, $0) }))
        var candidates = messages.map { message in
            LocalizedMessage(
                message: message, locale: config.sourceLocale.value,
                texts: FieldTexts(Dictionary(uniqueKeysWithValues: message.fields.map { ($0.field, $0.text) })), translationPath: nil)
        }
        for locale in translations.keys.sorted() {
            let path = "translations/\(locale).xliff"
            var texts = FieldTexts()
            for (index, field) in translations[locale]!.keys.sorted().enumerated() {
                texts[field] = located(translations[locale]![field]!, path: path, line: 10 + index, column: 20)
            }
            candidates.append(LocalizedMessage(message: messages[0], locale: locale, texts: texts, translationPath: path))
        }
        return LintContext(catalog: catalog, config: config, localization: Localization(candidates: candidates, gaps: [], fileForLocale: [:]))
    }

    static func translationFile(path: String, targetLanguage: String) -> TranslationFile {
        TranslationFile(
            path: path, version: .v1_2, targetLanguage: located(targetLanguage, path: path, line: 3, column: 70),
            sourceLanguage: nil, units: [], isReadable: true)
    }
}
