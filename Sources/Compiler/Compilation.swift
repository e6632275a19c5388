import Bundle
import Diagnostics
import Foundation
import LanguageTags
import Lint
import Model
import Parser
import XLIFF

/// The front half of every command: read the tree, bind translations, run the rules.
public struct Compilation: Sendable {
    /// The content tree's folder (standardized) that the compilation read.
    public var root: URL
    public var catalog: Catalog
    public var localization: Localization
    /// Parser and rule findings together, at their rules' default severities: what a command
    /// hands to the policy with whatever it found itself (`SeverityPolicy.outcome(of:fails:)`).
    public var findings: [Diagnostic]
    /// msgc.yaml's `rules:` as a policy, without `--strict`, which is the command's.
    public var policy: SeverityPolicy
    /// `findings` under `policy`, sorted for output: what the stages after compiling read (the
    /// release plan, coverage, preview, the language server).
    public var diagnostics: [Diagnostic]

    public init(root: URL, catalog: Catalog, localization: Localization, findings: [Diagnostic], policy: SeverityPolicy) {
        self.root = root
        self.catalog = catalog
        self.localization = localization
        self.findings = findings
        self.policy = policy
        self.diagnostics = policy.settle(findings).sortedForOutput()
    }

    /// Reads and checks the content tree at `root`.
    public static func compile(root: URL) -> Compilation {
        compile(ContentTree(root: root))
    }

    /// Reads and checks `tree`, with the editor's text of its files where it has some
    /// (`ContentTree.overlay`) and what earlier loads read (`ContentTree.cache`). Translators'
    /// notes are not read: no rule and no command that compiles looks at them.
    public static func compile(_ tree: ContentTree) -> Compilation {
        var tree = tree
        tree.keepsTranslatorNotes = false
        let (catalog, parseDiagnostics) = tree.load()
        return compile(root: tree.root, loaded: catalog, parseDiagnostics)
    }

    /// Checks a tree already read (`ContentTree.load`), as `compile(_:)` does after reading it:
    /// extract and pseudo read translators' notes too, and judge what they read as build does.
    public static func compile(root: URL, loaded catalog: Catalog, _ parseDiagnostics: [Diagnostic]) -> Compilation {
        var parseDiagnostics = parseDiagnostics
        let localization = Localizer.localize(catalog)
        if let config = catalog.config {
            let binding = LocaleBinding(config)
            parseDiagnostics = parseDiagnostics.map { bindingLocale($0, binding) }
            parseDiagnostics = parseDiagnostics.map { suggestingLocale($0, catalog: catalog, config: config, binding: binding) }
        }
        // A readable XLIFF file that cannot be used at all (no target language, or the source
        // locale's) gets one diagnostic that says why, not one for every unit in it.
        let unusable = Set(catalog.unusableTranslationFiles.map(\.path))
        if !unusable.isEmpty {
            parseDiagnostics.removeAll { XLIFFDiagnostics.unitCodes.contains($0.code) && unusable.contains($0.location.path) }
        }
        let context = catalog.config.map { LintContext(catalog: catalog, config: $0, localization: localization) }
        let findings = context.map(Linter.lint(context:)) ?? []
        let settings = RuleSettings(catalog.config?.ruleSettings ?? [], codes: Codes.all)
        return Compilation(
            root: root, catalog: catalog, localization: localization, findings: parseDiagnostics + findings + settings.diagnostics,
            policy: SeverityPolicy(settings: settings))
    }

    /// A parser finding in an XLIFF file names the file's target language as written; where
    /// that is a project locale spelled otherwise (`de-de`, `de_DE`), the finding is about that locale.
    static func bindingLocale(_ diagnostic: Diagnostic, _ binding: LocaleBinding) -> Diagnostic {
        guard let locale = diagnostic.subject?.locale, binding.isVariantSpelling(locale) else { return diagnostic }
        var bound = diagnostic
        bound.subject?.locale = binding.locale(for: locale)
        return bound
    }

    /// XLF011 (no target language) names the locale the file's name suggests, if any: a
    /// project locale that a part of the path names (`de-DE.xliff`, `de_DE.xlf`, Xcode's
    /// `de.xcloc/Localized Contents/de.xliff`, `de.lproj`), else a well-formed tag it names.
    /// msgc never takes a locale from a name; the fix-it, where the tag is on one line, adds
    /// the attribute.
    static func suggestingLocale(_ diagnostic: Diagnostic, catalog: Catalog, config: ProjectConfig, binding: LocaleBinding) -> Diagnostic {
        guard diagnostic.code == XLIFFDiagnostics.missingTargetLanguage.code,
              let file = catalog.translationFiles.first(where: { $0.path == diagnostic.location.path }), let version = file.version,
              let locale = suggestedLocale(forPath: file.path, config: config, binding: binding)
        else { return diagnostic }
        let attribute = XLIFFDiagnostics.targetLanguageAttribute(version)
        var suggested = diagnostic
        suggested.message += "; its name suggests '\(locale)'"
        let insertion = " \(attribute)=\"\(locale)\""
        var edits: [FixIt.Edit] = []
        let location = diagnostic.location
        if let line = location.line, location.endLine == line, let endColumn = location.endColumn,
           let text = catalog.sourceFiles[file.path]?.line(line) {
            let scalars = Array(text.unicodeScalars)
            var close = endColumn - 2
            if close >= 1, close < scalars.count, scalars[close] == ">" {
                if scalars[close - 1] == "/" { close -= 1 }
                let at = SourceLocation(path: file.path, line: line, column: close + 1, endLine: line, endColumn: close + 1)
                edits = [.init(location: at, replacement: insertion)]
            }
        }
        suggested.fixIts = [FixIt("add \(attribute)=\"\(locale)\" if the file translates into \(locale)", edits: edits)]
        return suggested
    }

    /// The locale a translation file's path names: a project locale first, else a well-formed
    /// language tag; nil when no part of the path below `translations/` names one.
    static func suggestedLocale(forPath path: String, config: ProjectConfig, binding: LocaleBinding) -> String? {
        // Symfony, Sonata and Qt name files `DOMAIN.LOCALE.xlf` (`messages.de.xlf`,
        // `SonataAdminBundle.fr.xliff`, `validators.sr_Cyrl.xliff`): the part after the last dot
        // of a stem is a candidate too, before the stem itself.
        let parts = path.split(separator: "/").dropFirst().reversed().flatMap { part -> [String] in
            var stem = String(part)
            for suffix in [".xliff", ".xlf", ".xcloc", ".lproj"] where stem.lowercased().hasSuffix(suffix) {
                stem = String(stem.dropLast(suffix.count))
            }
            guard let dot = stem.lastIndex(of: "."), stem.index(after: dot) < stem.endIndex else { return [stem] }
            return [String(stem[stem.index(after: dot)...]), stem]
        }
        let projectLocales = Set(config.locales.map(\.value))
        for stem in parts where projectLocales.contains(binding.locale(for: stem)) {
            return binding.locale(for: stem)
        }
        // A language alone (`de`) names the one project locale of that language, if there is one.
        for stem in parts where stem.count == 2 || stem.count == 3 {
            let language = stem.lowercased()
            let matching = config.locales.map(\.value).filter { (locale: String) -> Bool in
                guard let first = locale.lowercased().split(separator: "-").first else { return false }
                return String(first) == language
            }
            if matching.count == 1 { return matching[0] }
        }
        for stem in parts {
            let tag = String(stem.map { $0 == "_" ? "-" : $0 })
            // A lone three-letter stem (`app`, `ios`) is more often a name than a language.
            let primary = tag.prefix { $0 != "-" }
            guard !tag.isEmpty, tag.count <= 35, primary.count == 2 || tag.contains("-") else { continue }
            if LanguageTagChecker.checkValidity(tag).isEmpty { return tag }
        }
        return nil
    }

    /// Source text for every file a diagnostic points into: what the tree's one read kept
    /// (`ContentTree.load`), so that no snippet reads a file again.
    public var snippetSources: [String: SourceFile] { catalog.sourceFiles }

    /// Whether a finding is an I/O failure (exit status 2) rather than a content mistake.
    public var hasIOFailure: Bool {
        diagnostics.contains { ParserDiagnostics.ioFailureCodes.contains($0.code) }
    }

    /// The findings that are I/O failures: the files msgc could not read.
    public var ioFailures: [Diagnostic] {
        diagnostics.filter { ParserDiagnostics.ioFailureCodes.contains($0.code) }
    }
}

/// What a build ships, what it leaves out, and what stops it.
///
/// Errors in message sources or msgc.yaml stop a build. A translation that fails a rule only
/// keeps its message from shipping in that locale, and an XLIFF file that cannot be read is
/// left out whole: one translator's mistake never blocks every other locale's release.
public struct ReleasePlan: Sendable {
    /// Error findings outside translations: any one stops the build.
    public var blockingErrors: [Diagnostic]
    /// The localized messages that ship, sorted by product, locale and key. Pseudo locales never do.
    public var shipped: [LocalizedMessage]
    /// Localized messages left out because a rule failed on their translation.
    public var leftOut: [(subject: Subject, reasons: [Diagnostic])]
    /// Every product × locale × message key of the sources that does not ship, with why: the
    /// manifest's `notShipped`.
    public var notShipped: [Manifest.NotShipped] = []

    /// The entries of `notShipped` that are a product's default message waiting for its
    /// translation, by `PRODUCT/LOCALE`: Apple's current default there is what the locale
    /// shows until then, not a stray one (STA010).
    public func waitingDefaults(_ catalog: Catalog) -> [String: Manifest.NotShipped] {
        let defaultKeys = Set(catalog.messages.filter(\.isDefaultMessage).map { "\($0.product.value)/\($0.key.value)" })
        var result: [String: Manifest.NotShipped] = [:]
        for entry in notShipped where entry.reason.waitsForTranslation && defaultKeys.contains("\(entry.product)/\(entry.key)") {
            result["\(entry.product)/\(entry.locale)"] = entry
        }
        return result
    }

    public init(compilation: Compilation) {
        let sourceLocale = compilation.catalog.config?.sourceLocale.value
        blockingErrors = compilation.diagnostics.filter { Self.blocksBuild($0, sourceLocale: sourceLocale) }
        var failing: [Subject: [Diagnostic]] = [:]
        for diagnostic in compilation.diagnostics where diagnostic.severity == .error {
            guard let subject = diagnostic.subject, subject.locale != nil else { continue }
            failing[subject, default: []].append(diagnostic)
        }
        shipped = compilation.localization.candidates.filter { failing[$0.subject] == nil && !PseudoLocale.isPseudo($0.locale) }
        leftOut = failing.keys.sorted().map { ($0, failing[$0]!) }
        notShipped = Self.notShipped(compilation, shipped: shipped, failing: Set(failing.keys))
    }

    /// Every product × locale × message key of the sources that `shipped` leaves out, with why
    /// (`Manifest.NotShipped`), sorted by product, locale and key.
    static func notShipped(_ compilation: Compilation, shipped: [LocalizedMessage], failing: Set<Subject>) -> [Manifest.NotShipped] {
        guard let config = compilation.catalog.config else { return [] }
        let shippedSubjects = Set(shipped.map(\.subject))
        var gapsBySubject: [Subject: [TranslationGap]] = [:]
        for gap in compilation.localization.gaps { gapsBySubject[gap.subject, default: []].append(gap) }
        let unreadable = unreadableLocales(compilation.catalog, config: config)
        let productLocales = ProductLocales(config)
        var keys = Set<Subject>()
        var result: [Manifest.NotShipped] = []
        for message in compilation.catalog.messages where keys.insert(message.subject).inserted {
            for locale in productLocales[message.product.value] where !PseudoLocale.isPseudo(locale) {
                let subject = Subject(product: message.product.value, key: message.key.value, locale: locale)
                guard !shippedSubjects.contains(subject) else { continue }
                let reason: Manifest.NotShipped.Reason
                if unreadable.contains(locale) {
                    reason = .unreadableFile
                } else if failing.contains(subject) {
                    reason = .failingRules
                } else {
                    reason = Self.reason(gapsBySubject[subject] ?? [], minimumState: config.minimumState)
                }
                result.append(.init(product: subject.product, locale: locale, key: subject.key, reason: reason))
            }
        }
        return result.sorted()
    }

    /// Why a message's gaps keep it from shipping: a field without any translation first, then
    /// a stale one withheld, then one below `minimumState`. No gap at all (a message whose
    /// source has an error) counts as untranslated.
    private static func reason(_ gaps: [TranslationGap], minimumState: TranslationState) -> Manifest.NotShipped.Reason {
        var withheld = false
        var belowMinimum = false
        for gap in gaps {
            switch gap.reason {
            case .missing, .notTranslated, .ambiguous: return .untranslated
            case .stale: if let unit = gap.unit, unit.state >= minimumState { withheld = true } else { belowMinimum = true }
            case .belowMinimumState: belowMinimum = true
            }
        }
        if withheld { return .withheldStale }
        return belowMinimum ? .belowMinimumState : .untranslated
    }

    /// Locales without a readable XLIFF file that an unreadable file names (its target
    /// language, else its path): their translations exist but could not be read.
    private static func unreadableLocales(_ catalog: Catalog, config: ProjectConfig) -> Set<String> {
        let readable = catalog.fileForLocale(sourceLocale: config.sourceLocale.value)
        let binding = LocaleBinding(config)
        var result = Set<String>()
        for file in catalog.translationFiles where !file.isReadable {
            let named = file.targetLanguage.map { binding.locale(for: $0.value) }
                ?? Compilation.suggestedLocale(forPath: file.path, config: config, binding: binding)
            if let locale = named, readable[locale] == nil { result.insert(locale) }
        }
        return result
    }

    /// Whether a finding stops a build: an error in the message sources or the configuration,
    /// not one in a translation (which only leaves its message out in that locale).
    public static func blocksBuild(_ diagnostic: Diagnostic, sourceLocale: String?) -> Bool {
        guard diagnostic.severity == .error else { return false }
        if diagnostic.location.path.hasPrefix("translations/") { return false }
        if let locale = diagnostic.subject?.locale, locale != sourceLocale { return false }
        return true
    }
}
