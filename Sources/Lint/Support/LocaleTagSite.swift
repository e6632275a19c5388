import Diagnostics
import LanguageTags
import Model

/// One place where the project writes a locale tag: msgc.yaml's `sourceLocale`, `locales`,
/// `extraLocales` and product `locales`, and each XLIFF file's target language.
struct LocaleTagSite {
    var tag: Located<String>
    /// Entries of `extraLocales` need only be valid BCP 47: they exist to admit codes App Store
    /// Connect adds after msgc's list was written.
    var isExtraLocale: Bool
    /// An XLIFF file's pseudo locale (`en-XA`, `ar-XB`, `en-x-pseudo`) need only be valid BCP 47
    /// too: it is never an App Store code, and the build never ships it.
    var isPseudoLocale = false
    /// For an XLIFF file's target language that binds to none of the project's locales: the
    /// file's path and how many units it holds, none of which is used.
    var unusedFile: (path: String, unitCount: Int)?
}

extension LocaleTagSite {
    /// Every site of the project, configuration first, then the XLIFF files.
    static func all(in catalog: Catalog, config: ProjectConfig, binding: LocaleBinding) -> [LocaleTagSite] {
        var sites = [LocaleTagSite(tag: config.sourceLocale, isExtraLocale: false)]
        sites += config.locales.map { LocaleTagSite(tag: $0, isExtraLocale: false) }
        sites += config.extraLocales.map { LocaleTagSite(tag: $0, isExtraLocale: true) }
        for product in config.products {
            sites += (product.locales ?? []).map { LocaleTagSite(tag: $0, isExtraLocale: false) }
        }
        // A target language that names a project locale in another case or with `_` binds to
        // it: LOC008 or LOC009 says so, and the spelling is no error here.
        let projectLocales = Set(([config.sourceLocale] + config.locales).map(\.value))
        sites += catalog.translationFiles.compactMap { file in
            file.targetLanguage.flatMap { tag in
                guard !binding.isVariantSpelling(tag.value) else { return nil }
                let isPseudo = PseudoLocale.isPseudo(tag.value)
                let isUsed = isPseudo || projectLocales.contains(tag.value) || !file.isReadable
                return LocaleTagSite(
                    tag: tag, isExtraLocale: false, isPseudoLocale: isPseudo,
                    unusedFile: isUsed ? nil : (file.path, file.units.count))
            }
        }
        return sites
    }

    /// What LanguageTags finds wrong with the tag, most fundamental first.
    func findings(config: ProjectConfig) -> [LanguageTagFinding] {
        isValidityOnly
            ? LanguageTagChecker.checkValidity(tag.value)
            : LanguageTagChecker.check(tag.value, extraLocales: config.extraLocales.map(\.value))
    }

    /// Whether only the tag's validity is checked (extra and pseudo locales), not its form.
    private var isValidityOnly: Bool { isExtraLocale || isPseudoLocale }

    /// Each site with its findings. A project names most tags twice, in msgc.yaml and as an
    /// XLIFF file's target language: a tag written the same way is checked once.
    static func findings(of sites: [LocaleTagSite], config: ProjectConfig) -> [(site: LocaleTagSite, findings: [LanguageTagFinding])] {
        var checked: [String: [LanguageTagFinding]] = [:]
        return sites.map { site in
            let key = (site.isValidityOnly ? "v " : "c ") + site.tag.value
            if let findings = checked[key] { return (site, findings) }
            let findings = site.findings(config: config)
            checked[key] = findings
            return (site, findings)
        }
    }
}

extension LintContext {
    /// Diagnostics for every finding of one of `kinds`, pointing at the offending subtags, with
    /// the corrected tag as a fix-it.
    func localeDiagnostics<Rule: LintRule>(
        _ rule: Rule, kinds: Set<LanguageTagFinding.Kind>, message: (LanguageTagFinding) -> String = \.message
    ) -> [Diagnostic] {
        localeTagFindings.flatMap { site, findings in
            findings.filter { kinds.contains($0.kind) }.map { finding in
                var fixIts: [FixIt] = []
                if let replacement = finding.replacement {
                    let edits: [FixIt.Edit] = site.tag.style == .opaque ? [] : [.init(location: site.tag.valueSpan, replacement: replacement)]
                    fixIts.append(FixIt("use '\(replacement)'", edits: edits))
                }
                // A target language no project locale answers to costs the whole file: say how much.
                var text = message(finding)
                if let (path, count) = site.unusedFile, count > 0 {
                    text += count == 1 ? "; the 1 unit of '\(path)' is not used" : "; none of the \(count) units of '\(path)' is used"
                }
                return rule.diagnose(
                    text, at: location(of: site.tag, atScalarOffset: finding.scalarOffset, length: finding.scalarLength),
                    fixIts: fixIts)
            }
        }
    }
}
