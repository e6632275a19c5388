import Bundle
import Diagnostics
import Lint
import Parser
import XLIFF

/// Every code msgc can report, each with its `RuleInfo`: the checks of message sources,
/// msgc.yaml and state files (Parser), of XLIFF files (XLIFF) and the lint rules (Lint).
///
/// `msgc explain`, the SARIF rules table, rule settings in msgc.yaml and the examples that
/// run as tests all read this one list.
public enum Codes {
    /// Sorted by code.
    public static let all: [RuleInfo] =
        (ParserDiagnostics.all + RuleSettings.all + XLIFFDiagnostics.infos + StateDiagnostics.all + Registry.infos
            + TranslatorReport.infos).sorted { $0.code < $1.code }

    /// The info for a code or a rule name, case-insensitively.
    public static func info(for codeOrName: String) -> RuleInfo? {
        let wanted = codeOrName.lowercased()
        return all.first { $0.code.lowercased() == wanted || $0.name == wanted }
    }
}
