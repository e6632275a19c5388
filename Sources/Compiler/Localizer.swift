import Model

/// Binds each message to its translations in every locale of its product.
///
/// A translation counts when the unit's state reaches `minimumState` and its recorded source
/// equals the message's current source text; otherwise the field is a gap. A stale translation
/// (its recorded source differs) that reaches `minimumState` counts too, as the previous
/// translation, unless the message or msgc.yaml says `staleTranslations: withhold`: a source
/// edit changes nothing a translated locale ships until its translation comes back. Whether
/// the text passes the rules (against the source it translates) is Lint's business, not this type's.
public enum Localizer {
    public static func localize(_ catalog: Catalog) -> Localization {
        guard let config = catalog.config else { return Localization(candidates: [], gaps: [], fileForLocale: [:]) }
        let sourceLocale = config.sourceLocale.value
        let fileForLocale = catalog.fileForLocale(sourceLocale: sourceLocale)
        let projectLocales = Set(config.locales.map(\.value))
        let pseudoLocales = fileForLocale.keys.filter { PseudoLocale.isPseudo($0) && !projectLocales.contains($0) }.sorted()

        // Candidates come out sorted by product, locale and key. The messages are put in
        // product and key order once (catalog order where both are equal), in runs of one
        // product; each locale binds every message of its products into its place in that
        // order, and the locales' places are read run by run. Nothing is sorted after.
        let messages = catalog.messages
        let order = messages.indices.sorted {
            (messages[$0].product.value, messages[$0].key.value, $0) < (messages[$1].product.value, messages[$1].key.value, $1)
        }
        let productLocales = ProductLocales(config)
        var runs: [ProductRun] = []
        var runOfMessage = [Int](repeating: 0, count: messages.count)
        var runStart = 0
        while runStart < order.count {
            let product = messages[order[runStart]].product.value
            var runEnd = runStart + 1
            while runEnd < order.count && messages[order[runEnd]].product.value == product { runEnd += 1 }
            for position in runStart..<runEnd { runOfMessage[order[position]] = runs.count }
            runs.append(ProductRun(positions: runStart..<runEnd, locales: Set(productLocales[product] + pseudoLocales)))
            runStart = runEnd
        }
        let productRuns = runs
        let runOf = runOfMessage
        let locales = Set(runs.flatMap(\.locales)).sorted()
        // What every locale needs of a message, made once: one SharedMessage for all its
        // localized messages, its fields and the ids of their units.
        let prepared = messages.map { message in
            let fields = message.fields
            return PreparedMessage(
                shared: SharedMessage(message), fields: fields, unitIDs: fields.map { message.unitID(of: $0.field) })
        }
        var positionOfMessage = [Int](repeating: 0, count: messages.count)
        for (position, index) in order.enumerated() { positionOfMessage[index] = position }
        let positionOf = positionOfMessage

        // One task per locale. It binds the messages in catalog order, the order in which
        // `msgc extract` writes their units, so that a unit is nearly always the one after
        // the last found; each candidate goes to the message's place in the sorted order.
        var bound = locales.concurrentMap { locale in
            var binder = LocaleBinder(
                locale: locale, isSource: locale == sourceLocale, file: fileForLocale[locale], minimumState: config.minimumState,
                staleTranslations: config.staleTranslations)
            let applies = productRuns.map { $0.locales.contains(locale) }
            var slots = [LocalizedMessage?](repeating: nil, count: prepared.count)
            var partials: [LocalizedMessage?] = []
            var count = 0
            for index in prepared.indices where applies[runOf[index]] {
                binder.position = positionOf[index]
                guard let (localized, isComplete) = binder.bind(prepared[index]) else { continue }
                if isComplete {
                    slots[positionOf[index]] = localized
                    count += 1
                } else {
                    if partials.isEmpty { partials = [LocalizedMessage?](repeating: nil, count: prepared.count) }
                    partials[positionOf[index]] = localized
                }
            }
            return BoundLocale(
                slots: slots, partials: partials, count: count, gaps: binder.gaps, gapPositions: binder.gapPositions,
                previous: binder.previous, previousPositions: binder.previousPositions, boundUnits: binder.finder?.found)
        }

        // Each candidate is moved out of its slot, not copied: a copy retains each of the
        // message's texts once more, only to release them again.
        var candidates: [LocalizedMessage] = []
        candidates.reserveCapacity(bound.reduce(0) { $0 + $1.count })
        var partials: [LocalizedMessage] = []
        for run in productRuns {
            for locale in bound.indices {
                for position in run.positions {
                    if let candidate = bound[locale].slots[position].take() { candidates.append(candidate) }
                }
                guard !bound[locale].partials.isEmpty else { continue }
                for position in run.positions {
                    if let partial = bound[locale].partials[position].take() { partials.append(partial) }
                }
            }
        }
        // Gaps go in subject and field order: product and key are the message's position in
        // the sorted order, locales are in order already. Each gap is moved once, to its place,
        // and sorted by those integers: a gap holds its unit and strings, and comparing or
        // moving gaps themselves cost thousands of retains on a tree whose sources changed.
        var gapOrder: [(position: Int, locale: Int, field: MessageField, index: Int)] = []
        gapOrder.reserveCapacity(bound.reduce(0) { $0 + $1.gaps.count })
        for locale in bound.indices {
            for (gap, position) in zip(bound[locale].gaps.indices, bound[locale].gapPositions) {
                gapOrder.append((position, locale, bound[locale].gaps[gap].field, gap))
            }
        }
        gapOrder.sort { ($0.position, $0.locale, $0.field) < ($1.position, $1.locale, $1.field) }
        let gaps = gapOrder.map { bound[$0.locale].gaps[$0.index] }
        var previousOrder: [(position: Int, locale: Int, field: MessageField, index: Int)] = []
        for locale in bound.indices {
            for (item, position) in zip(bound[locale].previous.indices, bound[locale].previousPositions) {
                previousOrder.append((position, locale, bound[locale].previous[item].field, item))
            }
        }
        previousOrder.sort { ($0.position, $0.locale, $0.field) < ($1.position, $1.locale, $1.field) }
        var boundUnits: [String: [Bool]] = [:]
        for (locale, boundLocale) in zip(locales, bound) {
            if let path = fileForLocale[locale]?.path, let found = boundLocale.boundUnits { boundUnits[path] = found }
        }
        var localization = Localization(
            candidates: candidates, partials: partials, gaps: gaps, fileForLocale: fileForLocale.mapValues(\.path), boundUnits: boundUnits)
        localization.previousTranslations = previousOrder.map { bound[$0.locale].previous[$0.index] }
        return localization
    }

    /// Messages of one product, as positions in the sorted order, and the product's locales.
    private struct ProductRun {
        var positions: Range<Int>
        var locales: Set<String>
    }

    private struct PreparedMessage: Sendable {
        var shared: SharedMessage
        var fields: [(field: MessageField, text: Located<String>)]
        var unitIDs: [String]
    }

    /// One locale's candidates, each at its message's position in product and key order
    /// (nil where the message has none in the locale), and its gaps.
    private struct BoundLocale: Sendable {
        var slots: [LocalizedMessage?]
        /// Like `slots`, for the messages only partly translated; empty when there are none.
        var partials: [LocalizedMessage?]
        /// How many slots hold a candidate.
        var count: Int
        var gaps: [TranslationGap]
        /// The position, in product and key order, of each gap's message.
        var gapPositions: [Int]
        /// Stale fields that ship their previous translation, and their messages' positions.
        var previous: [TranslationGap]
        var previousPositions: [Int]
        /// Which units of the locale's file were found for a field (`Localization.boundUnits`).
        var boundUnits: [Bool]?
    }

    /// Binds messages in one locale: a candidate where every field has a usable translation,
    /// a partial message where only some fields carry one, and a gap for every field that has
    /// no usable translation (kept in `gaps`).
    private struct LocaleBinder {
        let locale: String
        let isSource: Bool
        let file: TranslationFile?
        let minimumState: TranslationState
        /// msgc.yaml's `staleTranslations`; a message's own wins.
        let staleTranslations: StaleTranslationPolicy
        var finder: UnitFinder?
        private(set) var gaps: [TranslationGap] = []
        /// Stale fields bound to their previous translation (`Localization.previousTranslations`).
        private(set) var previous: [TranslationGap] = []
        private(set) var previousPositions: [Int] = []
        /// The position, in product and key order, of the message being bound, and that of
        /// each gap's message.
        var position = 0
        private(set) var gapPositions: [Int] = []

        init(
            locale: String, isSource: Bool, file: TranslationFile?, minimumState: TranslationState,
            staleTranslations: StaleTranslationPolicy
        ) {
            self.locale = locale
            self.isSource = isSource
            self.file = file
            self.minimumState = minimumState
            self.staleTranslations = staleTranslations
            self.finder = file.map(UnitFinder.init)
        }

        /// The message in this locale: complete when every field has a usable translation,
        /// partial when only some fields carry one (nil when none does).
        mutating func bind(_ prepared: PreparedMessage) -> (localized: LocalizedMessage, isComplete: Bool)? {
            var texts = FieldTexts()
            texts.reserveCapacity(prepared.fields.count)
            var previousSources = FieldTexts()
            var stale: [TranslationGap] = []
            if isSource {
                for (field, text) in prepared.fields { texts[field] = text }
                return (LocalizedMessage(shared: prepared.shared, locale: locale, texts: texts, translationPath: nil), true)
            }
            // Read in place, never copied: the prepared messages and their strings are shared by
            // every locale's task, and a copy retains and releases them from every core.
            let path = file?.path
            let units = file?.units
            var complete = true
            for position in prepared.fields.indices {
                let field = prepared.fields[position].field
                guard let units, let index = finder!.find(prepared.unitIDs[position]) else {
                    record(TranslationGap(subject: subject(of: prepared), field: field, reason: .missing, unit: nil, translationPath: path))
                    complete = false
                    continue
                }
                // Each property read from the unit in its array: copying the whole unit out
                // would retain and release every string it holds.
                guard let target = units[index].target else {
                    record(TranslationGap(
                        subject: subject(of: prepared), field: field, reason: .missing, unit: units[index], translationPath: path))
                    complete = false
                    continue
                }
                if units[index].isAmbiguous {
                    record(TranslationGap(
                        subject: subject(of: prepared), field: field, reason: .ambiguous, unit: units[index], translationPath: path))
                    complete = false
                    continue
                }
                let state = units[index].state
                if state == .untranslated {
                    record(TranslationGap(
                        subject: subject(of: prepared), field: field, reason: .notTranslated(rawState: units[index].rawState),
                        unit: units[index], translationPath: path))
                    complete = false
                    continue
                }
                if units[index].source.value != prepared.fields[position].text.value {
                    let gap = TranslationGap(
                        subject: subject(of: prepared), field: field, reason: .stale(
                            recordedSource: units[index].source.value, currentSource: prepared.fields[position].text.value),
                        unit: units[index], translationPath: path)
                    let policy = prepared.shared.message.staleTranslations?.value ?? staleTranslations
                    // The previous translation ships where it would have shipped before the
                    // edit: reviewed far enough and, the rules permitting, against its own source.
                    if policy == .keepPrevious, state >= minimumState {
                        texts[field] = target
                        previousSources[field] = units[index].source
                        stale.append(gap)
                        continue
                    }
                    record(gap)
                    complete = false
                    continue
                }
                if state < minimumState {
                    record(TranslationGap(
                        subject: subject(of: prepared), field: field,
                        reason: .belowMinimumState(state: state, rawState: units[index].rawState),
                        unit: units[index], translationPath: path))
                    complete = false
                }
                // A translation below `minimumState` does not ship, but it is a translation:
                // the rules check it with the others.
                texts[field] = target
            }
            // A previous translation ships only with the whole message; in a message that
            // waits for other fields, the stale field waits too, and is reported as such.
            for gap in stale {
                if complete {
                    previous.append(gap)
                    previousPositions.append(position)
                } else {
                    record(gap)
                }
            }
            guard complete || !texts.isEmpty else { return nil }
            var localized = LocalizedMessage(shared: prepared.shared, locale: locale, texts: texts, translationPath: path)
            localized.previousSources = previousSources
            return (localized, complete)
        }

        private mutating func record(_ gap: TranslationGap) {
            gaps.append(gap)
            gapPositions.append(position)
        }

        private func subject(of prepared: PreparedMessage) -> Subject {
            let message = prepared.shared.message
            return Subject(product: message.product.value, key: message.key.value, locale: locale)
        }
    }

    /// Finds a file's units by id: the first unit with the id, as lint reports the others.
    ///
    /// Where the file's ids are known to be unique, the unit after the last one found is
    /// tried first, which is where `msgc extract` put it; only when that misses is an index
    /// of every id made, once.
    private struct UnitFinder {
        let units: [TranslationUnit]
        let hasUniqueIDs: Bool
        var next = 0
        var index: [String: Int]?
        /// Whether each unit has been found.
        var found: [Bool]

        init(_ file: TranslationFile) {
            units = file.units
            hasUniqueIDs = file.hasUniqueUnitIDs
            found = [Bool](repeating: false, count: file.units.count)
        }

        mutating func find(_ id: String) -> Int? {
            if hasUniqueIDs, next < units.count, units[next].id.value == id {
                found[next] = true
                next += 1
                return next - 1
            }
            if index == nil {
                let units = units
                index = Dictionary(units.indices.lazy.map { (units[$0].id.value, $0) }, uniquingKeysWith: { first, _ in first })
            }
            guard let position = index![id] else { return nil }
            found[position] = true
            next = position + 1
            return position
        }
    }
}
