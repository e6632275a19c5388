import Model

/// How XLIFF target states map onto msgc's `TranslationState`, both ways (docs/formats.md,
/// "States").
public enum XLIFFStates {
    /// The values XLIFF 1.2 allows for `target/@state` (besides `x-…`).
    public static let xliff12Values = Set(TranslationFile.Version.v1_2.stateValues)

    /// The state of a non-empty XLIFF 1.2 target.
    ///
    /// *translated* = `translated`, `needs-review-translation`, `needs-review-adaptation`,
    /// `needs-review-l10n` or no state; *reviewed* = `signed-off`, or `approved="yes"` on the unit
    /// (which lifts any state to at least reviewed); *final* = `final`. `new`,
    /// `needs-translation`, `needs-adaptation`, `needs-l10n`, `x-…` and unknown values are not
    /// translated.
    public static func state(xliff12 raw: String?, isApproved: Bool) -> TranslationState {
        let state: TranslationState
        switch raw {
        case nil, "translated", "needs-review-translation", "needs-review-adaptation", "needs-review-l10n":
            state = .translated
        case "signed-off": state = .reviewed
        case "final": state = .final
        default: state = .untranslated
        }
        return isApproved ? max(state, .reviewed) : state
    }

    /// The state of an XLIFF 2.0 segment with a non-empty target: `initial`, `translated`,
    /// `reviewed`, `final`. A segment with no `state` counts as translated, as a 1.2 target with
    /// none does: XLIFF 2.0 makes `initial` the default, but Symfony's dumper and other tools
    /// write no state on any segment, and a target someone wrote is a translation. `initial` and
    /// anything else count as untranslated.
    public static func state(xliff20 raw: String?) -> TranslationState {
        switch raw {
        case nil, "translated": .translated
        case "reviewed": .reviewed
        case "final": .final
        default: .untranslated
        }
    }

    /// The `state` to write on an XLIFF 1.2 target carrying an existing translation: the state
    /// it was read with when that is a 1.2 value meaning the same, else the plain 1.2 value for
    /// its `TranslationState`.
    static func xliff12Value(for unit: TranslationUnit) -> String {
        if let raw = unit.rawState, xliff12Values.contains(raw) || raw.hasPrefix("x-"),
           state(xliff12: raw, isApproved: false) == unit.state {
            return raw
        }
        return xliff12Value(for: unit.state)
    }

    static func xliff12Value(for state: TranslationState) -> String {
        switch state {
        case .untranslated: "needs-translation"
        case .translated: "translated"
        case .reviewed: "signed-off"
        case .final: "final"
        }
    }

    /// What a diagnostic can say about a state value `version` does not define.
    enum Suggestion: Equatable {
        /// The value is one of the version's states written another way: in another case, with
        /// `_` or a space for `-`, or one or two letters off (`Translated`, `signed_off`,
        /// `translatd`). Written as it is meant, it claims nothing the file did not say.
        case spelling(String)
        /// The value is a known word of another vocabulary (the other XLIFF version's states,
        /// gettext's `fuzzy`, a TMS's `approved`, `done`, `needs_review`…) whose meaning the
        /// version writes as `state`: never a state that claims more than the word did.
        case meaning(state: String, meaning: Meaning)
        /// msgc cannot tell what the value means (`définition`, `locked`).
        case unknown
    }

    /// How far along a known foreign state word says the translation is.
    enum Meaning: Int, Comparable {
        case notTranslated, toReview, translated, reviewed, final

        static func < (lhs: Meaning, rhs: Meaning) -> Bool { lhs.rawValue < rhs.rawValue }

        var words: String {
            switch self {
            case .notTranslated: "not translated yet"
            case .toReview: "translated but not yet reviewed"
            case .translated: "translated"
            case .reviewed: "translated and reviewed"
            case .final: "final"
            }
        }

        /// The version's state for this meaning: the one that claims no more than it.
        func state(in version: TranslationFile.Version) -> String {
            switch (self, version) {
            case (.notTranslated, .v1_2): "new"
            case (.notTranslated, .v2_0): "initial"
            case (.toReview, .v1_2): "needs-review-translation"
            // 2.0 has nothing between initial and translated; a subState can say "to review".
            case (.toReview, .v2_0): "translated"
            case (.translated, _): "translated"
            case (.reviewed, .v1_2): "signed-off"
            case (.reviewed, .v2_0): "reviewed"
            case (.final, _): "final"
            }
        }
    }

    /// What to suggest for `raw`, a state value `version` does not define (docs/formats.md,
    /// "States"): its spelling fixed, else a known word's meaning, else nothing. Only small
    /// edits count as spelling: the nearest state of any distance once turned `fuzzy` and
    /// `initial` into 'final' and `approved` into 'new'.
    static func suggestion(for raw: String, in version: TranslationFile.Version) -> Suggestion {
        let words = normalized(raw)
        if let same = version.stateValues.first(where: { $0 == words }) { return .spelling(same) }
        if let meaning = foreignMeanings[words] ?? (version == .v2_0 ? xliff12Meanings[words] : version == .v1_2 ? xliff20Meanings[words] : nil) {
            return .meaning(state: meaning.state(in: version), meaning: meaning)
        }
        // 2.0 has no custom states: a tool's own goes in `subState`, beside `initial` (what
        // msgc reads an unknown state as) until someone says the text is translated.
        if version == .v2_0 && words.hasPrefix("x-") { return .meaning(state: "initial", meaning: .notTranslated) }
        // One or two letters off, and nearer one state than any other.
        let allowed = words.count <= 5 ? 1 : 2
        let distances = version.stateValues.map { (state: $0, distance: editDistance(words, $0)) }
        guard let best = distances.min(by: { $0.distance < $1.distance }), best.distance <= allowed,
              distances.filter({ $0.distance == best.distance }).count == 1 else { return .unknown }
        return .spelling(best.state)
    }

    /// `raw` lowercased, with `_` and spaces written `-`.
    private static func normalized(_ raw: String) -> String {
        String(raw.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 })
    }

    /// XLIFF 1.2's states, written in a 2.0 file.
    private static let xliff12Meanings: [String: Meaning] = [
        "new": .notTranslated, "needs-translation": .notTranslated, "needs-adaptation": .notTranslated, "needs-l10n": .notTranslated,
        "needs-review-translation": .toReview, "needs-review-adaptation": .toReview, "needs-review-l10n": .toReview,
        "signed-off": .reviewed,
    ]

    /// XLIFF 2.0's states, written in a 1.2 file.
    private static let xliff20Meanings: [String: Meaning] = ["initial": .notTranslated, "reviewed": .reviewed]

    /// State words of other tools, as their tools mean them: gettext's `fuzzy`, Trados's
    /// confirmation levels, the words of TMS exports and of scripts.
    private static let foreignMeanings: [String: Meaning] = [
        "fuzzy": .toReview, "needs-review": .toReview, "review": .toReview, "to-review": .toReview, "unreviewed": .toReview,
        "rejectedsignoff": .toReview,
        "untranslated": .notTranslated, "not-translated": .notTranslated, "draft": .notTranslated, "todo": .notTranslated,
        "to-do": .notTranslated, "pending": .notTranslated, "in-progress": .notTranslated, "wip": .notTranslated,
        "rejected": .notTranslated, "rejectedtranslation": .notTranslated, "notstarted": .notTranslated, "not-started": .notTranslated,
        "done": .translated, "ok": .translated, "complete": .translated, "completed": .translated, "confirmed": .translated,
        "approved": .reviewed, "approvedtranslation": .reviewed, "proofread": .reviewed, "signed": .reviewed, "signedoff": .reviewed,
        "approvedsignoff": .final,
    ]

    static func xliff20Value(for state: TranslationState) -> String {
        switch state {
        case .untranslated: "initial"
        case .translated: "translated"
        case .reviewed: "reviewed"
        case .final: "final"
        }
    }
}
