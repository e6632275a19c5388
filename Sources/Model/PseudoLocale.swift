/// Pseudo locales: tags that stand for no real language, used to see how messages behave when
/// translated (longer text, accented letters, right-to-left layout) before any translator starts.
///
/// A tag is a pseudo locale when its region is one of BCP 47's private-use region codes `XA`–`XZ`
/// (the convention Android and Chromium follow: `en-XA` accented, `ar-XB` right to left) or when
/// its private-use part is `x-pseudo` (`en-x-pseudo`). Both are valid BCP 47 and neither is an
/// App Store Connect locale code, so Apple would refuse them: msgc lints and previews pseudo
/// locales but never puts one in a bundle. The check is on the tag's shape only, case-insensitive;
/// whether the tag is valid and in canonical case is the locale rules' business.
public enum PseudoLocale {
    /// The conventional pseudo locales: accented and expanded, and right to left.
    public static let accented = "en-XA"
    public static let rightToLeft = "ar-XB"

    public static func isPseudo(_ tag: String) -> Bool {
        // Only a tag of BCP 47's alphabet (ASCII letters, digits, hyphens between subtags of 1–8)
        // can be one: a pseudo locale names a file in `translations/` and a preview page, and
        // `ab-xa-/../../victim` must never pass for one.
        guard tag.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D })
        else { return false }
        let subtags = tag.lowercased().split(separator: "-", omittingEmptySubsequences: false)
        guard subtags.allSatisfy({ (1...8).contains($0.count) }) else { return false }
        guard let first = subtags.first, first.count >= 2, first.count <= 8, first != "x" else { return false }
        if let privateUse = subtags.firstIndex(of: "x"), Array(subtags[(privateUse + 1)...]) == ["pseudo"] { return true }
        // The region follows the language and an optional 4-letter script, before any variant,
        // extension or private use; only there is a two-letter subtag a region.
        for subtag in subtags.dropFirst().prefix(2) {
            if subtag.count == 4, subtag.allSatisfy(\.isLetter) { continue }
            return subtag.count == 2 && subtag.first == "x" && subtag.last!.isLetter && subtag.last!.isASCII
        }
        return false
    }
}

/// Which way a locale's text runs, from its language subtag.
public enum LocaleDirection {
    /// Languages written right to left (Arabic, Hebrew, Persian, Urdu and others), with the
    /// deprecated `iw` for Hebrew.
    public static let rightToLeftLanguages: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ps", "sd", "syr", "ug", "ur", "yi"]

    public static func isRightToLeft(_ locale: String) -> Bool {
        let language = locale.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return rightToLeftLanguages.contains(language)
    }
}
