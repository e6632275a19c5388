import Model

/// One text a rule looks at: a field of a message in one locale, source or translated, with
/// what one pass over its UTF-8 found.
///
/// A dozen rules look at every text. Each of them once walked the text on its own, and
/// normalised it or scanned it for numbers again (BENCHMARKS.md); now the text is walked once,
/// when the context is made, and each rule reads the results: the scalars any character rule
/// may report (`notableScalars`, nearly always none), whether it is NFC, its lengths and its
/// numbers. The rules still decide everything themselves, from these facts.
///
/// A class, not a struct: the rules share every one of these, and copying a struct that holds
/// a whole `LocalizedMessage` retains each of its strings and arrays. It is immutable, so
/// sharing it changes nothing.
final class FieldText: Sendable {
    /// The candidate the text belongs to, shared by all its fields.
    let candidate: Candidate
    let field: MessageField
    let text: Located<String>
    /// The same field of the same message in the source locale, for a translation whose
    /// message has that candidate; nil for a source text.
    let source: FieldText?
    /// Every scalar of the text that `isNotable` picks, with its offset in scalars.
    let notableScalars: [(offset: Int, scalar: Unicode.Scalar)]
    /// Whether the text is in NFC, as `TextLength.isNFC` decides.
    let isNFC: Bool
    /// The text's scalars and UTF-16 units as written (after NFC too, when `isNFC`).
    let scalarCount: Int
    let utf16Count: Int
    /// The numbers in the text, as `NumberScanner` finds them.
    let numbers: [NumberToken]

    init(candidate: Candidate, field: MessageField, text: Located<String>, source: FieldText?) {
        self.candidate = candidate
        self.field = field
        self.text = text
        self.source = source
        var value = text.value
        let scan = value.withUTF8(TextScan.init)
        self.notableScalars = scan.notable
        self.scalarCount = scan.scalarCount
        self.utf16Count = scan.utf16Count
        self.isNFC = scan.isProvenNFC || TextLength.isNFC(text.value)
        self.numbers = scan.hasDigit ? NumberScanner.numbers(inTextWithDigit: text.value) : []
    }

    /// Whether a character rule may report the scalar `value`: the union of what TXT002–TXT008
    /// look for (controls, NEL, soft hyphen, the directional marks, embeddings, overrides and
    /// isolates, the zero-width characters and joiners, line and paragraph separators, private
    /// use, U+FFFD and the noncharacters). It may pick more than a rule wants, never less; a
    /// test checks every rule's test against it for every scalar.
    @inline(__always)
    static func isNotable(_ value: UInt32) -> Bool {
        if value < 0xAD { return value < 0x20 || (value >= 0x7F && value <= 0x9F) }
        if value < 0xE000 {
            switch value {
            case 0xAD, 0x061C, 0x180E, 0x200B...0x200F, 0x2028...0x202E, 0x2060, 0x2066...0x2069: return true
            default: return false
            }
        }
        return value <= 0xF8FF || (0xFDD0...0xFDEF).contains(value) || value == 0xFEFF || value == 0xFFFD
            || value & 0xFFFE == 0xFFFE || value >= 0xF0000
    }

    /// Whether the scalar `value` is NFC_Quick_Check=Yes with canonical combining class 0, in
    /// the blocks most text is written in: Latin to U+02FF, Greek, Cyrillic, Hebrew and Arabic
    /// letters, Vietnamese letters, punctuation, CJK, kana, Hangul syllables, full-width forms
    /// and emoji. Such a scalar neither changes under NFC nor reorders with its neighbours, so a
    /// text of only these is NFC; any other scalar sends the text to `TextLength.isNFC`. A test
    /// checks every scalar it picks against the standard library's Unicode data.
    @inline(__always)
    static func isNFCInert(_ value: UInt32) -> Bool {
        switch value {
        case 0...0x2FF, 0x388...0x3FF, 0x400...0x482, 0x48A...0x52F, 0x5D0...0x5F4, 0x60C, 0x61B, 0x61F, 0x620...0x64A,
             0x660...0x66F, 0x1E00...0x1EFF, 0x2002...0x2027, 0x2030...0x205E, 0x20A0...0x20C0, 0x2100...0x2125,
             0x3000...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x309B...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
             0xFE10...0xFE19, 0xFF01...0xFFEE, 0x1F000...0x1FAFF:
            true
        default:
            false
        }
    }

    /// Whether the scalar `value` is a letter of the scripts most translations are written in,
    /// about which the scan has nothing to note: `isNFCInert`, not `isNotable`, not a digit,
    /// not white space (U+00A0 is not one).
    /// Latin-1 and Latin Extended letters, Greek and Cyrillic, Hebrew and Arabic letters,
    /// Vietnamese letters, kana, CJK and Hangul syllables are answered in a few comparisons,
    /// before the longer tests each of those makes. A test checks every scalar it picks
    /// against them.
    @inline(__always)
    static func isPlainLetter(_ value: UInt32) -> Bool {
        if value < 0x530 { return value > 0xA0 ? value != 0xAD && (value < 0x300 || value >= 0x388) && (value < 0x483 || value >= 0x48A) : false }
        if value < 0x800 { return (0x5D0...0x5F4).contains(value) || (0x620...0x64A).contains(value) }
        return (0x4E00...0x9FFF).contains(value) || (0xAC00...0xD7A3).contains(value) || (0x3041...0x3096).contains(value)
            || (0x309B...0x30FF).contains(value) || (0x1E00...0x1EFF).contains(value)
    }

    /// The canonical combining class of a Devanagari or Thai scalar that passes Unicode's NFC
    /// quick check, and so never changes under NFC but by reordering; nil for any other scalar.
    /// Both blocks but the eight Devanagari letters with nukta (U+0958–U+095F, which NFC
    /// decomposes) and the unassigned code points. U+093C DEVANAGARI SIGN NUKTA is the one
    /// "maybe" of the quick check here: NFC composes it with U+0928, U+0930 and U+0933 before
    /// it, and with nothing else. A test checks every scalar of both blocks against the
    /// standard library and Foundation.
    static func indicOrThaiCombiningClass(_ value: UInt32) -> UInt8? {
        switch value {
        case 0x93C: 7
        case 0x94D: 9
        case 0x951, 0x953, 0x954: 230
        case 0x952: 220
        case 0x958...0x95F: nil
        case 0x900...0x97F: 0
        case 0xE38, 0xE39: 103
        case 0xE3A: 9
        case 0xE48...0xE4B: 107
        case 0xE01...0xE39, 0xE3F...0xE5B: 0
        default: nil
        }
    }

    /// Whether the scalar `value` is a letter or mark of Devanagari or Thai other than a digit:
    /// not `isNotable`, not a digit, not white space. Unlike `isPlainLetter`, these may combine
    /// and reorder under NFC, so they are asked about that first; the scan then passes them
    /// without the other tests. A test checks every scalar it picks.
    @inline(__always)
    static func isQuietIndicOrThai(_ value: UInt32) -> Bool {
        (0x900...0x965).contains(value) || (0x970...0x97F).contains(value)
            || (0xE01...0xE4F).contains(value) || (0xE5A...0xE5B).contains(value)
    }

    /// The candidate's message in its locale.
    var localized: LocalizedMessage { candidate.localized }
    var isSource: Bool { candidate.localized.isSource }
    var locale: String { candidate.localized.locale }

    /// A finding on the source text concerns every locale, so it names none; a finding on a
    /// translation names its locale, so that a build leaves only that locale out.
    var subject: Subject { isSource ? localized.message.subject : localized.subject }

    /// "header", or "de-DE header" for a translation.
    var displayName: String { isSource ? field.displayName : "\(locale) \(field.displayName)" }

    /// The scalars of the text that `isWanted` picks, each with its offset in scalars.
    /// `isWanted` must pick only scalars that `isNotable` picks: it is asked about those alone.
    @inline(__always)
    func scalars(where isWanted: (Unicode.Scalar) -> Bool) -> [(offset: Int, scalar: Unicode.Scalar)] {
        notableScalars.isEmpty ? [] : notableScalars.filter { isWanted($0.scalar) }
    }

    /// The text's count in `measure` after NFC, as `TextLength.count` gives it, from the counts
    /// already made when the text is NFC.
    func count(in measure: LengthMeasure) -> Int {
        guard isNFC else { return TextLength.count(text.value, in: measure) }
        switch measure {
        case .graphemes: return text.value.count
        case .scalars: return scalarCount
        case .utf16: return utf16Count
        case .utf8: return text.value.utf8.count
        }
    }

    /// Whether this text and `other` are the same after NFC. Two NFC texts are the same exactly
    /// when their bytes are, which spares the canonical-equivalence comparison of `==`.
    func isSameAfterNFC(as other: FieldText) -> Bool {
        guard isNFC, other.isNFC else { return TextLength.nfc(text.value) == TextLength.nfc(other.text.value) }
        return text.value.utf8.count == other.text.value.utf8.count && text.value.utf8.elementsEqual(other.text.value.utf8)
    }
}

/// What one pass over a text's UTF-8 finds, for `FieldText`. Its own type, with the loop's
/// state in locals, so that the state lives in registers rather than in the variables a
/// closure would capture.
private struct TextScan {
    var notable: [(offset: Int, scalar: Unicode.Scalar)] = []
    var scalarCount = 0
    var utf16Count = 0
    /// Whether the scan proved the text NFC: every scalar is one `FieldText.isNFCInert` picks,
    /// or a Devanagari or Thai one (`FieldText.indicOrThaiCombiningClass`) in canonical order,
    /// with no nukta after a letter NFC would compose it with. False proves nothing.
    var isProvenNFC = true
    var hasDigit = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var notable: [(offset: Int, scalar: Unicode.Scalar)] = []
        var scalarCount = 0
        var utf16Count = 0
        var isProvenNFC = true
        // The combining class of the scalar before and, where it matters, the scalar itself:
        // 0 after anything NFC leaves alone and never composes with.
        var previousClass: UInt8 = 0
        var previous: UInt32 = 0
        var hasDigit = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // ASCII, most of most texts, in a few comparisons.
            if byte < 0x80 {
                previousClass = 0
                previous = 0
                index += 1
                if byte < 0x20 || byte == 0x7F {
                    notable.append((scalarCount, Unicode.Scalar(byte)))
                } else if byte &- 0x30 < 10 {
                    hasDigit = true
                }
                scalarCount += 1
                utf16Count += 1
                // Then eight bytes at a time while they are printable ASCII that changes nothing
                // here: letters, spaces and punctuation (and digits, once one has been seen).
                while index + 8 <= bytes.count {
                    let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                    guard Self.isPlainASCII(word, digitsSeen: hasDigit) else { break }
                    index += 8
                    scalarCount += 8
                    utf16Count += 8
                }
                continue
            }
            let scalarValue = UTF8Bytes.decodeScalar(bytes, at: &index)
            scalarCount += 1
            utf16Count += scalarValue >= 0x10000 ? 2 : 1
            if FieldText.isPlainLetter(scalarValue) {
                previousClass = 0
                previous = 0
                continue
            }
            if isProvenNFC {
                // Devanagari and Thai first: past the plain letters, most other scalars are theirs.
                if let combiningClass = FieldText.indicOrThaiCombiningClass(scalarValue) {
                    let composes = scalarValue == 0x93C && (previous == 0x928 || previous == 0x930 || previous == 0x933)
                    if composes || (combiningClass != 0 && previousClass > combiningClass) { isProvenNFC = false }
                    previousClass = combiningClass
                } else if FieldText.isNFCInert(scalarValue) {
                    previousClass = 0
                } else {
                    isProvenNFC = false
                }
                previous = scalarValue
            }
            if FieldText.isQuietIndicOrThai(scalarValue) { continue }
            // Always a scalar: valid UTF-8 never decodes to a surrogate.
            if let scalar = Unicode.Scalar(scalarValue) {
                if FieldText.isNotable(scalarValue) { notable.append((scalarCount - 1, scalar)) }
                if !hasDigit, NumberScanner.digitValue(scalar) != nil { hasDigit = true }
            }
        }
        self.notable = notable
        self.scalarCount = scalarCount
        self.utf16Count = utf16Count
        self.isProvenNFC = isProvenNFC
        self.hasDigit = hasDigit
    }
}

/// A candidate of the localization in a box that its fields' FieldTexts share: each FieldText
/// would otherwise hold its own copy of the LocalizedMessage and its whole Message.
final class Candidate: Sendable {
    let localized: LocalizedMessage

    init(_ localized: LocalizedMessage) {
        self.localized = localized
    }
}

extension TextScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether all eight bytes of `word` are printable ASCII and, unless `digitsSeen`, none is
    /// a digit: bytes the loop would only count.
    @inline(__always)
    static func isPlainASCII(_ word: UInt64, digitsSeen: Bool) -> Bool {
        guard UTF8Bytes.isPrintableASCII(word) else { return false }
        // A byte from 0x30 to 0x39 reaches 0x80 with 0x50 added, and not with 0x46.
        return digitsSeen || (word &+ 0x50 &* ones) & ~(word &+ 0x46 &* ones) & highBits == 0
    }
}

extension FieldText {
    /// Every field of every message in every locale that has a text there, in the order of the
    /// localization's candidates, then its partly translated messages, then of the fields
    /// (`LintContext.fieldTexts`).
    ///
    /// The source-locale texts are made first, so that each translation can point at its
    /// source's (whose numbers and NFC form it is compared with in every locale); then the
    /// candidates are walked in order.
    static func all(in localization: Localization) -> [FieldText] {
        // Partly translated messages too: each translation a unit carries is checked whether or
        // not the rest of its message is translated.
        let candidates = localization.partials.isEmpty ? localization.candidates : localization.candidates + localization.partials
        // Keyed by where the message starts; each translation checks that the text it gets is
        // its message's source text, so that two messages at one place (a hand-made catalog)
        // never lend each other their sources.
        // A message's source texts in field order, found by looking through its handful of
        // fields (a dictionary per message cost a hash of the field for every translation).
        var sources: [SourceLocation: [FieldText]] = [:]
        for localized in candidates where localized.isSource && sources[localized.message.location] == nil {
            let candidate = Candidate(localized)
            sources[localized.message.location] = localized.texts.map { field, text in
                FieldText(candidate: candidate, field: field, text: text, source: nil)
            }
        }
        // Made in turn, straight into an array of the right size: on every core, in parts, it
        // was 9.5 % of a clean lint's work at Apple's cap, so at most 4.8 % of its time on two
        // cores, under the 5 % that speed code must win (BENCHMARKS.md).
        var texts: [FieldText] = []
        texts.reserveCapacity(candidates.reduce(0) { $0 + $1.texts.count })
        for localized in candidates {
            let candidate = Candidate(localized)
            let fields = localized.isSource ? nil : sources[localized.message.location]
            for (field, text) in localized.texts {
                // A previous translation is checked against the source it translates,
                // which is not the message's text any more (`sourceText(of:)`).
                let source = localized.previousSources[field] != nil ? nil : fields?.first { $0.field == field }
                    .flatMap { $0.text.value == localized.message.text(of: field)?.value ? $0 : nil }
                texts.append(FieldText(candidate: candidate, field: field, text: text, source: source))
            }
        }
        return texts
    }
}

extension LintContext {
    /// The source-language text a translated field translates: the message's, or for a
    /// previous translation the source its unit recorded.
    func sourceText(of fieldText: FieldText) -> Located<String>? {
        fieldText.localized.sourceText(of: fieldText.field)
    }
}
