import Diagnostics
import LanguageTags
import Model
internal import Yams

/// Reads `msgc.yaml` into a `ProjectConfig`.
public enum ConfigParser {
    public static let knownKeys = [
        "bundleId", "sourceLocale", "locales", "extraLocales", "namespace", "minimumState", "lengthMeasure", "staleTranslations",
        "products", "rules",
    ]
    public static let productKeys = ["id", "locales", "group", "realtime"]
    /// The keys of a weighted `realtime:` entry.
    public static let realtimeArmKeys = ["message", "weight"]
    /// The largest weight a `realtime:` entry may have.
    public static let maxRealtimeWeight = RealtimeChoice.maxWeight
    /// The keys nothing can stand in for, in the order `msgc init` writes them.
    public static let requiredKeys = ["bundleId", "sourceLocale", "locales", "namespace", "products"]

    /// Parses the text of `msgc.yaml`. The config is nil only when the file is unusable
    /// (malformed, not a mapping, or missing a field nothing can stand in for).
    public static func parse(bytes: [UInt8], path: String = ProjectConfig.fileName) -> (ProjectConfig?, SourceFile?, [Diagnostic]) {
        let (document, parseDiagnostics) = YAMLDocument.parse(bytes: bytes, path: path)
        guard let document else { return (nil, nil, parseDiagnostics) }
        var diagnostics = parseDiagnostics
        guard let root = document.root else {
            // libyaml gives no document for a file of nothing but white space and comments;
            // that is a config missing every field, not a clean one.
            if diagnostics.isEmpty {
                diagnostics.append(ParserDiagnostics.missingField.diagnose(
                    "msgc.yaml is empty; it needs \(requiredKeys.joined(separator: ", "))",
                    at: SourceLocation(path: path, line: 1),
                    fixIts: [FixIt("add the required keys; `msgc init` writes a complete msgc.yaml")]))
            }
            return (nil, document.source, diagnostics)
        }
        guard var reader = MappingReader(root, in: document, context: "msgc.yaml", diagnostics: &diagnostics) else {
            return (nil, document.source, diagnostics)
        }

        let bundleId = reader.string("bundleId", required: true)
        var sourceLocale = reader.string("sourceLocale", required: true)
        if let source = sourceLocale, pathSafeLocales([source], into: &diagnostics).isEmpty { sourceLocale = nil }
        let localeList = reader.strings("locales", required: true)
        let locales = pathSafeLocales(localeList ?? [], into: &diagnostics)
        let extraLocales = pathSafeLocales(reader.strings("extraLocales") ?? [], into: &diagnostics)
        let namespace = reader.string("namespace", required: true)
        let minimumState = reader.choice("minimumState", as: ReadinessLevel.self)
        let lengthMeasure = reader.choice("lengthMeasure", as: LengthMeasure.self)
        let staleTranslations = reader.choice("staleTranslations", as: StaleTranslationPolicy.self)
        var products: [ProductConfig] = []
        let productList = reader.sequence("products", required: true)
        if let (nodes, _) = productList {
            for node in nodes {
                guard var productReader = MappingReader(node, in: document, context: "product", diagnostics: &diagnostics) else { continue }
                let id = productReader.string("id", required: true)
                let productLocales = productReader.strings("locales").map { pathSafeLocales($0, into: &diagnostics) }
                let group = productReader.string("group")
                let realtime = realtimeChoice(&productReader, in: document, into: &diagnostics)
                productReader.finish(known: productKeys)
                diagnostics += productReader.diagnostics
                if let id { products.append(ProductConfig(id: id, locales: productLocales, group: group, realtime: realtime)) }
            }
        }
        let ruleSettings = reader.ruleSettings("rules")
        reader.finish(known: knownKeys)
        diagnostics += reader.diagnostics

        if let namespace, UUIDText.parse(namespace.value) == nil {
            diagnostics.append(ParserDiagnostics.invalidNamespace.diagnose(
                "namespace '\(namespace.value)' is not a UUID", at: namespace.valueSpan,
                fixIts: [FixIt("use a UUID such as the one `msgc init` writes, and never change it after uploading")]))
        }
        if let bundleId { checkPathSafe(bundleId, what: "bundleId", into: &diagnostics) }
        var seenProducts = Set<String>()
        for product in products {
            checkPathSafe(product.id, what: "product id", into: &diagnostics)
            if !seenProducts.insert(product.id.value).inserted {
                diagnostics.append(ParserDiagnostics.duplicateProduct.diagnose(
                    "product '\(product.id.value)' is listed more than once", at: product.id.valueSpan))
            }
            checkDuplicates(product.locales ?? [], into: &diagnostics)
            for locale in product.locales ?? [] where !locales.contains(where: { $0.value == locale.value }) {
                diagnostics.append(ParserDiagnostics.productLocaleNotListed.diagnose(
                    "product '\(product.id.value)' lists locale '\(locale.value)', which is not in the project's locales",
                    at: locale.valueSpan, fixIts: [productLocaleFixIt(locale.value, projectLocales: locales)]))
            }
        }
        checkDuplicates(locales, into: &diagnostics)
        if let sourceLocale, !locales.isEmpty, !locales.contains(where: { $0.value == sourceLocale.value }) {
            diagnostics.append(ParserDiagnostics.sourceLocaleNotListed.diagnose(
                "sourceLocale '\(sourceLocale.value)' is not in `locales`", at: sourceLocale.valueSpan,
                fixIts: [FixIt("add '\(sourceLocale.value)' to `locales`")]))
        }
        if localeList?.isEmpty == true || (localeList?.isEmpty == false && locales.isEmpty) {
            diagnostics.append(ParserDiagnostics.emptyProjectList.diagnose("`locales` lists no locale", at: reader.location))
        }
        if let productList, productList.nodes.isEmpty {
            diagnostics.append(ParserDiagnostics.emptyProjectList.diagnose("`products` lists no product", at: reader.location))
        }

        guard let bundleId, let sourceLocale, let namespace else { return (nil, document.source, diagnostics) }
        var config = ProjectConfig(
            bundleId: bundleId, sourceLocale: sourceLocale, locales: locales, extraLocales: extraLocales,
            namespace: namespace, minimumState: minimumState?.value.state ?? .translated,
            lengthMeasure: lengthMeasure?.value ?? .utf16, products: products)
        config.ruleSettings = ruleSettings
        config.staleTranslations = staleTranslations?.value ?? .keepPrevious
        return (config, document.source, diagnostics)
    }

    /// A product's `realtime:`: message keys (the first usable one wins) or `{message: KEY,
    /// weight: N}` entries (a split), never both in one list, each message once. Nil when the
    /// product has none or lists nothing usable.
    private static func realtimeChoice(
        _ reader: inout MappingReader, in document: YAMLDocument, into diagnostics: inout [Diagnostic]
    ) -> RealtimeChoice? {
        guard let (nodes, location) = reader.sequence("realtime") else { return nil }
        var mode: RealtimeChoice.Mode?
        var arms: [RealtimeChoice.Arm] = []
        var seen = Set<String>()
        for node in nodes {
            let arm: RealtimeChoice.Arm
            let entryMode: RealtimeChoice.Mode
            switch node {
            case .scalar(let scalar) where !scalar.isNull:
                arm = RealtimeChoice.Arm(message: document.located(scalar))
                entryMode = .firstUsable
            case .mapping:
                guard var armReader = MappingReader(node, in: document, context: "realtime entry", diagnostics: &diagnostics) else { continue }
                let message = armReader.string("message", required: true)
                let weightText = armReader.string("weight", required: true)
                armReader.finish(known: realtimeArmKeys)
                diagnostics += armReader.diagnostics
                guard let message, let weightText else { continue }
                guard let weight = Int(weightText.value), String(weight) == weightText.value, (1...maxRealtimeWeight).contains(weight) else {
                    diagnostics.append(ParserDiagnostics.invalidRealtimeList.diagnose(
                        "weight '\(weightText.value)' of '\(message.value)' must be a whole number from 1 to \(maxRealtimeWeight)",
                        at: weightText.valueSpan, fixIts: [FixIt("write a whole number such as 1; each entry's share is its weight over the sum")]))
                    continue
                }
                arm = RealtimeChoice.Arm(message: message, weight: weight)
                entryMode = .weighted
            default:
                diagnostics.append(ParserDiagnostics.wrongType.diagnose(
                    "each entry of 'realtime' must be a message key or {message: KEY, weight: N}, not \(node.kindDescription)",
                    at: document.location(of: node)))
                continue
            }
            if let mode, mode != entryMode {
                diagnostics.append(ParserDiagnostics.invalidRealtimeList.diagnose(
                    "'realtime' mixes message keys and weighted entries; a list is either the one or the other",
                    at: document.location(of: node),
                    fixIts: [FixIt("write every entry as a key (the first usable one wins) or every entry as {message: KEY, weight: N} (a split)")]))
                continue
            }
            mode = entryMode
            guard seen.insert(arm.message.value).inserted else {
                diagnostics.append(ParserDiagnostics.invalidRealtimeList.diagnose(
                    "message '\(arm.message.value)' is listed twice in 'realtime'", at: arm.message.valueSpan,
                    fixIts: [FixIt("list each message once\(entryMode == .weighted ? "; give it the sum of both weights" : "")")]))
                continue
            }
            arms.append(arm)
        }
        guard let mode, !arms.isEmpty else { return nil }
        return RealtimeChoice(mode: mode, arms: arms, location: location)
    }

    /// What to do about a product locale the project does not list. A tag that is not valid
    /// BCP 47 or not in canonical form (`en_US`, `EN-us`) must not be copied into `locales`:
    /// the fix-it names the corrected tag when the project lists it, and otherwise asks for one
    /// of the project's locales.
    private static func productLocaleFixIt(_ tag: String, projectLocales: [Located<String>]) -> FixIt {
        let findings = LanguageTagChecker.checkValidity(tag)
        guard !findings.isEmpty else { return FixIt("add '\(tag)' to `locales`, or remove it here") }
        if let corrected = findings.last(where: { $0.replacement != nil })?.replacement,
           projectLocales.contains(where: { $0.value == corrected }) {
            return FixIt("use '\(corrected)', which `locales` lists")
        }
        return FixIt("use one of the project's `locales`, or remove it here")
    }

    /// Whether a bundle or product id holds only what bundle paths and identifiers may: ASCII
    /// letters, digits, '.', '_' and '-', and is one safe path segment (`PathSegment`): not `.`
    /// or `..`, at most 255 bytes.
    public static func isPathSafe(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "_")
        } && (value.isEmpty || PathSegment.isSafe(value))
    }

    private static func checkPathSafe(_ value: Located<String>, what: String, into diagnostics: inout [Diagnostic]) {
        guard !isPathSafe(value.value) || value.value.isEmpty else { return }
        let shown = value.value.count > 80 ? String(value.value.prefix(60)) + "…" : value.value
        let problem = PathSegment.problem(with: value.value).map { "\(what) '\(shown)' \($0)" }
            ?? "\(what) '\(shown)' may hold only ASCII letters, digits, '.', '_' and '-'"
        diagnostics.append(ParserDiagnostics.invalidProductId.diagnose(problem, at: value.valueSpan))
    }

    /// Keeps the locales that can name a file (`PathSegment`), reporting the others: msgc
    /// writes `LOCALE.html` and `defaults/PRODUCT/LOCALE.json`, so a locale holding `../` must
    /// never reach a command, whatever else lint says of it.
    private static func pathSafeLocales(_ list: [Located<String>], into diagnostics: inout [Diagnostic]) -> [Located<String>] {
        list.filter { locale in
            guard let problem = PathSegment.problem(with: locale.value) else { return true }
            diagnostics.append(ParserDiagnostics.localeNotAFileName.diagnose(
                "locale '\(locale.value)' \(problem); msgc names files after locales, so it is left out",
                at: locale.valueSpan, fixIts: [FixIt("write a BCP 47 tag such as 'de-DE'")]))
            return false
        }
    }

    private static func checkDuplicates(_ list: [Located<String>], into diagnostics: inout [Diagnostic]) {
        var seen = Set<String>()
        for item in list where !seen.insert(item.value).inserted {
            diagnostics.append(ParserDiagnostics.duplicateProduct.diagnose(
                "locale '\(item.value)' is listed more than once", at: item.valueSpan))
        }
    }
}

/// The words `minimumState` accepts.
public enum ReadinessLevel: String, CaseIterable, Sendable {
    case translated, reviewed, final

    public var state: TranslationState {
        switch self {
        case .translated: .translated
        case .reviewed: .reviewed
        case .final: .final
        }
    }
}
