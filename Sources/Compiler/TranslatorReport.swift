import Diagnostics
import Lint
import Model

/// The closing notes of a translator's report: what `msgc lint translations/de-DE.xliff` says
/// about the file as a whole, after its findings.
///
/// The findings say what is wrong in the units a translator wrote; these notes say what is
/// still missing and what waits on someone else, which no single unit shows: how many of the
/// locale's fields have no usable translation in the file (TRN006), and how many units wait
/// for message sources with errors (TRN007). They are diagnostics of severity note, so that
/// the human report, JSON, SARIF and GitHub show them alike, `--strict` leaves them notes, and
/// msgc.yaml's `rules:` can turn them off. Each sits at the file's last line, so that it closes
/// the file's findings in the sorted report. Only `msgc lint` with paths makes them: a writer's
/// whole-tree lint asks `msgc coverage` for the same counts, per product.
public enum TranslatorReport {
    public static let untranslatedFields = RuleInfo(
        code: "TRN006", name: "untranslated-fields", severity: .note,
        summary: "A translation file leaves some of its locale's fields without a usable translation.",
        rationale: """
            A translator who lints their own file should learn what is left to do, not only what \
            is wrong with what they did. `msgc lint` on a translation file ends with one note that \
            counts the fields of the file's locale that have no usable translation there: no unit, \
            no target text, a state that says not translated yet, a translation of an older \
            source, a state below `minimumState`, or two units that disagree. A message ships in \
            a locale only when every field has one; `msgc coverage` shows which messages wait. \
            The note is made only when `msgc lint` is given paths, for the translation files among \
            them. When no field of the locale has a usable translation in the file, it is a warning \
            instead (so `--strict` fails) that says the file gives nothing usable, and the report \
            ends with it; a file none of whose units belongs to the project has TRN008 instead.
            """,
        examples: [
            .validFile(examplePath, ExampleFiles.xliff()),
            .invalidFile(examplePath, ExampleFiles.xliff(fields: Array(ExampleFiles.germanTargets.prefix(1)), close: "⟦</xliff>⟧")),
        ])

    public static let unitsWaitForSources = RuleInfo(
        code: "TRN007", name: "units-wait-for-message-sources", severity: .note,
        summary: "Units of a translation file wait for message sources with errors.",
        rationale: """
            When a message source has an error that keeps a message from being read (a misspelt \
            `type`, broken YAML, a missing key), its units in every translation match no message \
            that msgc could read. They are not orphans, and deleting them would lose good work: \
            the mistake is the writer's. `msgc lint` on a translation file, which does not report \
            the errors in the sources, ends with one note that counts those units and names the \
            sources they wait for; TRN003 leaves them alone.
            """,
        examples: [
            .validFile(examplePath, ExampleFiles.xliff()),
            .invalid("type: txt", extraFiles: [examplePath: ExampleFiles.xliff(close: "⟦</xliff>⟧")]),
        ])

    public static let infos = [untranslatedFields, unitsWaitForSources]
    public static let codes: Set<String> = Set(infos.map(\.code))

    /// The notes for each readable translation file whose path `isReported` accepts, in path
    /// order, at their default severity (note): the command's policy settles them with the rest.
    public static func notes(for compilation: Compilation, reportingOn isReported: (String) -> Bool) -> [Diagnostic] {
        let catalog = compilation.catalog
        guard let config = catalog.config else { return [] }
        let files = catalog.translationFiles.filter { $0.isReadable && isReported($0.path) }
        guard !files.isEmpty else { return [] }
        let localeOfFile = Dictionary(compilation.localization.fileForLocale.map { ($1, $0) }, uniquingKeysWith: min)
        let waiting = WaitingUnits(catalog)
        // A file none of whose units belongs to the project is one error (TRN008): counting
        // every field as missing from it would only repeat that.
        let foreign = ForeignTranslationFiles.paths(in: catalog, localization: compilation.localization)
        var notes: [Diagnostic] = []
        for file in files {
            guard let location = closingLocation(of: file.path, in: catalog) else { continue }
            if let locale = localeOfFile[file.path], !foreign.contains(file.path),
               let note = untranslatedNote(file: file, locale: locale, compilation: compilation, config: config, at: location) {
                notes.append(note)
            }
            if !waiting.isEmpty, let note = waitingNote(file: file, compilation: compilation, waiting: waiting, at: location) {
                notes.append(note)
            }
        }
        return notes
    }

    /// TRN006: the locale's fields without a usable translation in `file`, by why.
    private static func untranslatedNote(
        file: TranslationFile, locale: String, compilation: Compilation, config: ProjectConfig, at location: SourceLocation
    ) -> Diagnostic? {
        let gaps = compilation.localization.gaps
        var counts = [Int](repeating: 0, count: GapKind.allCases.count)
        var missing = 0
        for index in gaps.indices where gaps[index].subject.locale == locale {
            counts[GapKind(gaps[index]).rawValue] += 1
            missing += 1
        }
        guard missing > 0 else { return nil }
        let productLocales = ProductLocales(config)
        // A pseudo locale the project does not list covers every product (`Localizer`).
        let coversEveryProduct = PseudoLocale.isPseudo(locale) && !config.locales.contains { $0.value == locale }
        var fieldCount = 0
        for message in compilation.catalog.messages where coversEveryProduct || productLocales[message.product.value].contains(locale) {
            fieldCount += message.fields.count
        }
        let reasons = GapKind.allCases.compactMap { kind in counts[kind.rawValue] == 0 ? nil : kind.describe(counts[kind.rawValue]) }
        let verb = missing == 1 ? "has" : "have"
        if fieldCount > 0 && missing >= fieldCount {
            // Nothing in the file can ship: a warning (so `--strict` fails), and the report
            // ends with it rather than with "no problems found".
            var warning = Diagnostic(
                code: untranslatedFields.code, severity: .warning, location: location,
                message: "this file gives no usable translation: all \(fieldCount) \(locale) field\(fieldCount == 1 ? "" : "s") \(verb) none in it (\(reasons.joined(separator: ", "))); `msgc coverage --locale \(locale)` shows which messages wait for them")
            warning.isAboutWholeFile = true
            return warning
        }
        return Diagnostic(
            code: untranslatedFields.code, severity: untranslatedFields.severity, location: location,
            message: "\(missing) of \(fieldCount) \(locale) field\(fieldCount == 1 ? "" : "s") \(verb) no usable translation in this file (\(reasons.joined(separator: ", "))); `msgc coverage --locale \(locale)` shows which messages wait for them")
    }

    /// TRN007: the units of `file` that match no message field but wait for damaged sources.
    private static func waitingNote(
        file: TranslationFile, compilation: Compilation, waiting: WaitingUnits, at location: SourceLocation
    ) -> Diagnostic? {
        let bound = compilation.localization.boundUnits[file.path]
        var fields: Set<String>?
        var count = 0
        var sources = Set<String>()
        // Misspelt products, each with the listed product its units name (the did-you-mean).
        var misspelt: [String: String] = [:]
        for index in file.units.indices where bound?[index] != true {
            let found = waiting.sources(for: file.units[index])
            guard !found.isEmpty else { continue }
            if fields == nil { fields = Set(compilation.catalog.messages.flatMap { message in message.fields.map { message.unitID(of: $0.field) } }) }
            guard !fields!.contains(file.units[index].id.value) else { continue }
            count += 1
            sources.formUnion(found)
            if let listed = file.units[index].parsedID?.product {
                for unlisted in waiting.unlistedProducts(for: file.units[index]) where misspelt[unlisted] == nil { misspelt[unlisted] = listed }
            }
        }
        guard count > 0 else { return nil }
        let paths = sources.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let shown = paths.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (paths.count > 3 ? " and \(paths.count - 3) more" : "")
        let noun = paths.count == 1 ? "message source has errors" : "message sources have errors"
        return Diagnostic(
            code: unitsWaitForSources.code, severity: unitsWaitForSources.severity, location: location,
            message: "\(paths.count) \(noun) (\(shown)): \(count) unit\(count == 1 ? "" : "s") of this file wait\(count == 1 ? "s" : "") for \(paths.count == 1 ? "it" : "them") to be fixed and \(count == 1 ? "is" : "are") not checked until then; they are not orphans, keep them"
                + misspelt.keys.sorted().map { "; unknown product '\($0)' in the source (did you mean '\(misspelt[$0]!)'?)" }.joined(),
            fixIts: [FixIt("ask the message writer to fix the sources (`msgc lint messages/`)")])
    }

    /// The file's last line that holds more than white space, spanning its text: where a note
    /// about the whole file closes the file's findings.
    static func closingLocation(of path: String, in catalog: Catalog) -> SourceLocation? {
        guard let source = catalog.sourceFiles[path] else { return SourceLocation(path: path) }
        var number = source.lineCount
        while number > 0 {
            if let line = source.line(number) {
                let scalars = Array(line.unicodeScalars)
                if let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
                   let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) {
                    return SourceLocation(path: path, line: number, column: first + 1, endLine: number, endColumn: last + 2)
                }
            }
            number -= 1
        }
        return SourceLocation(path: path)
    }

    /// Why a field has no usable translation, in the order the note lists them.
    private enum GapKind: Int, CaseIterable {
        case noUnit, noTarget, notTranslated, stale, belowMinimumState, ambiguous

        init(_ gap: TranslationGap) {
            switch gap.reason {
            case .missing: self = gap.unit == nil ? .noUnit : .noTarget
            case .notTranslated: self = .notTranslated
            case .stale: self = .stale
            case .belowMinimumState: self = .belowMinimumState
            case .ambiguous: self = .ambiguous
            }
        }

        func describe(_ count: Int) -> String {
            switch self {
            case .noUnit: "\(count) with no unit"
            case .noTarget: "\(count) with no target text"
            case .notTranslated: "\(count) not translated yet"
            case .stale: "\(count) translating an older source"
            case .belowMinimumState: "\(count) below minimumState"
            case .ambiguous: "\(count) in conflicting units"
            }
        }
    }

    // MARK: - Examples

    private static let examplePath = "translations/de-DE.xliff"
}
