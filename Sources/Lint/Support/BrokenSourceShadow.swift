import Model

/// What message sources with errors may have said: one bad indent must not bring a cascade of
/// findings that only hold because the broken source was not read (IMG011 "delete the file"
/// for an image it uses, PRJ003 for the default it holds, PRJ012 for the key `realtime:` names).
/// A rule that judges the whole tree by what its sources say asks this before it reports.
struct BrokenSourceShadow {
    private let ids: Set<String>
    private let products: Set<String>
    private let hasUnnamed: Bool
    private let texts: [String]

    init(_ catalog: Catalog) {
        var ids = Set<String>()
        var products = Set<String>()
        for source in catalog.damagedSources {
            for id in source.messageIDs {
                ids.insert(id)
                if let slash = id.lastIndex(of: "/") { products.insert(String(id[..<slash])) }
            }
        }
        self.ids = ids
        self.products = products
        hasUnnamed = catalog.damagedSources.contains(where: \.hasUnnamedMessages)
        texts = catalog.damagedSources.compactMap { catalog.sourceFiles[$0.path]?.text }
    }

    /// Whether a broken source may hold a message of `product`.
    func mayHoldMessage(of product: String) -> Bool { hasUnnamed || products.contains(product) }

    /// Whether a broken source may hold message `key` of `product`.
    func mayHold(product: String, key: String) -> Bool { hasUnnamed || ids.contains("\(product)/\(key)") }

    /// Whether a broken source's text names `path` (an image it may use).
    func mentions(_ path: String) -> Bool { texts.contains { $0.contains(path) } }
}
