/// Known mistakes that produce an unregistered subtag, with the subtag meant.
///
/// The registry can't suggest these: it never lists ISO 639-2 codes for languages that have
/// a 2-letter code, and `UK`, `CHS` or `POSIX` were never registered. The table covers the
/// common cases from the localization reference (§4.4): `en-UK`, the .NET names
/// `zh-CHS`/`zh-CHT`, ICU's `en-US-POSIX`, and the 3-letter ISO 639-2 codes (bibliographic and terminology) of the languages App
/// Store Connect has codes for, including the 11 added in 2026. A test checks that none of
/// the mistaken subtags is registered.
struct SubtagCorrection: Sendable {
    /// The subtag to write instead, in conventional case.
    var subtag: String
    /// What the right subtag stands for, for the message: `the United Kingdom is 'GB'`.
    var explanation: String

    /// The correction for an unregistered subtag in a role, matched case-insensitively.
    static func correction(for subtag: String, role: LanguageTag.Subtag.Role) -> SubtagCorrection? {
        let key = subtag.lowercased()
        switch role {
        case .region where key == "uk":
            return SubtagCorrection(subtag: "GB", explanation: "the United Kingdom is 'GB'")
        case .extlang where key == "chs":
            return SubtagCorrection(subtag: "Hans", explanation: "Simplified Chinese is the script 'Hans'")
        case .extlang where key == "cht":
            return SubtagCorrection(subtag: "Hant", explanation: "Traditional Chinese is the script 'Hant'")
        case .variant where key == "posix":
            return SubtagCorrection(subtag: "u-va-posix", explanation: "the POSIX variant is written 'u-va-posix'")
        case .language:
            guard let code = iso639Part2[key] else { return nil }
            return SubtagCorrection(subtag: code, explanation: "use the 2-letter code '\(code)'")
        default:
            return nil
        }
    }

    /// ISO 639-2 codes (B and T) whose language BCP 47 writes with its ISO 639-1 code.
    static let iso639Part2: [String: String] = [
        "ara": "ar", "ben": "bn", "cat": "ca", "ces": "cs", "chi": "zh", "cze": "cs", "dan": "da",
        "deu": "de", "dut": "nl", "ell": "el", "eng": "en", "fin": "fi", "fra": "fr", "fre": "fr",
        "ger": "de", "gre": "el", "guj": "gu", "heb": "he", "hin": "hi", "hrv": "hr", "hun": "hu",
        "ind": "id", "ita": "it", "jpn": "ja", "kan": "kn", "kor": "ko", "mal": "ml", "mar": "mr",
        "may": "ms", "msa": "ms", "nld": "nl", "nob": "nb", "nor": "no", "ori": "or", "pan": "pa",
        "pol": "pl", "por": "pt", "ron": "ro", "rum": "ro", "rus": "ru", "slk": "sk", "slo": "sk",
        "slv": "sl", "spa": "es", "swe": "sv", "tam": "ta", "tel": "te", "tha": "th", "tur": "tr",
        "ukr": "uk", "urd": "ur", "vie": "vi", "zho": "zh",
    ]
}
