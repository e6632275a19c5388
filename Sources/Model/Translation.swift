/// A note someone other than msgc wrote on a unit (a translator, a reviewer, their tool): kept
/// when the locale is extracted again. msgc's own notes are those it writes itself, `from`
/// (1.2) or `category` (2.0) `developer` and `msgc`.
public struct TranslationNote: Hashable, Sendable {
    /// 1.2 `from`, or 2.0 `category`, as written; nil when the note has none.
    public var author: String?
    public var text: String

    public init(author: String?, text: String) {
        self.author = author
        self.text = text
    }

    /// The `from` / `category` values of the notes msgc writes.
    public static let msgcAuthors: Set<String> = ["developer", "msgc"]
}

/// A translation a tool or translator proposed for a unit besides its target: 1.2 `<alt-trans>`,
/// 2.0 `<mtc:match>`. Kept when the locale is extracted again: it is a translator's memory.
public struct TranslationCandidate: Hashable, Sendable {
    /// 1.2 `origin` (else `tool-id`), 2.0 `origin`, as written.
    public var origin: String?
    /// 1.2 `match-quality` (free text, often `100%`), 2.0 `matchQuality` (0 to 100), as written.
    public var quality: String?
    /// The source text the candidate translates, when it has one.
    public var source: String?
    public var target: String

    public init(origin: String?, quality: String?, source: String?, target: String) {
        self.origin = origin
        self.quality = quality
        self.source = source
        self.target = target
    }
}

/// One translation unit read from an XLIFF file.
public struct TranslationUnit: Hashable, Sendable {
    /// `PRODUCT/KEY/field`, as written by `msgc extract`.
    public var id: Located<String>
    /// The source text the translator saw.
    public var source: Located<String>
    /// The translated text; absent when the unit has no target or an empty one.
    public var target: Located<String>?
    /// The target's state, mapped onto msgc's scale (docs/formats.md, "States").
    public var state: TranslationState
    /// The state as the file wrote it, for reports (`needs-review-l10n`, `initial`).
    public var rawState: String?
    /// Names of inline elements found in the target (`g`, `ph`, `pc`, …), in order.
    public var inlineMarkup: [Located<String>]
    /// Where the unit starts.
    public var location: SourceLocation
    /// Whether another unit of the file has the same id (2.0: name) and a different target, so
    /// that neither can be used.
    public var isAmbiguous: Bool
    /// Notes someone other than msgc wrote on the unit, in document order.
    public var notes: [TranslationNote]
    /// 1.2 `approved="yes"` as written (it also lifts `state`), for extract to write back.
    public var isApproved: Bool
    /// Candidate translations (`<alt-trans>`, `<mtc:match>`), in document order; read only with
    /// the notes (`keepingNotes`), since only extract writes them back.
    public var candidates: [TranslationCandidate]

    // Every stored property is set here in declaration order, none by a default value: the
    // XLIFF reader makes one unit per unit read, and with a default the compiler built each
    // unit in a temporary and copied it out (about 450 instructions a unit).
    public init(
        id: Located<String>, source: Located<String>, target: Located<String>?, state: TranslationState,
        rawState: String? = nil, inlineMarkup: [Located<String>] = [], location: SourceLocation, isAmbiguous: Bool = false,
        notes: [TranslationNote] = [], isApproved: Bool = false, candidates: [TranslationCandidate] = []
    ) {
        self.id = id
        self.source = source
        self.target = target
        self.state = state
        self.rawState = rawState
        self.inlineMarkup = inlineMarkup
        self.location = location
        self.isAmbiguous = isAmbiguous
        self.notes = notes
        self.isApproved = isApproved
        self.candidates = candidates
    }

    /// The unit id split into message id and field, when it has msgc's shape.
    public var parsedID: (product: String, key: String, field: MessageField)? {
        let parts = id.value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let field = MessageField(String(parts[parts.count - 1])) else { return nil }
        let key = String(parts[parts.count - 2])
        let product = parts[0..<(parts.count - 2)].joined(separator: "/")
        guard !product.isEmpty, !key.isEmpty else { return nil }
        return (product, key, field)
    }
}

extension TranslationFile.Version {
    /// The values this version defines for a translation's state: 1.2 `target/@state`, 2.0
    /// `segment/@state` (whose finer states go in `subState`).
    public var stateValues: [String] {
        switch self {
        case .v1_2: Self.states12
        case .v2_0: Self.states20
        }
    }

    private static let states12 = [
        "new", "needs-translation", "needs-adaptation", "needs-l10n", "needs-review-translation",
        "needs-review-adaptation", "needs-review-l10n", "translated", "signed-off", "final",
    ]
    private static let states20 = ["initial", "translated", "reviewed", "final"]

    /// Whether the version gives `raw` a meaning: one of `stateValues`, or in 1.2 a custom
    /// `x-…` state (2.0 has none; a tool's own states go in `subState` there). The reader asks
    /// for every target, so the usual answers come first.
    public func defines(state raw: String) -> Bool {
        if raw == "translated" || raw == "final" { return true }
        switch self {
        case .v1_2: return raw.hasPrefix("x-") || Self.states12.contains(raw)
        case .v2_0: return Self.states20.contains(raw)
        }
    }
}

/// One XLIFF file of the content tree, as far as it could be read.
public struct TranslationFile: Hashable, Sendable {
    public enum Version: String, Sendable, Hashable {
        case v1_2 = "1.2"
        case v2_0 = "2.0"
    }

    public var path: String
    public var version: Version?
    /// `target-language` (1.2) or `trgLang` (2.0): this decides the file's locale.
    public var targetLanguage: Located<String>?
    public var sourceLanguage: Located<String>?
    public var units: [TranslationUnit]
    /// False when the file could not be read at all (malformed, DOCTYPE, not XLIFF); its
    /// units are then empty and the reason is a diagnostic.
    public var isReadable: Bool
    /// Whether no two of `units` share an id, as the XLIFF reader makes sure (it keeps the
    /// first of a repeated id and reports the others). When false, whoever looks a unit up
    /// by id must find the first one with it.
    public var hasUniqueUnitIDs: Bool

    public init(
        path: String, version: Version?, targetLanguage: Located<String>?, sourceLanguage: Located<String>?,
        units: [TranslationUnit], isReadable: Bool, hasUniqueUnitIDs: Bool = false
    ) {
        self.path = path
        self.version = version
        self.targetLanguage = targetLanguage
        self.sourceLanguage = sourceLanguage
        self.units = units
        self.isReadable = isReadable
        self.hasUniqueUnitIDs = hasUniqueUnitIDs
    }
}
