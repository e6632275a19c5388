/// The kind of record in the IANA Language Subtag Registry (its `Type` field).
///
/// `grandfathered` and `redundant` records describe whole tags (their `Tag` field) rather
/// than single subtags: grandfathered tags from the RFC 3066 era that don't fit the grammar
/// or the registry, and redundant tags that are well-formed but were registered whole.
public enum SubtagType: String, Hashable, Sendable, CaseIterable {
    case language
    case extlang
    case script
    case region
    case variant
    case grandfathered
    case redundant

    /// The noun a message uses for a subtag of this type: `'UK' is not a registered region subtag`.
    var noun: String {
        switch self {
        case .language: "language subtag"
        case .extlang: "extended language subtag"
        case .script: "script subtag"
        case .region: "region subtag"
        case .variant: "variant subtag"
        case .grandfathered: "grandfathered tag"
        case .redundant: "redundant tag"
        }
    }
}
