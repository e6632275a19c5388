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

    /// The state of `version` closest to a value it does not define, for a diagnostic: the one
    /// that differs only in case, else the one fewest edits away (`Translated` → `translated`,
    /// `signed_off` → `signed-off`, 1.2's `signed-off` in a 2.0 file → `reviewed`, a 1.2-style
    /// `x-…` in a 2.0 file → `initial`).
    static func nearest(to raw: String, in version: TranslationFile.Version) -> String {
        let lowered = raw.lowercased()
        if let same = version.stateValues.first(where: { $0 == lowered }) { return same }
        if version == .v2_0, let mapped = xliff20Equivalent[lowered] { return mapped }
        // 2.0 has no custom states: a tool's own goes in `subState`, beside `initial` (what
        // msgc reads an unknown state as) until someone says the text is translated.
        if version == .v2_0 && lowered.hasPrefix("x-") { return "initial" }
        let letters = String(lowered.map { $0 == "_" ? "-" : $0 })
        var best = version.stateValues[0]
        var bestDistance = Int.max
        for candidate in version.stateValues {
            let distance = editDistance(letters, candidate)
            if distance < bestDistance {
                best = candidate
                bestDistance = distance
            }
        }
        return best
    }

    /// XLIFF 1.2 states written in a 2.0 file, and the 2.0 state each means.
    private static let xliff20Equivalent: [String: String] = [
        "new": "initial", "needs-translation": "initial", "needs-adaptation": "initial", "needs-l10n": "initial",
        "needs-review-translation": "translated", "needs-review-adaptation": "translated", "needs-review-l10n": "translated",
        "signed-off": "reviewed", "approved": "reviewed",
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
