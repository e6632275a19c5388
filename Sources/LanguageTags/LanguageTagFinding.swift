/// One problem with a language tag, located within the tag, with the tag to use instead when
/// there is one.
///
/// Findings are plain data for a lint rule to turn into diagnostics: `message` follows msgc's
/// style (lower-case start, no final period, says what is wrong) and `replacement` is a whole
/// tag that fixes this finding and every earlier one, suitable for a display-only fix-it.
public struct LanguageTagFinding: Hashable, Sendable {
    /// What is wrong, from most to least fundamental; `LanguageTagChecker` reports in this order.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Not well-formed BCP 47 (`en_US`, `en-US-Latn`, `123`); no other check runs.
        case malformed
        /// A subtag that is not in the IANA Language Subtag Registry (`en-UK`, `eng`), or an
        /// extended language subtag in the second or third position, which never can be.
        case unknownSubtag
        /// A variant or extension singleton that appears twice (`de-1996-1996`, `en-a-bb-a-cc`).
        case duplicateSubtag
        /// Valid, but not in the conventional case (`EN-us`, `zh-hans`); App Store Connect
        /// codes are case-sensitive.
        case nonCanonicalCase
        /// A deprecated subtag, grandfathered tag or redundant tag (`iw`, `my-BU`, `zh-yue`).
        case deprecatedSubtag
        /// A private-use part (`x-…`, `qaa`, `Qaaa`, `XA`): reported instead of
        /// `notAppStoreCode` because no App Store Connect code has one.
        case privateUse
        /// Valid BCP 47, but not one of App Store Connect's locale codes nor in `extraLocales`.
        case notAppStoreCode
    }

    public var kind: Kind
    public var message: String
    /// Where the offending part starts, in Unicode scalars from the start of the tag.
    public var scalarOffset: Int
    /// The offending part's length in Unicode scalars.
    public var scalarLength: Int
    /// The tag to write instead, if one is known.
    public var replacement: String?

    public init(kind: Kind, message: String, scalarOffset: Int, scalarLength: Int, replacement: String? = nil) {
        self.kind = kind
        self.message = message
        self.scalarOffset = scalarOffset
        self.scalarLength = scalarLength
        self.replacement = replacement
    }

    /// The offending part as a range of Unicode scalar offsets.
    public var scalarRange: Range<Int> { scalarOffset..<(scalarOffset + scalarLength) }
}
