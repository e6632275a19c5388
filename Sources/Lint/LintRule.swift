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
    public var catalog: Catalog
    public var config: ProjectConfig
    public var localization: Localization

    public init(catalog: Catalog, config: ProjectConfig, localization: Localization) {
        self.catalog = catalog
        self.config = config
        self.localization = localization
    }
}
