/// A well-formed BCP 47 language tag (RFC 5646), split into subtags that know their role and
/// where they sit in the text.
///
/// Parsing checks only the grammar: `en-UK` and `eng-US` are well-formed even though `UK`
/// and `eng` are not registered. `validate()` checks the registry, `canonicalized()` and
/// `withCanonicalCase()` give the preferred spelling, and `LanguageTagChecker` combines them
/// into findings for a lint rule.
///
/// A grandfathered tag (`i-klingon`, `en-GB-oed`, `zh-min-nan`, …) is one subtag with the role
/// `.grandfathered` covering the whole text, because its parts mean nothing on their own.
/// Offsets count Unicode scalars from the start of `text`; a parsed tag is all ASCII, so they
/// are also UTF-8 and UTF-16 offsets.
public struct LanguageTag: Hashable, Sendable, CustomStringConvertible {
    /// One subtag of a tag, as written.
    public struct Subtag: Hashable, Sendable {
        /// What a subtag is, from its position and shape (RFC 5646 section 2.1).
        public enum Role: Hashable, Sendable {
            /// 2–3 letters (ISO 639), 4 letters (reserved) or 5–8 letters (registered).
            case language
            /// 3 letters after a 2–3 letter language; at most three, of which only the first can be valid.
            case extlang
            /// 4 letters (ISO 15924).
            case script
            /// 2 letters (ISO 3166-1) or 3 digits (UN M.49).
            case region
            /// 5–8 letters or digits, or a digit and 3 letters or digits.
            case variant
            /// The single letter or digit that starts an extension (`u` in `-u-ca-gregory`).
            case extensionSingleton
            /// A 2–8 character subtag of an extension.
            case extensionSubtag
            /// The `x` that starts the private-use part.
            case privateUseSingleton
            /// A 1–8 character subtag after `x`.
            case privateUseSubtag
            /// A whole grandfathered tag.
            case grandfathered
        }

        public let text: String
        public let role: Role
        /// Where the subtag starts in the tag, in Unicode scalars.
        public let scalarOffset: Int

        /// The subtag's length in Unicode scalars (it is ASCII, so also in bytes).
        public var scalarLength: Int { text.utf8.count }

        /// The registry's record for this subtag, or `nil` if it isn't registered or its role
        /// has no records (extensions and private use).
        public var record: SubtagRecord? {
            registryType.flatMap { SubtagRegistry.record(for: text, type: $0) }
        }

        /// The registry type that describes subtags in this role.
        var registryType: SubtagType? {
            switch role {
            case .language: .language
            case .extlang: .extlang
            case .script: .script
            case .region: .region
            case .variant: .variant
            case .grandfathered: .grandfathered
            case .extensionSingleton, .extensionSubtag, .privateUseSingleton, .privateUseSubtag: nil
            }
        }

        /// The subtag in the case RFC 5646 section 2.1.1 recommends for its role.
        var conventionalText: String {
            switch role {
            case .script: text.prefix(1).uppercased() + text.dropFirst().lowercased()
            case .region: text.uppercased()
            case .grandfathered: LanguageTag.conventionalCase(of: text)
            default: text.lowercased()
            }
        }
    }

    /// The tag exactly as it was parsed or built.
    public let text: String
    /// Every subtag in order; one `.grandfathered` subtag for a grandfathered tag.
    public let subtags: [Subtag]

    /// Parses `text` as a BCP 47 language tag.
    ///
    /// The error says what is wrong and where, and for a tag that only uses `_` as separator
    /// (`en_US`) carries the corrected tag.
    public init(parsing text: String) throws(LanguageTagSyntaxError) {
        self = try LanguageTagParser.parse(text).get()
    }

    /// Builds a tag from subtags whose roles are already known, joining them with `-`.
    init(parts: [(text: String, role: Subtag.Role)]) {
        var subtags: [Subtag] = []
        var offset = 0
        for part in parts {
            subtags.append(Subtag(text: part.text, role: part.role, scalarOffset: offset))
            offset += part.text.utf8.count + 1
        }
        self.text = parts.map(\.text).joined(separator: "-")
        self.subtags = subtags
    }

    init(text: String, subtags: [Subtag]) {
        self.text = text
        self.subtags = subtags
    }

    public var description: String { text }

    /// Whether this is one of the 26 grandfathered tags.
    public var isGrandfathered: Bool { subtags.first?.role == .grandfathered }

    /// The primary language subtag as written; `nil` for grandfathered and private-use-only tags.
    public var language: String? { first(.language) }
    /// The extended language subtags as written (`yue` in `zh-yue`).
    public var extlangs: [String] { all(.extlang) }
    /// The script subtag as written.
    public var script: String? { first(.script) }
    /// The region subtag as written.
    public var region: String? { first(.region) }
    /// The variant subtags as written, in order.
    public var variants: [String] { all(.variant) }
    /// Whether the tag has a private-use part (`x-…`).
    public var hasPrivateUse: Bool { subtags.contains { $0.role == .privateUseSingleton } }

    private func first(_ role: Subtag.Role) -> String? {
        subtags.first { $0.role == role }?.text
    }

    private func all(_ role: Subtag.Role) -> [String] {
        subtags.filter { $0.role == role }.map(\.text)
    }

    /// The parts of this tag as (text, role) pairs, for building changed copies.
    var parts: [(text: String, role: Subtag.Role)] {
        subtags.map { ($0.text, $0.role) }
    }

    /// Applies RFC 5646 section 2.1.1's case convention to a well-formed tag given as text:
    /// lower case, except 2-letter subtags (upper) and 4-letter subtags (title) that are not
    /// first and don't follow a singleton. Grandfathered tags come out in the registry's case.
    static func conventionalCase(of tag: String) -> String {
        var afterSingleton = false
        var result: [String] = []
        for (index, part) in tag.split(separator: "-", omittingEmptySubsequences: false).enumerated() {
            if index == 0 || afterSingleton {
                result.append(part.lowercased())
            } else if part.utf8.count == 2 {
                result.append(part.uppercased())
            } else if part.utf8.count == 4 && part.allSatisfy(\.isLetter) {
                result.append(part.prefix(1).uppercased() + part.dropFirst().lowercased())
            } else {
                result.append(part.lowercased())
            }
            if part.utf8.count == 1 { afterSingleton = true }
        }
        return result.joined(separator: "-")
    }
}
