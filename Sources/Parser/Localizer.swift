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
        // Each file's units by id, the first of a repeated id winning (lint reports the others),
        // one file per task. Positions, not units: copying a unit retains each of its strings,
        // and only a gap needs a copy.
        let localesWithFiles = fileForLocale.keys.sorted()
        let unitIndexes = localesWithFiles.concurrentMap { locale in
            let units = fileForLocale[locale]!.units
            return Dictionary(units.indices.lazy.map { (units[$0].id.value, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let unitIndexByLocale = Dictionary(uniqueKeysWithValues: zip(localesWithFiles, unitIndexes))

        let projectLocales = Set(config.locales.map(\.value))
        let pseudoLocales = fileForLocale.keys.filter { PseudoLocale.isPseudo($0) && !projectLocales.contains($0) }.sorted()
        var productLocales: [String: [String]] = [:]
        for message in catalog.messages where productLocales[message.product.value] == nil {
            productLocales[message.product.value] = config.locales(of: message.product.value) + pseudoLocales
        }
        let localesOfProduct = productLocales
        // Messages are bound independently: in chunks on every core, joined in message order,
        // so the stable sorts below see exactly the order a single loop would make.
        let messages = catalog.messages
        let chunkSize = 16
        let bound = Array(stride(from: 0, to: messages.count, by: chunkSize)).concurrentMap { start in
            var candidates: [LocalizedMessage] = []
            var gaps: [TranslationGap] = []
            for message in messages[start..<min(start + chunkSize, messages.count)] {
                bind(
                    message, locales: localesOfProduct[message.product.value]!, sourceLocale: sourceLocale, config: config,
                    fileForLocale: fileForLocale, unitIndexByLocale: unitIndexByLocale, candidates: &candidates, gaps: &gaps)
            }
            return (candidates, gaps)
        }
        var candidates = bound.flatMap(\.0)
        var gaps = bound.flatMap(\.1)
        // Sorted through their positions: a LocalizedMessage holds a whole Message, and moving
        // one in a merge sort costs far more than comparing two sort keys.
        let order = candidates.indices.sorted {
            (candidates[$0].message.product.value, candidates[$0].locale, candidates[$0].message.key.value)
                < (candidates[$1].message.product.value, candidates[$1].locale, candidates[$1].message.key.value)
        }
        candidates = order.map { candidates[$0] }
        gaps.sort { ($0.subject, $0.field) < ($1.subject, $1.field) }
        return Localization(candidates: candidates, gaps: gaps, fileForLocale: fileForLocale.mapValues(\.path))
    }

    /// Binds one message in each of `locales`: a candidate where every field has a usable
    /// translation, and a gap for every field that has none.
    private static func bind(
        _ message: Message, locales: [String], sourceLocale: String, config: ProjectConfig,
        fileForLocale: [String: TranslationFile], unitIndexByLocale: [String: [String: Int]],
        candidates: inout [LocalizedMessage], gaps: inout [TranslationGap]
    ) {
        let fields = message.fields
        let shared = SharedMessage(message)
        // The unit ids are the same in every locale: made once per message.
        let unitIDs = fields.map { "\(message.id)/\($0.field)" }
        for locale in locales {
            if locale == sourceLocale {
                var texts: [MessageField: Located<String>] = [:]
                texts.reserveCapacity(fields.count)
                for (field, text) in fields { texts[field] = text }
                candidates.append(LocalizedMessage(shared: shared, locale: locale, texts: texts, translationPath: nil))
                continue
            }
            let subject = Subject(product: message.product.value, key: message.key.value, locale: locale)
            let file = fileForLocale[locale]
            let unitIndex = unitIndexByLocale[locale] ?? [:]
            let path = file?.path
            var texts: [MessageField: Located<String>] = [:]
            texts.reserveCapacity(fields.count)
            var complete = true
            for ((field, source), unitID) in zip(fields, unitIDs) {
                guard let file, let index = unitIndex[unitID] else {
                    gaps.append(TranslationGap(subject: subject, field: field, reason: .missing, unit: nil, translationPath: path))
                    complete = false
                    continue
                }
                guard let target = file.units[index].target, file.units[index].state > .untranslated else {
                    gaps.append(TranslationGap(subject: subject, field: field, reason: .missing, unit: file.units[index], translationPath: path))
                    complete = false
                    continue
                }
                if file.units[index].source.value != source.value {
                    gaps.append(TranslationGap(
                        subject: subject, field: field, reason: .stale(recordedSource: file.units[index].source.value),
                        unit: file.units[index], translationPath: path))
                    complete = false
                    continue
                }
                if file.units[index].state < config.minimumState {
                    let unit = file.units[index]
                    gaps.append(TranslationGap(
                        subject: subject, field: field, reason: .belowMinimumState(state: unit.state, rawState: unit.rawState),
                        unit: unit, translationPath: path))
                    complete = false
                    continue
                }
                texts[field] = target
            }
            if complete {
                candidates.append(LocalizedMessage(shared: shared, locale: locale, texts: texts, translationPath: path))
            }
        }
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
