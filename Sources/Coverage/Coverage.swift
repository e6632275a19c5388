import Bundle
import Compiler
import Diagnostics
import Model

/// Computes the coverage matrix from a compilation: a pure function of its inputs.
public enum Coverage {
    /// The matrix for `compilation`. A message is ready in a locale when every field has a
    /// usable translation (not missing, at least `minimumState`; a stale one that ships as the
    /// previous translation counts, and is listed as such), no error
    /// diagnostic concerns it there (in the source locale, none concerns its source either),
    /// and, with a state file, Apple holds it and every image it uses as APPROVED, identifiers
    /// computed for `environment` exactly as `msgc build` computes them.
    public static func report(compilation: Compilation, environment: Environment, state: StateFile?) -> CoverageReport {
        let catalog = compilation.catalog
        let plan = ReleasePlan(compilation: compilation)
        guard let config = catalog.config else {
            return CoverageReport(
                environment: environment, hasState: state != nil, sourceLocale: "", locales: [], products: [], localeTotals: [],
                totals: Tally(), blockingErrorCount: plan.blockingErrors.count)
        }
        let sourceLocale = config.sourceLocale.value

        var gaps: [Subject: [TranslationGap]] = [:]
        for gap in compilation.localization.gaps { gaps[gap.subject, default: []].append(gap) }
        var errors: [Subject: [Diagnostic]] = [:]
        for diagnostic in compilation.diagnostics where diagnostic.severity == .error {
            if let subject = diagnostic.subject { errors[subject, default: []].append(diagnostic) }
        }
        var previous: [Subject: [String]] = [:]
        for item in compilation.localization.previousTranslations { previous[item.subject, default: []].append(item.field.description) }
        var candidates: [Subject: LocalizedMessage] = [:]
        for candidate in compilation.localization.candidates where candidates[candidate.subject] == nil {
            candidates[candidate.subject] = candidate
        }
        let planner: BundlePlanner? = state == nil ? nil : {
            var images: [String: [UInt8]] = [:]
            for (path, asset) in catalog.images { if let bytes = asset.bytes { images[path] = bytes } }
            return try? BundlePlanner(config: config, images: images, environment: environment)
        }()

        var products: [ProductCoverage] = []
        // Each product's messages in catalog order, found once rather than by a pass over
        // every message for every product.
        let messagesOfProduct = Dictionary(grouping: catalog.messages, by: \.product.value)
        let productLocales = ProductLocales(config)
        for product in config.products {
            let productId = product.id.value
            let messages = (messagesOfProduct[productId] ?? [])
                .sorted { $0.key.value.utf8.lexicographicallyPrecedes($1.key.value.utf8) }
            let defaultKey = messagesOfProduct[productId]?.first(where: \.isDefaultMessage)?.key.value
            var cells: [CoverageCell] = []
            var productTally = Tally()
            for locale in productLocales[productId] {
                var notReady: [NotReadyMessage] = []
                var previousTranslation: [PreviousTranslationMessage] = []
                for message in messages {
                    let subject = Subject(product: productId, key: message.key.value, locale: locale)
                    var messageErrors = errors[subject] ?? []
                    if locale == sourceLocale { messageErrors += errors[message.subject] ?? [] }
                    var reasons = translationReasons(gaps[subject] ?? []) + ruleReasons(messageErrors)
                    if reasons.isEmpty {
                        if let candidate = candidates[subject] {
                            if let state, let planner { reasons = stateReasons(candidate, planner: planner, state: state) }
                        } else {
                            reasons = [.missing(fields: [])]
                        }
                    }
                    if !reasons.isEmpty {
                        notReady.append(NotReadyMessage(key: message.key.value, isDefault: message.key.value == defaultKey, reasons: reasons))
                    } else if let fields = previous[subject] {
                        previousTranslation.append(PreviousTranslationMessage(
                            key: message.key.value, isDefault: message.key.value == defaultKey, fields: fields))
                    }
                }
                let isDefaultReady = defaultKey.map { key in !notReady.contains { $0.key == key } } ?? false
                var cell = CoverageCell(
                    product: productId, locale: locale, messageCount: messages.count, readyCount: messages.count - notReady.count,
                    isDefaultReady: isDefaultReady, notReady: notReady)
                cell.previousTranslation = previousTranslation
                productTally.add(cell)
                cells.append(cell)
            }
            products.append(ProductCoverage(
                product: productId, defaultKey: defaultKey, messageCount: messages.count, cells: cells, totals: productTally))
        }

        var locales: [String] = []
        var seen = Set<String>()
        let projectOrder = [sourceLocale] + config.locales.map(\.value)
        for locale in projectOrder + products.flatMap({ $0.cells.map(\.locale) }) where seen.insert(locale).inserted {
            if products.contains(where: { $0.cells.contains { $0.locale == locale } }) { locales.append(locale) }
        }
        var localeTotals: [LocaleTotal] = []
        var totals = Tally()
        for locale in locales {
            var tally = Tally()
            for product in products { for cell in product.cells where cell.locale == locale { tally.add(cell) } }
            localeTotals.append(LocaleTotal(locale: locale, totals: tally))
        }
        for product in products { for cell in product.cells { totals.add(cell) } }

        return CoverageReport(
            environment: environment, hasState: state != nil, sourceLocale: sourceLocale, locales: locales, products: products,
            localeTotals: localeTotals, totals: totals, blockingErrorCount: plan.blockingErrors.count)
    }

    /// Missing, not translated, stale, below-minimum-state and ambiguous fields, one reason per kind.
    static func translationReasons(_ gaps: [TranslationGap]) -> [CoverageReason] {
        let sorted = gaps.sorted { $0.field < $1.field }
        var missing: [String] = []
        var notTranslated: [String] = []
        var untranslatedStates: [String] = []
        var stale: [String] = []
        var below: [String] = []
        var belowStates: [String] = []
        var ambiguous: [String] = []
        for gap in sorted {
            switch gap.reason {
            case .missing: missing.append(gap.field.description)
            case .notTranslated(let rawState):
                notTranslated.append(gap.field.description)
                let written = rawState ?? "no state"
                if !untranslatedStates.contains(written) { untranslatedStates.append(written) }
            case .stale: stale.append(gap.field.description)
            case .belowMinimumState(let state, let rawState):
                below.append(gap.field.description)
                let written = rawState ?? state.rawValue
                if !belowStates.contains(written) { belowStates.append(written) }
            case .ambiguous: ambiguous.append(gap.field.description)
            }
        }
        var reasons: [CoverageReason] = []
        if !missing.isEmpty { reasons.append(.missing(fields: missing)) }
        if !notTranslated.isEmpty { reasons.append(.notTranslated(fields: notTranslated, states: untranslatedStates.sorted())) }
        if !stale.isEmpty { reasons.append(.stale(fields: stale)) }
        if !below.isEmpty { reasons.append(.belowMinimumState(fields: below, states: belowStates.sorted())) }
        if !ambiguous.isEmpty { reasons.append(.ambiguous(fields: ambiguous)) }
        return reasons
    }

    /// One reason per distinct error (code and message), sorted.
    static func ruleReasons(_ diagnostics: [Diagnostic]) -> [CoverageReason] {
        var seen = Set<String>()
        return diagnostics
            .filter { seen.insert($0.code + "\u{0}" + $0.message).inserted }
            .sorted { $0.code != $1.code ? $0.code < $1.code : $0.message.utf8.lexicographicallyPrecedes($1.message.utf8) }
            .map { .failingRule(code: $0.code, message: $0.message) }
    }

    /// What keeps a message that passes every rule from being live at Apple: the message or
    /// one of its images rejected, pending, or not uploaded yet.
    static func stateReasons(_ candidate: LocalizedMessage, planner: BundlePlanner, state: StateFile) -> [CoverageReason] {
        guard let planned = try? planner.message(candidate) else { return [] }
        var uploads = [UploadReference(kind: .message, identifier: planned.identifier)]
        var seen = Set<String>()
        for image in planned.images where seen.insert(image.identifier).inserted {
            uploads.append(UploadReference(kind: .image, identifier: image.identifier, imagePath: image.path))
        }
        var rejected: [CoverageReason] = []
        var pending: [CoverageReason] = []
        for upload in uploads {
            let held = upload.kind == .message ? state.message(upload.identifier) : state.image(upload.identifier)
            switch held?.state {
            case .approved: continue
            case .rejected: rejected.append(.rejected(upload: upload))
            case nil: pending.append(.pending(upload: upload, state: nil))
            case .some(let other): pending.append(.pending(upload: upload, state: other.rawValue))
            }
        }
        return rejected + pending
    }
}
