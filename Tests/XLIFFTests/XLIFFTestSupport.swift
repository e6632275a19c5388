import Diagnostics
import Foundation
import Model
@testable import XLIFF
import TestSupport

/// Fixture files and small builders shared by the XLIFF tests.
enum XLIFFTestSupport {
    /// `Tests/ParserTests/Fixtures/xliff`, found from this file's path (no SwiftPM resources).
    static let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xliff", isDirectory: true)

    static func fixtureBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixturesDirectory.appendingPathComponent(name)))
    }

    /// Reads a fixture as `translations/NAME`.
    static func read(fixture name: String) throws -> (TranslationFile, [Diagnostic]) {
        XLIFFReader.read(bytes: try fixtureBytes(name), path: "translations/\(name)")
    }

    static func read(_ text: String, path: String = "translations/test.xlf") -> (TranslationFile, [Diagnostic]) {
        XLIFFReader.read(bytes: Array(text.utf8), path: path)
    }

    static func located(_ value: String, line: Int = 1) -> Located<String> {
        Located(value, at: SourceLocation(path: "msgc.yaml", line: line, column: 1))
    }

    static func config(measure: LengthMeasure = .utf16) -> ProjectConfig {
        ProjectConfig(
            bundleId: located("com.example.news"), sourceLocale: located("en-US"),
            locales: [located("en-US"), located("de-DE"), located("fr-FR")],
            namespace: located("1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b"),
            lengthMeasure: measure,
            products: [ProductConfig(id: located("com.example.news.premium.yearly"))])
    }

    static func message(
        key: String, product: String = "com.example.news.premium.yearly", type: MessageType = .text,
        header: String? = nil, body: String? = nil, alt: String? = nil,
        bullets: [(text: String, alt: String)] = [], note: String? = nil
    ) -> Message {
        let here = SourceLocation(path: "messages/test.yaml", line: 1, column: 1)
        return Message(
            key: Located(key, at: here), product: Located(product, at: here), type: Located(type, at: here),
            header: header.map { Located($0, at: here) }, body: body.map { Located($0, at: here) },
            image: alt.map { MessageImage(file: Located("images/hero.png", at: here), alt: Located($0, at: here), location: here) },
            bullets: bullets.map {
                BulletPoint(text: Located($0.text, at: here), image: Located("images/check.png", at: here),
                            alt: Located($0.alt, at: here), location: here)
            },
            note: note.map { Located($0, at: here) }, location: here)
    }

    /// Runs `xmllint --noout` on `text` when xmllint is installed; nil when it is not.
    static func xmllintErrors(_ text: String) throws -> String? {
        let candidates = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let file = TestFolders.root.appendingPathComponent("msgc-xmllint-\(UUID().uuidString).xlf")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--noout", "--nonet", file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? "" : String(decoding: output, as: UTF8.self)
    }
}

extension TranslationFile {
    func unit(_ id: String) -> TranslationUnit? {
        units.first { $0.id.value == id }
    }
}
