/// A message in one locale: the source message with every translatable field's text in
/// that locale (the source text itself for the source locale).
public struct LocalizedMessage: Sendable {
    /// The message, shared with the same message's other locales.
    public let shared: SharedMessage
    public var locale: String
    /// The text of each of the message's fields in this locale.
    public var texts: FieldTexts
    /// The XLIFF file the texts came from; nil for the source locale.
    public var translationPath: String?
    /// The fields whose text is a previous translation, one of a source text that has changed
    /// since (`StaleTranslationPolicy.keepPrevious`), each with the source it translates: what
    /// the rules compare the translation with. Empty when every text is current.
    public var previousSources = FieldTexts()

    public init(message: Message, locale: String, texts: FieldTexts, translationPath: String?) {
        self.init(shared: SharedMessage(message), locale: locale, texts: texts, translationPath: translationPath)
    }

    public init(shared: SharedMessage, locale: String, texts: FieldTexts, translationPath: String?) {
        self.shared = shared
        self.locale = locale
        self.texts = texts
        self.translationPath = translationPath
    }

    public var message: Message { shared.message }

    public var isSource: Bool { translationPath == nil }
    public var subject: Subject { Subject(product: message.product.value, key: message.key.value, locale: locale) }

    public func text(_ field: MessageField) -> Located<String>? { texts[field] }

    /// The source text `field`'s translation translates: the one its unit recorded for a
    /// previous translation, else the message's.
    public func sourceText(of field: MessageField) -> Located<String>? {
        previousSources.isEmpty ? message.text(of: field) : previousSources[field] ?? message.text(of: field)
    }

    /// Whether some field ships a previous translation.
    public var shipsPreviousTranslation: Bool { !previousSources.isEmpty }
}

/// The texts of a message's fields in one locale, in field order (`MessageField`'s).
///
/// A message has a handful of fields, so they are kept in one array and found by looking
/// through it. A dictionary each took twice the memory (about 900 bytes for six fields), and
/// there is one of these for every message in every locale.
public struct FieldTexts: Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public typealias Element = (field: MessageField, text: Located<String>)

    /// A struct rather than the tuple `Element`: an array of tuples is destroyed element by
    /// element through the runtime's generic tuple code, and every message in every locale
    /// holds one of these arrays until the end of a run.
    private struct Entry: Sendable {
        var field: MessageField
        var text: Located<String>
    }

    private var entries: [Entry]

    public init() {
        entries = []
    }

    public init(_ texts: [MessageField: Located<String>]) {
        entries = texts.map { Entry(field: $0.key, text: $0.value) }.sorted { $0.field < $1.field }
    }

    public init(dictionaryLiteral elements: (MessageField, Located<String>)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Element { (entries[position].field, entries[position].text) }

    /// The text of `field`, if the message has that field.
    public subscript(field: MessageField) -> Located<String>? {
        get { entries.first { $0.field == field }?.text }
        set {
            // Texts are nearly always set in field order: the end is tried first.
            if let text = newValue, entries.last.map({ $0.field < field }) ?? true {
                entries.append(Entry(field: field, text: text))
                return
            }
            let index = entries.firstIndex { $0.field >= field } ?? entries.endIndex
            let isPresent = index < entries.endIndex && entries[index].field == field
            switch (newValue, isPresent) {
            case (let text?, true): entries[index].text = text
            case (let text?, false): entries.insert(Entry(field: field, text: text), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
        }
    }
}

/// Why a message's field has no usable translation in a locale.
public enum TranslationGapReason: Hashable, Sendable {
    /// No unit for the field, or a unit with no target (or an empty one).
    case missing
    /// The unit has a target, but its state says it is not translated yet (1.2 `new`,
    /// `needs-translation`, …; 2.0 `initial`); `rawState` as the file wrote it.
    case notTranslated(rawState: String?)
    /// Two or more units of the file have the field's id (or 2.0 name) with different targets:
    /// none of them can be told to be the translator's.
    case ambiguous
    /// The translator translated a different source text (`recordedSource`) from the
    /// message's text now (`currentSource`).
    case stale(recordedSource: String, currentSource: String)
    /// The unit's state is below the project's `minimumState`.
    case belowMinimumState(state: TranslationState, rawState: String?)

    /// One word for reports: missing, not-translated, stale, below-minimum-state, ambiguous.
    public var name: String {
        switch self {
        case .missing: "missing"
        case .notTranslated: "not-translated"
        case .ambiguous: "ambiguous"
        case .stale: "stale"
        case .belowMinimumState: "below-minimum-state"
        }
    }
}

/// A field of a message that has no usable translation in a locale.
public struct TranslationGap: Hashable, Sendable {
    public var subject: Subject
    public var field: MessageField
    public var reason: TranslationGapReason
    /// The unit concerned, when there is one.
    public var unit: TranslationUnit?
    public var translationPath: String?

    public init(subject: Subject, field: MessageField, reason: TranslationGapReason, unit: TranslationUnit? = nil, translationPath: String? = nil) {
        self.subject = subject
        self.field = field
        self.reason = reason
        self.unit = unit
        self.translationPath = translationPath
    }
}

/// The catalog's messages bound to their translations.
public struct Localization: Sendable {
    /// Every message in every locale where all its fields have a usable text, sorted by
    /// product, locale and key. Rules may still keep one of them from shipping.
    public var candidates: [LocalizedMessage]
    /// Messages in a locale where some fields have no usable text but others carry a
    /// translation, with those translations only (usable ones, and ones below `minimumState`),
    /// sorted like `candidates`. They never ship; the rules check their texts all the same, so
    /// that a translator hears about a header that runs too long before the body is done.
    public var partials: [LocalizedMessage]
    /// Fields without a usable translation, sorted by subject and field.
    public var gaps: [TranslationGap]
    /// Fields whose translation is stale but ships all the same, as the previous translation
    /// (`StaleTranslationPolicy.keepPrevious`), sorted like `gaps`; each with reason `stale`.
    /// A stale field that does not ship (withheld, or below `minimumState`) is in `gaps`.
    public var previousTranslations: [TranslationGap] = []
    /// The translation file chosen for each locale.
    public var fileForLocale: [String: String]
    /// For each translation file the messages were bound to, by path: whether each of its
    /// units, by index, was found as the unit of a message's field. A unit marked false may
    /// still be one (a repeated id, or a locale its product does not list); a unit marked
    /// true certainly is.
    public var boundUnits: [String: [Bool]]

    public init(
        candidates: [LocalizedMessage], partials: [LocalizedMessage] = [], gaps: [TranslationGap],
        fileForLocale: [String: String], boundUnits: [String: [Bool]] = [:]
    ) {
        self.candidates = candidates
        self.partials = partials
        self.gaps = gaps
        self.fileForLocale = fileForLocale
        self.boundUnits = boundUnits
    }
}

/// A message held once for all its localized messages. A `Message` is a few dozen strings
/// and arrays, so a `LocalizedMessage` that held its own copy retained every one of them
/// each time it was copied (binding, sorting, filtering for the bundle); now that is one
/// retain.
public final class SharedMessage: Sendable {
    public let message: Message

    public init(_ message: Message) {
        self.message = message
    }
}
