import Emitter
import Foundation
import Lint
import Model
import Parser
import Testing

/// The `known-gaps` fixture: two products in four locales with one of each kind of gap.
///
/// | product | locale | message | what is wrong |
/// | --- | --- | --- | --- |
/// | yearly | de-DE | benefits | header translated from an older source text: stale |
/// | yearly | de-DE | offer | REJECTED at Apple (with the state file) |
/// | yearly | fr-FR | benefits | body only `translated`, below `minimumState: reviewed` |
/// | yearly | fr-FR | offer | no translation at all: missing |
/// | yearly | ar-SA | winback (default) | PENDING at Apple (with the state file) |
/// | monthly | de-DE | stay (default) | header of 75 UTF-16 units: fails LEN001 |
///
/// The messages, images and configuration are files under `Fixtures/known-gaps/content`. The
/// translations are built here as the XLIFF reader would deliver them, so these tests do not
/// depend on XLIFF parsing.
enum KnownGaps {
    static let root = Golden.fixtures.appendingPathComponent("known-gaps/content")

    static let yearly = "com.example.gaps.yearly"
    static let monthly = "com.example.gaps.monthly"

    /// (locale, product, key, field, recorded source, target, XLIFF state)
    static let units: [(String, String, String, String, String, String, String)] = [
        ("de-DE", yearly, "winback", "header", "Stay a little longer", "Bleib noch ein bisschen", "signed-off"),
        ("de-DE", yearly, "winback", "body", "Keep your yearly plan and your progress.", "Behalte dein Jahresabo und deinen Fortschritt.", "signed-off"),
        ("de-DE", yearly, "winback", "image.alt", "A path of lesson cards", "Ein Pfad aus Lernkarten", "signed-off"),
        ("de-DE", yearly, "benefits", "header", "Everything in Premium", "Alles in Premium", "signed-off"),
        ("de-DE", yearly, "benefits", "body", "Unlimited lessons in every language.", "Unbegrenzte Lektionen in jeder Sprache.", "signed-off"),
        ("de-DE", yearly, "benefits", "bullets.1.text", "Learn offline", "Offline lernen", "signed-off"),
        ("de-DE", yearly, "benefits", "bullets.1.alt", "Check mark", "Häkchen", "signed-off"),
        ("de-DE", yearly, "offer", "header", "Your next year at 50% off", "Dein nächstes Jahr 50% günstiger", "signed-off"),
        ("de-DE", yearly, "offer", "body", "Renew today and pay half.", "Verlängere heute und zahle die Hälfte.", "signed-off"),
        ("de-DE", monthly, "stay", "header", "Keep learning", "Lerne weiter mit all deinen Lektionen, Lernserien und gespeicherten Wörtern", "signed-off"),
        ("de-DE", monthly, "stay", "body", "Your monthly plan keeps every lesson open.", "Dein Monatsabo hält jede Lektion für dich offen.", "signed-off"),
        ("fr-FR", yearly, "winback", "header", "Stay a little longer", "Reste encore un peu", "signed-off"),
        ("fr-FR", yearly, "winback", "body", "Keep your yearly plan and your progress.", "Garde ton abonnement annuel et tes progrès.", "signed-off"),
        ("fr-FR", yearly, "winback", "image.alt", "A path of lesson cards", "Un chemin de cartes de leçons", "signed-off"),
        ("fr-FR", yearly, "benefits", "header", "Everything in Plus", "Tout dans Plus", "signed-off"),
        ("fr-FR", yearly, "benefits", "body", "Unlimited lessons in every language.", "Des leçons illimitées dans toutes les langues.", "translated"),
        ("fr-FR", yearly, "benefits", "bullets.1.text", "Learn offline", "Apprendre hors ligne", "signed-off"),
        ("fr-FR", yearly, "benefits", "bullets.1.alt", "Check mark", "Coche", "signed-off"),
        ("ar-SA", yearly, "winback", "header", "Stay a little longer", "ابقَ معنا قليلًا", "signed-off"),
        ("ar-SA", yearly, "winback", "body", "Keep your yearly plan and your progress.", "احتفظ بخطتك السنوية وبتقدّمك.", "signed-off"),
        ("ar-SA", yearly, "winback", "image.alt", "A path of lesson cards", "مسار من بطاقات الدروس", "signed-off"),
        ("ar-SA", yearly, "benefits", "header", "Everything in Plus", "كل ما في Plus", "signed-off"),
        ("ar-SA", yearly, "benefits", "body", "Unlimited lessons in every language.", "دروس غير محدودة بكل اللغات.", "signed-off"),
        ("ar-SA", yearly, "benefits", "bullets.1.text", "Learn offline", "تعلّم دون اتصال", "signed-off"),
        ("ar-SA", yearly, "benefits", "bullets.1.alt", "Check mark", "علامة صح", "signed-off"),
        ("ar-SA", yearly, "offer", "header", "Your next year at 50% off", "سنتك القادمة بخصم 50%", "signed-off"),
        ("ar-SA", yearly, "offer", "body", "Renew today and pay half.", "جدّد اليوم وادفع النصف.", "signed-off"),
    ]

    /// The translation files, as the XLIFF reader would return them.
    static var translationFiles: [TranslationFile] {
        ["ar-SA", "de-DE", "fr-FR"].map { locale in
            let path = "translations/\(locale).xliff"
            var line = 6
            let fileUnits = units.filter { $0.0 == locale }.map { unit -> TranslationUnit in
                line += 5
                let location = SourceLocation(path: path, line: line, column: 7)
                let state: TranslationState = unit.6 == "signed-off" ? .reviewed : .translated
                return TranslationUnit(
                    id: Located("\(unit.1)/\(unit.2)/\(unit.3)", at: location, style: .opaque),
                    source: Located(unit.4, at: SourceLocation(path: path, line: line + 1, column: 9), style: .opaque),
                    target: Located(unit.5, at: SourceLocation(path: path, line: line + 2, column: 9), style: .opaque),
                    state: state, rawState: unit.6, location: location)
            }
            return TranslationFile(
                path: path, version: .v1_2, targetLanguage: Located(locale, at: SourceLocation(path: path, line: 3)),
                sourceLanguage: Located("en-US", at: SourceLocation(path: path, line: 3)), units: fileUnits, isReadable: true)
        }
    }

    /// The fixture read from disk, its translations bound, its rules run.
    ///
    /// Until every length rule is in the registry, the header that is too long is reported
    /// here as LEN001 would report it; once the rule runs, its own finding is used instead.
    static func compilation() -> Compilation {
        var (catalog, parseDiagnostics) = ContentTree(root: root).load()
        if catalog.translationFiles.isEmpty { catalog.translationFiles = translationFiles }
        var compilation = Compilation.compile(catalog, parseDiagnostics: parseDiagnostics)
        let subject = Subject(product: monthly, key: "stay", locale: "de-DE")
        if !compilation.diagnostics.contains(where: { $0.code == "LEN001" && $0.subject == subject }) {
            compilation.diagnostics.append(Diagnostic(
                code: "LEN001", severity: .error, location: SourceLocation(path: "translations/de-DE.xliff", line: 58, column: 9),
                message: "header has 75 UTF-16 units; Apple's limit is 66", subject: subject))
            compilation.diagnostics = compilation.diagnostics.sortedForOutput()
        }
        return compilation
    }

    /// What Apple holds in `environment` after the bundle of this fixture was applied once:
    /// every upload APPROVED, except the Arabic default message (PENDING) and the German offer
    /// (REJECTED), plus one message and one image the bundle no longer uses.
    static func state(for compilation: Compilation, environment: Environment) throws -> StateFile {
        let config = try #require(compilation.catalog.config)
        var images: [String: [UInt8]] = [:]
        for (path, asset) in compilation.catalog.images { if let bytes = asset.bytes { images[path] = bytes } }
        let planner = try BundlePlanner(config: config, images: images, environment: environment)
        let here = SourceLocation(path: "state.json")
        var messages: [HeldUpload] = []
        var heldImages: [String: HeldUpload] = [:]
        for localized in ReleasePlan(compilation: compilation).shipped {
            let planned = try planner.message(localized)
            var state = ReviewState.approved
            if localized.locale == "ar-SA" && localized.message.key.value == "winback" { state = .pending }
            if localized.locale == "de-DE" && localized.message.key.value == "offer" { state = .rejected }
            messages.append(HeldUpload(identifier: planned.identifier, state: state, location: here))
            for image in planned.images {
                heldImages[image.identifier] = HeldUpload(identifier: image.identifier, state: .approved, imageSize: image.size.rawValue, location: here)
            }
        }
        messages.append(HeldUpload(identifier: "0b7e6a52-9d41-5c3e-8f20-5a6b7c8d9e0f", state: .approved, location: here))
        var imageList = heldImages.keys.sorted().map { heldImages[$0]! }
        imageList.append(HeldUpload(identifier: "7c9e6679-7425-50de-944b-e07fc1f90ae7", state: .rejected, imageSize: "BULLET_POINT", location: here))
        return StateFile(messages: messages, images: imageList)
    }

    /// The state file's text, as the applier would save it.
    static func stateJSON(_ state: StateFile) -> String {
        JSONValue.object([
            "messages": ["messageIdentifiers": .array(state.messages.map {
                ["messageIdentifier": .string($0.identifier), "messageState": .string($0.state.rawValue)]
            })],
            "images": ["imageIdentifiers": .array(state.images.map {
                ["imageIdentifier": .string($0.identifier), "imageState": .string($0.state.rawValue), "imageSize": .string($0.imageSize ?? "")]
            })],
        ]).canonicalText
    }
}
