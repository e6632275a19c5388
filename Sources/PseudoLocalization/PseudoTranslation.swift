import Foundation
import LanguageTags
import Model
import XLIFF

/// What `msgc pseudo` writes: an XLIFF file for a pseudo locale whose every unit is translated
/// by `PseudoLocalizer`, for every message of every product.
///
/// The file goes where translators' files go (`translations/`), so the Localizer binds it like
/// any other and lint and preview see it; the build never ships a pseudo locale (the bundle
/// planner refuses one). Units carry the state the project's `minimumState` asks for, since a
/// pseudo-translation is as current as the source it was made from, and running the command
/// again after the source changes makes it current again.
public enum PseudoTranslation {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noConfiguration
        case notPseudo(String)
        case invalidTag(String, reason: String)
        case projectLocale(String)
        case expansionOutOfRange(Double)

        public var description: String {
            switch self {
            case .noConfiguration:
                "the content tree has no usable msgc.yaml; run `msgc lint` to see why"
            case .notPseudo(let locale):
                "'\(locale)' is not a pseudo locale; use \(PseudoLocale.accented) (accented and expanded), \(PseudoLocale.rightToLeft) (right to left) or a tag ending in -x-pseudo, such as en-x-pseudo"
            case .invalidTag(let locale, let reason):
                "'\(locale)' is not a valid BCP 47 tag in canonical case: \(reason)"
            case .projectLocale(let locale):
                "'\(locale)' is one of the project's locales in msgc.yaml; a pseudo locale must stay out of them, since every locale there ships"
            case .expansionOutOfRange(let value):
                "--expansion takes a fraction from 0 to 3 (0.35 is 35% longer), not \(value)"
            }
        }
    }

    /// Checks that `locale` can be a pseudo locale of this project.
    public static func validate(locale: String, config: ProjectConfig) throws(Failure) {
        if let finding = LanguageTagChecker.checkValidity(locale).first {
            throw .invalidTag(locale, reason: finding.message)
        }
        guard PseudoLocale.isPseudo(locale) else { throw .notPseudo(locale) }
        let projectLocales = [config.sourceLocale] + config.locales + config.products.flatMap { $0.locales ?? [] }
        if projectLocales.contains(where: { $0.value == locale }) { throw .projectLocale(locale) }
    }

    /// A pseudo-translation: the XLIFF text and what it holds.
    public struct Output: Sendable {
        public var document: String
        public var unitCount: Int
        /// Unit ids whose pseudo-translation is longer than Apple's limit for the field, sorted:
        /// what lint will report as forecasts in this locale.
        public var overflowing: [String]
    }

    /// The XLIFF document for `locale`, every source text pseudo-translated with `expansion`.
    public static func make(
        catalog: Catalog, locale: String, expansion: Double, version: TranslationFile.Version, toolVersion: String
    ) throws(Failure) -> Output {
        guard let config = catalog.config else { throw .noConfiguration }
        guard (0...3).contains(expansion) else { throw .expansionOutOfRange(expansion) }
        try validate(locale: locale, config: config)
        let localizer = PseudoLocalizer(
            expansion: expansion, isRightToLeft: LocaleDirection.isRightToLeft(locale), measure: config.lengthMeasure)
        let state = max(TranslationState.translated, config.minimumState)
        var units: [String: TranslationUnit] = [:]
        var overflowing: [String] = []
        for message in catalog.messages {
            for (field, text) in message.fields {
                let id = message.unitID(of: field)
                let target = localizer.translate(text.value)
                units[id] = TranslationUnit(
                    id: Located(id, at: text.location), source: text,
                    target: Located(target, at: text.location), state: state, location: text.location)
                if config.lengthMeasure.count(target.precomposedStringWithCanonicalMapping) > field.maxLength { overflowing.append(id) }
            }
        }
        let document = XLIFFWriter.write(
            config: config, messages: catalog.messages, locale: locale, existing: units, version: version, toolVersion: toolVersion)
        return Output(document: document, unitCount: units.count, overflowing: Array(Set(overflowing)).sorted())
    }
}
