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
        if let answer = tag.utf8.withContiguousStorageIfAvailable(isPseudo(utf8:)) { return answer }
        return Array(tag.utf8).withUnsafeBufferPointer(isPseudo(utf8:))
    }

    /// `isPseudo` on the tag's UTF-8, subtag by subtag, without making strings: the severity
    /// policy asks it of every finding about a locale.
    private static func isPseudo(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isLower(_ byte: UInt8, _ letter: Unicode.Scalar) -> Bool { isLetter(byte) && byte | 0x20 == UInt8(ascii: letter) }
        // Only a tag of BCP 47's alphabet (ASCII letters, digits, hyphens between subtags of 1–8)
        // can be one: a pseudo locale names a file in `translations/` and a preview page, and
        // `ab-xa-/../../victim` must never pass for one.
        var subtag = 0
        var start = 0
        /// The place of the first subtag `x` (private use), and what follows it.
        var privateUse = -1
        var subtagsAfterPrivateUse = 0
        var isPseudoAfterPrivateUse = false
        /// Decided by the first of subtags 1 and 2 that is no 4-letter script: the region
        /// follows the language and an optional script, before any variant, extension or
        /// private use; only there is a two-letter subtag a region.
        var regionAnswer: Bool?
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "-") {
                guard isLetter(bytes[end]) || (0x30...0x39).contains(bytes[end]) else { return false }
                end += 1
            }
            let length = end - start
            guard (1...8).contains(length), subtag > 0 || length >= 2 else { return false }
            if privateUse >= 0 {
                subtagsAfterPrivateUse += 1
                if subtagsAfterPrivateUse == 1 {
                    isPseudoAfterPrivateUse = length == 6 && zip(bytes[start..<end], "pseudo".unicodeScalars).allSatisfy { isLower($0, $1) }
                }
            } else if length == 1 && isLower(bytes[start], "x") {
                privateUse = subtag
            }
            if (subtag == 1 || subtag == 2) && regionAnswer == nil && !(length == 4 && bytes[start..<end].allSatisfy(isLetter)) {
                regionAnswer = length == 2 && isLower(bytes[start], "x") && isLetter(bytes[start + 1])
            }
            subtag += 1
            start = end + 1
        }
        if privateUse >= 0 && subtagsAfterPrivateUse == 1 && isPseudoAfterPrivateUse { return true }
        return regionAnswer ?? false
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
