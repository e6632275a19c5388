import Model

/// How XLIFF target states map onto msgc's `TranslationState`, both ways (docs/formats.md,
/// "States").
public enum XLIFFStates {
    /// The values XLIFF 1.2 allows for `target/@state` (besides `x-…`).
    public static let xliff12Values: Set<String> = [
        "new", "needs-translation", "needs-adaptation", "needs-l10n",
        "needs-review-translation", "needs-review-adaptation", "needs-review-l10n",
        "translated", "signed-off", "final",
    ]

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

    static func xliff20Value(for state: TranslationState) -> String {
        switch state {
        case .untranslated: "initial"
        case .translated: "translated"
        case .reviewed: "reviewed"
        case .final: "final"
        }
    }
}
