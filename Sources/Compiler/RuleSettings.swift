import Diagnostics
import Model

/// msgc.yaml's `rules:` checked against every code msgc knows, and applied.
///
/// A setting turns a code off or makes it a warning or an error; `SeverityPolicy` applies the
/// settings, in the order it documents. A setting may not lower an error that Apple would
/// refuse or that msgc cannot read past (`RuleInfo.mayBeLowered`).
public struct RuleSettings: Sendable {
    /// The level set for each code that has a usable setting.
    public private(set) var levels: [String: RuleSetting.Level] = [:]
    /// What is wrong with the settings as written: unknown codes, settings not allowed.
    public private(set) var diagnostics: [Diagnostic] = []

    public init(_ settings: [RuleSetting], codes: [RuleInfo]) {
        for setting in settings {
            let written = setting.code.value
            guard let info = codes.first(where: { $0.code == written.uppercased() || $0.name == written }) else {
                diagnostics.append(Self.unknown(setting.code, codes: codes))
                continue
            }
            let lowers = setting.level.value == .off || (setting.level.value == .warning && info.severity == .error)
            if lowers && !info.mayBeLowered {
                diagnostics.append(Self.lockedCode.diagnose(
                    "\(info.code) (\(info.name)) cannot be set to \(setting.level.value.rawValue): "
                        + "it finds what Apple refuses or what msgc cannot read past",
                    at: setting.level.map(\.rawValue).valueSpan, fixIts: [FixIt("remove this setting and fix what \(info.code) reports")]))
                continue
            }
            levels[info.code] = setting.level.value
        }
    }

    /// `diagnostics` with the settings applied: a code set `off` is dropped, one set to
    /// `warning` or `error` gets that severity.
    public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !levels.isEmpty else { return diagnostics }
        return diagnostics.compactMap { diagnostic in
            guard let level = levels[diagnostic.code] else { return diagnostic }
            var settled = diagnostic
            switch level {
            case .off: return nil
            case .warning: settled.severity = .warning
            case .error: settled.severity = .error
            }
            return settled
        }
    }

    private static func unknown(_ code: Located<String>, codes: [RuleInfo]) -> Diagnostic {
        let written = code.value
        let nearest = codes.map { info in
            (info: info, distance: min(editDistance(info.code, written.uppercased()), editDistance(info.name, written)))
        }.min { $0.distance < $1.distance }
        var fixIts: [FixIt] = []
        var notes = [Note("`msgc explain` lists every code")]
        if let (nearest, distance) = nearest, distance <= 2 {
            let replacement = written.uppercased() == written ? nearest.code : nearest.name
            let span = code.valueSpan
            fixIts.append(FixIt(
                "did you mean '\(replacement)'?", edits: span.endColumn == nil ? [] : [.init(location: span, replacement: replacement)]))
            notes = []
        }
        return unknownCode.diagnose("unknown code '\(written)' in rules", at: code.valueSpan, notes: notes, fixIts: fixIts)
    }

    public static let unknownCode = RuleInfo(
        code: "CFG009", name: "unknown-rule-code", severity: .error,
        summary: "`rules:` in msgc.yaml names a code or rule name msgc does not have.",
        rationale: "A setting for a code that does not exist does nothing, so a typo would leave the check it meant to change as it was, unnoticed. msgc accepts a code (`LEN002`) or a rule's name (`field-near-limit`) and suggests the nearest one.",
        examples: [
            .validFile("msgc.yaml", settingsExample("LEN002: off")),
            .invalidFile("msgc.yaml", settingsExample("⟦LEN020⟧: off")),
        ])

    public static let lockedCode = RuleInfo(
        code: "CFG010", name: "rule-setting-not-allowed", severity: .error,
        summary: "`rules:` in msgc.yaml turns off or lowers an error that cannot be lowered.",
        rationale: "Some errors stand for what Apple's API refuses (a header over the limit, an image of the wrong size, more than 2,000 messages) or for input msgc cannot read; turning them off would only move the failure to the upload. `msgc explain CODE` says under \"Settings\" whether a code may be changed. Warnings may always be turned off or raised to errors.",
        examples: [
            .validFile("msgc.yaml", settingsExample("TXT011: error")),
            .invalidFile("msgc.yaml", settingsExample("LEN001: ⟦off⟧")),
        ])

    public static let all = [unknownCode, lockedCode]

    private static func settingsExample(_ setting: String) -> String {
        "bundleId: com.example.news\nsourceLocale: en-US\nlocales: [en-US, de-DE]\nnamespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b\nproducts:\n  - id: com.example.news.premium.yearly\nrules:\n  \(setting)\n"
    }
}
