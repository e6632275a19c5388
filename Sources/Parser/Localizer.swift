import Model

/// Binds each message to its translations in every locale of its product.
///
/// A translation counts when the unit's state reaches `minimumState` and its recorded source
/// equals the message's current source text; otherwise the field is a gap. Whether the text
/// passes the rules is Lint's business, not this type's.
public enum Localizer {
    public static func localize(_ catalog: Catalog) -> Localization {
        guard let config = catalog.config else { return Localization(candidates: [], gaps: [], fileForLocale: [:]) }
        let sourceLocale = config.sourceLocale.value

        let fileForLocale = translationFiles(catalog, sourceLocale: sourceLocale)
        var unitsByLocale: [String: [String: TranslationUnit]] = [:]
        for (locale, file) in fileForLocale {
            var units: [String: TranslationUnit] = [:]
            for unit in file.units where units[unit.id.value] == nil { units[unit.id.value] = unit }
            unitsByLocale[locale] = units
        }

        let projectLocales = Set(config.locales.map(\.value))
        let pseudoLocales = fileForLocale.keys.filter { PseudoLocale.isPseudo($0) && !projectLocales.contains($0) }.sorted()
        var candidates: [LocalizedMessage] = []
        var gaps: [TranslationGap] = []
        for message in catalog.messages {
            let fields = message.fields
            // The unit ids are the same in every locale: made once per message.
            let unitIDs = fields.map { "\(message.id)/\($0.field)" }
            for locale in config.locales(of: message.product.value) + pseudoLocales {
                if locale == sourceLocale {
                    var texts: [MessageField: Located<String>] = [:]
                    for (field, text) in fields { texts[field] = text }
                    candidates.append(LocalizedMessage(message: message, locale: locale, texts: texts, translationPath: nil))
                    continue
                }
                let subject = Subject(product: message.product.value, key: message.key.value, locale: locale)
                let units = unitsByLocale[locale] ?? [:]
                let path = fileForLocale[locale]?.path
                var texts: [MessageField: Located<String>] = [:]
                var complete = true
                for ((field, source), unitID) in zip(fields, unitIDs) {
                    guard let unit = units[unitID], let target = unit.target, unit.state > .untranslated else {
                        gaps.append(TranslationGap(subject: subject, field: field, reason: .missing, unit: units[unitID], translationPath: path))
                        complete = false
                        continue
                    }
                    if unit.source.value != source.value {
                        gaps.append(TranslationGap(
                            subject: subject, field: field, reason: .stale(recordedSource: unit.source.value), unit: unit, translationPath: path))
                        complete = false
                        continue
                    }
                    if unit.state < config.minimumState {
                        gaps.append(TranslationGap(
                            subject: subject, field: field, reason: .belowMinimumState(state: unit.state, rawState: unit.rawState),
                            unit: unit, translationPath: path))
                        complete = false
                        continue
                    }
                    texts[field] = target
                }
                if complete {
                    candidates.append(LocalizedMessage(message: message, locale: locale, texts: texts, translationPath: path))
                }
            }
        }
        candidates.sort { ($0.message.product.value, $0.locale, $0.message.key.value) < ($1.message.product.value, $1.locale, $1.message.key.value) }
        gaps.sort { ($0.subject, $0.field) < ($1.subject, $1.field) }
        return Localization(candidates: candidates, gaps: gaps, fileForLocale: fileForLocale.mapValues(\.path))
    }

    /// The file that translates each locale: the first readable one in bytewise path order
    /// (lint reports the others). The source locale has none.
    public static func translationFiles(_ catalog: Catalog, sourceLocale: String) -> [String: TranslationFile] {
        var fileForLocale: [String: TranslationFile] = [:]
        for file in catalog.translationFiles where file.isReadable {
            guard let locale = file.targetLanguage?.value, locale != sourceLocale, fileForLocale[locale] == nil else { continue }
            fileForLocale[locale] = file
        }
        return fileForLocale
    }
}
