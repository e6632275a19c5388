import Diagnostics
import Model

/// Finds a translation file none of whose units belongs to the project: not made by
/// `msgc extract` (translate-toolkit's `po2xliff` numbers its units `1`, `2`… and drops msgc's
/// ids), or made for another project. One error about the file says so and what to do; the
/// per-unit findings it would otherwise bring (TRN003 "the unit can be deleted" on every unit,
/// TRN006 counting every field) are folded into it.
struct ForeignTranslationFile: LintRule {
    static let info = RuleInfo(
        code: "TRN008", name: "foreign-translation-file", severity: .error,
        summary: "No unit of a translation file belongs to the project.",
        rationale: """
            msgc matches units by their id, `PRODUCT/KEY/FIELD`, which `msgc extract` writes. A file \
            whose units all miss, and none of whose ids names a product of the project, was not made \
            by `msgc extract` for this project: a converter such as translate-toolkit's `po2xliff` \
            numbers units `1`, `2`… and drops the ids, or the file is another project's. None of its \
            translations can ship, so it is one error about the file rather than a warning that each \
            unit can be deleted. Translate the file `msgc extract --locale L` writes; to keep the work \
            already done, copy each target into the unit of that file with the same source text.
            """,
        examples: [
            .valid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium")]),
            .invalid("header: Stay with Premium", extraFiles: ["translations/de-DE.xliff": TranslationExamples.xliff(source: "Stay with Premium", target: "Bleiben Sie bei Premium", unitID: "1", mark: .unitID)]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        ForeignTranslationFiles.find(in: context.catalog, localization: context.localization).map { found in
            let units = found.file.units
            let shown = units.prefix(3).map { "'\($0.id.value)'" }.joined(separator: ", ") + (units.count > 3 ? "…" : "")
            let why = found.namesNoProduct
                ? "their ids (\(shown)) are not msgc's PRODUCT/KEY/FIELD, so the file was not made by `msgc extract`"
                : "their ids (\(shown)) name no product of this project, so the file was made for another one"
            let locale = found.locale.map { " --locale \($0)" } ?? ""
            return diagnose(
                "none of the \(units.count) unit\(units.count == 1 ? "" : "s") of this file matches a message field of the project: \(why); none of its translations can ship",
                at: units[0].id.valueSpan,
                fixIts: [FixIt("translate the file `msgc extract\(locale)` writes; to keep this work, copy each target into the unit there with the same source text")])
        }
    }
}

/// The translation files whose units all miss the project (`ForeignTranslationFile`), which
/// the orphan rule and the translator's report leave to that one error.
public enum ForeignTranslationFiles {
    public struct Found: Sendable {
        public var file: TranslationFile
        /// Whether no unit id has msgc's shape at all (po2xliff), rather than naming products of
        /// another project.
        public var namesNoProduct: Bool
        public var locale: String?
    }

    public static func find(in catalog: Catalog, localization: Localization) -> [Found] {
        guard let config = catalog.config else { return [] }
        let products = Set(config.products.map(\.id.value))
        let unusable = Set(catalog.unusableTranslationFiles.map(\.path))
        let waiting = WaitingUnits(catalog)
        let localeOfFile = Dictionary(localization.fileForLocale.map { ($1, $0) }, uniquingKeysWith: min)
        var found: [Found] = []
        for file in catalog.translationFiles where file.isReadable && !file.units.isEmpty && !unusable.contains(file.path) {
            if let bound = localization.boundUnits[file.path], bound.contains(true) { continue }
            var namesNoProduct = true
            let belongs = file.units.contains { unit in
                guard let parsed = unit.parsedID else { return false }
                namesNoProduct = false
                return products.contains(parsed.product) || !waiting.sources(for: unit).isEmpty
            }
            guard !belongs else { continue }
            found.append(Found(file: file, namesNoProduct: namesNoProduct, locale: localeOfFile[file.path]))
        }
        return found
    }

    /// The paths of `find`'s files.
    public static func paths(in catalog: Catalog, localization: Localization) -> Set<String> {
        Set(find(in: catalog, localization: localization).map(\.file.path))
    }
}
