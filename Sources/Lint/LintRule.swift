import Diagnostics
import LanguageTags
import Model

/// One check over the catalog. A rule returns findings; it never reads files, prints,
/// looks at other rules or knows an output format.
public protocol LintRule: Sendable {
    static var info: RuleInfo { get }
    init()
    func check(_ context: LintContext) -> [Diagnostic]
}

extension LintRule {
    /// A diagnostic of this rule's code and default severity.
    func diagnose(
        _ message: String, at location: SourceLocation, notes: [Note] = [], fixIts: [FixIt] = [], subject: Subject? = nil
    ) -> Diagnostic {
        Diagnostic(
            code: Self.info.code, severity: Self.info.severity, location: location, message: message, notes: notes,
            fixIts: fixIts, subject: subject)
    }
}

/// What every rule sees: the catalog, its configuration and the messages bound to their translations.
public struct LintContext: Sendable {
    public let catalog: Catalog
    public let config: ProjectConfig
    public let localization: Localization
    /// Every text of every message in every locale: the candidates' and then the partly
    /// translated messages' (`Localization.partials`), each in field order. Made once here rather than by
    /// each of the dozen rules that walk it.
    let fieldTexts: [FieldText]
    /// The field texts with a scalar that some character rule may report (`FieldText.isNotable`),
    /// in the same order: a clean project has next to none, so the seven character rules
    /// (TXT002–TXT008) look at these rather than each walking every text (and, on every core at
    /// once, taking and dropping a reference to each).
    let textsWithNotableScalars: [FieldText]
    /// Every image reference of every message, in message order, for the image rules.
    let imageUses: [ImageUse]
    /// Every place that writes a locale tag, with what is wrong with the tag. Five locale rules
    /// report from this, each a kind of finding: the tags are checked once.
    let localeTagFindings: [(site: LocaleTagSite, findings: [LanguageTagFinding])]
    /// Which project locale each XLIFF target language names, ignoring case: made once for the
    /// rules that compare files' locales.
    let localeBinding: LocaleBinding

    public init(catalog: Catalog, config: ProjectConfig, localization: Localization) {
        self.catalog = catalog
        self.config = config
        self.localization = localization
        self.fieldTexts = FieldText.all(in: localization)
        self.textsWithNotableScalars = fieldTexts.filter { !$0.notableScalars.isEmpty }
        self.imageUses = ImageUse.all(in: catalog)
        self.localeBinding = LocaleBinding(config)
        self.localeTagFindings = LocaleTagSite.findings(of: LocaleTagSite.all(in: catalog, config: config, binding: localeBinding), config: config)
    }
}
