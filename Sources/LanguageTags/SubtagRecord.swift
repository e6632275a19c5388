/// What the IANA Language Subtag Registry says about one subtag, or about one whole tag for
/// the `grandfathered` and `redundant` types.
///
/// Only the fields a validator needs are kept; descriptions, dates and comments are left in
/// the registry text (`scripts/data/language-subtag-registry.txt`).
public struct SubtagRecord: Hashable, Sendable {
    public var type: SubtagType
    /// The subtag in its conventional case (`en`, `Latn`, `GB`, `1996`), or the whole tag for
    /// grandfathered and redundant records (`i-klingon`, `zh-yue`).
    public var subtag: String
    /// The registry has a `Deprecated` date for it.
    public var isDeprecated: Bool
    /// Reserved for private use (`qaa`..`qtz`, `Qaaa`..`Qabx`, `AA`, `QM`..`QZ`, `XA`..`XZ`, `ZZ`).
    public var isPrivateUse: Bool
    /// The registry's `Preferred-Value`: a subtag of the same type for language, script, region
    /// and variant records (`iw` → `he`), a whole tag for extlang, grandfathered and redundant
    /// records (`zh-yue` → `yue`). Extlang records always have one: the equivalent language.
    public var preferredValue: String?
    /// The registry's `Prefix` fields: the tags a variant or extlang is meant to follow. For a
    /// variant this is guidance only (RFC 5646 section 2.2.5); validity doesn't depend on it.
    public var prefixes: [String]
    /// The script that should not be written with this language (`en-Latn`), if any.
    public var suppressScript: String?
    /// The macrolanguage that encompasses this language (`nb` → `no`, `cmn` → `zh`), if any.
    public var macrolanguage: String?

    public init(
        type: SubtagType, subtag: String, isDeprecated: Bool = false, isPrivateUse: Bool = false,
        preferredValue: String? = nil, prefixes: [String] = [], suppressScript: String? = nil,
        macrolanguage: String? = nil
    ) {
        self.type = type
        self.subtag = subtag
        self.isDeprecated = isDeprecated
        self.isPrivateUse = isPrivateUse
        self.preferredValue = preferredValue
        self.prefixes = prefixes
        self.suppressScript = suppressScript
        self.macrolanguage = macrolanguage
    }
}
