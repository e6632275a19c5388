/// Why a string is not a well-formed BCP 47 language tag, and where.
///
/// The message follows msgc's style (lower-case start, no final period) and names the
/// offending part; `scalarOffset` and `scalarLength` locate it in the tag, counted in
/// Unicode scalars, so a diagnostic can underline it.
public struct LanguageTagSyntaxError: Error, Hashable, Sendable {
    /// The grammar rule the tag breaks, for callers that branch on it; the message says more.
    public enum Reason: Hashable, Sendable {
        /// The tag is the empty string.
        case empty
        /// A character other than an ASCII letter, digit, `-` or `_`.
        case invalidCharacter
        /// The tag starts or ends with a separator, or has two in a row.
        case emptySubtag
        /// A subtag longer than 8 characters.
        case subtagTooLong
        /// The first subtag is not a language (2–8 letters), `x`, or the start of a grandfathered tag.
        case invalidLanguage
        /// A fourth extended language subtag.
        case tooManyExtlangs
        /// A subtag whose shape fits no slot at its position (`en-US-Latn`, `de-DE-de`).
        case misplacedSubtag
        /// An extension singleton with no subtags after it (`en-a`, `en-a-x-foo`).
        case emptyExtension
        /// `x` with no subtags after it.
        case emptyPrivateUse
        /// The tag is well-formed except that it uses `_` as a separator (`en_US`).
        case underscoreSeparator
    }

    public var reason: Reason
    public var message: String
    /// Where the offending part starts, in Unicode scalars from the start of the tag.
    public var scalarOffset: Int
    /// The offending part's length in Unicode scalars (0 only for an empty tag).
    public var scalarLength: Int
    /// The tag with the problem fixed, when the fix is certain: for `.underscoreSeparator`,
    /// the tag with `-` separators in canonical case (`EN_us` → `en-US`).
    public var correctedTag: String?

    public init(reason: Reason, message: String, scalarOffset: Int, scalarLength: Int, correctedTag: String? = nil) {
        self.reason = reason
        self.message = message
        self.scalarOffset = scalarOffset
        self.scalarLength = scalarLength
        self.correctedTag = correctedTag
    }
}
