import Foundation
@testable import Bundle
import Model
import Testing

@Suite struct BundleTests {
    static func located(_ text: String) -> Located<String> {
        Located(text, at: SourceLocation(path: "messages/a.yaml", line: 1, column: 1))
    }

    static let config = ProjectConfig(
        bundleId: located("com.example.app"), sourceLocale: located("en-US"), locales: [located("en-US"), located("ar-SA")],
        namespace: located("1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b"), products: [ProductConfig(id: located("com.example.app.yearly"))])

    static let message = Message(
        key: located("winback"), product: located("com.example.app.yearly"),
        type: Located(.text, at: SourceLocation(path: "messages/a.yaml")), isDefault: Located(true, at: SourceLocation(path: "messages/a.yaml")),
        header: located("Stay with Premium"), body: located("Cafe\u{301} / 50% off"),
        headerPosition: Located(.aboveImage, at: SourceLocation(path: "messages/a.yaml")),
        image: MessageImage(file: located("images/hero.png"), alt: located("A reader"), location: SourceLocation(path: "messages/a.yaml")),
        bullets: [BulletPoint(text: located("Offline"), image: located("images/check.png"), alt: located("Check"), location: SourceLocation(path: "m"))],
        location: SourceLocation(path: "messages/a.yaml", line: 2, column: 5))

    static func input(_ environment: Environment, messages: [LocalizedMessage]? = nil) -> BundleBuilder.Input {
        var texts = FieldTexts()
        for (field, text) in message.fields { texts[field] = text }
        var arabic = texts
        arabic[.header] = located("ابقَ مع بريميوم")
        let localized = messages ?? [
            LocalizedMessage(message: message, locale: "en-US", texts: texts, translationPath: nil),
            LocalizedMessage(message: message, locale: "ar-SA", texts: arabic, translationPath: "translations/ar-SA.xliff"),
        ]
        return BundleBuilder.Input(
            config: config, messages: localized,
            images: ["images/hero.png": [1, 2, 3], "images/check.png": [4, 5, 6]],
            environment: environment, release: nil, generatorVersion: "test")
    }

    @Test func writesApplesRequestBodies() throws {
        let bundle = try BundleBuilder.build(Self.input(.sandbox))
        #expect(bundle.imageCount == 2)
        #expect(bundle.messageCount == 2)
        #expect(bundle.defaultCount == 2)
        let operations = try #require(bundle.manifest.json.object?["operations"]?.array)
        #expect(operations.map { $0.object?["op"] } == [
            "uploadImage", "uploadImage", "uploadMessage", "uploadMessage", "configureDefault", "configureDefault",
        ])
        let english = try #require(operations.first { $0.object?["locale"] == "en-US" && $0.object?["op"] == "uploadMessage" }?.object)
        guard case .string(let file) = english["file"] else { Issue.record("no file"); return }
        let body = String(decoding: try #require(bundle.files[file]), as: UTF8.self)
        let imageID = try #require(operations.first { $0.object?["source"] == "images/hero.png" }?.object?["identifier"])
        let bulletID = try #require(operations.first { $0.object?["source"] == "images/check.png" }?.object?["identifier"])
        guard case .string(let image) = imageID, case .string(let bullet) = bulletID else { Issue.record("no ids"); return }
        #expect(body == """
            {
              "body": "Caf\u{E9} / 50% off",
              "bulletPoints": [
                {
                  "altText": "Check",
                  "imageIdentifier": "\(bullet)",
                  "text": "Offline"
                }
              ],
              "header": "Stay with Premium",
              "headerPosition": "ABOVE_IMAGE",
              "image": {
                "altText": "A reader",
                "imageIdentifier": "\(image)"
              }
            }

            """)
        #expect(english["requires"] == .array([.string(min(image, bullet)), .string(max(image, bullet))]))
    }

    @Test func messageIdentifierFollowsTheSpecFormula() throws {
        let bundle = try BundleBuilder.build(Self.input(.production))
        let operations = try #require(bundle.manifest.json.object?["operations"]?.array)
        for operation in operations where operation.object?["op"] == "uploadMessage" {
            let object = try #require(operation.object)
            guard case .string(let file) = object["file"], case .string(let locale) = object["locale"],
                  case .string(let identifier) = object["identifier"] else { Issue.record("fields"); continue }
            let version = String(Digest.sha256Hex(try #require(bundle.files[file])).prefix(16))
            let name = "com.example.app:production:com.example.app.yearly:\(locale):winback:\(version)"
            #expect(NameBasedUUID(namespace: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b", name: name)?.description == identifier)
            #expect(file == "messages/\(identifier).json")
        }
    }

    @Test func environmentsGetDifferentIdentifiers() throws {
        let sandbox = try BundleBuilder.build(Self.input(.sandbox))
        let production = try BundleBuilder.build(Self.input(.production))
        #expect(Set(sandbox.files.keys).intersection(production.files.keys).filter { !$0.hasPrefix("defaults/") && $0 != "realtime.json" }.isEmpty)
    }

    @Test func sameInputSameBytesWhateverTheMessageOrder() throws {
        let first = try BundleBuilder.build(Self.input(.sandbox))
        var reversed = Self.input(.sandbox)
        reversed.messages.reverse()
        let second = try BundleBuilder.build(reversed)
        #expect(first.allFiles.map(\.path) == second.allFiles.map(\.path))
        #expect(first.allFiles.map(\.bytes) == second.allFiles.map(\.bytes))
    }

    @Test func digestIsSha256sumOfTheSortedFileList() throws {
        let bundle = try BundleBuilder.build(Self.input(.sandbox))
        var lines = ""
        for path in bundle.files.keys.sorted() { lines += Digest.sha256Hex(bundle.files[path]!) + "  " + path + "\n" }
        #expect(bundle.manifest.json.object?["digest"] == .string("sha256:" + Digest.sha256Hex(Array(lines.utf8))))
    }

    @Test func manifestNamesReleaseAndGenerator() throws {
        var input = Self.input(.sandbox)
        input.release = "2026.11"
        let manifest = try #require(try BundleBuilder.build(input).manifest.json.object)
        #expect(manifest["format"] == "msgc-bundle")
        #expect(manifest["formatVersion"] == 1)
        #expect(manifest["release"] == "2026.11")
        #expect(manifest["generator"] == ["name": "msgc", "version": "test"])
        #expect(try BundleBuilder.build(Self.input(.sandbox)).manifest.json.object?["release"] == .null)
    }

    @Test func optionalFieldsAreOmittedNeverNull() throws {
        var plain = Self.message
        plain.image = nil
        plain.bullets = []
        plain.headerPosition = nil
        let localized = LocalizedMessage(
            message: plain, locale: "en-US", texts: [.header: Self.located("Stay"), .body: Self.located("Keep reading.")],
            translationPath: nil)
        let bundle = try BundleBuilder.build(Self.input(.sandbox, messages: [localized]))
        let body = try #require(bundle.files.first { $0.key.hasPrefix("messages/") }?.value)
        #expect(String(decoding: body, as: UTF8.self) == "{\n  \"body\": \"Keep reading.\",\n  \"header\": \"Stay\"\n}\n")
    }
}

extension JSONValue {
    var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
}
