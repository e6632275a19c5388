import Model
import Testing

/// `PseudoLocale.isPseudo` reads a tag's bytes subtag by subtag; it answers as the definition
/// reads when written with strings (`byDefinition`), for every tag made of these subtags.
@Suite struct PseudoLocaleTagTests {
    /// The definition, word for word: lower-case the tag, split it at hyphens, look at the
    /// private use part and at the subtags where a region can stand.
    static func byDefinition(_ tag: String) -> Bool {
        guard tag.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D })
        else { return false }
        let subtags = tag.lowercased().split(separator: "-", omittingEmptySubsequences: false)
        guard subtags.allSatisfy({ (1...8).contains($0.count) }) else { return false }
        guard let first = subtags.first, first.count >= 2, first.count <= 8, first != "x" else { return false }
        if let privateUse = subtags.firstIndex(of: "x"), Array(subtags[(privateUse + 1)...]) == ["pseudo"] { return true }
        for subtag in subtags.dropFirst().prefix(2) {
            if subtag.count == 4, subtag.allSatisfy(\.isLetter) { continue }
            return subtag.count == 2 && subtag.first == "x" && subtag.last!.isLetter && subtag.last!.isASCII
        }
        return false
    }

    static let parts = [
        "en", "EN", "ar", "x", "X", "xa", "XA", "Xb", "xz", "x1", "1x", "xx", "latn", "Latn", "lat1", "pseudo", "PSEUDO",
        "pseud", "pseudos", "a", "abcdefgh", "abcdefghi", "", "419", "12", "é", "x_a", "a/b",
    ]

    @Test func answersAsTheDefinitionDoes() {
        var tags = Self.parts
        for first in Self.parts { for second in Self.parts { tags.append(first + "-" + second) } }
        for first in ["en", "zh", "x"] {
            for second in Self.parts { for third in Self.parts { tags.append("\(first)-\(second)-\(third)") } }
        }
        tags += ["en-x-pseudo", "en-Latn-XA", "en-Latn-Cyrl-XA", "en-x-pseudo-x", "en-x-a-pseudo", "en-XA-x-pseudo", "-en", "en-", "en--XA"]
        for tag in tags {
            #expect(PseudoLocale.isPseudo(tag) == Self.byDefinition(tag), "\(tag)")
        }
        #expect(PseudoLocale.isPseudo("en-XA") && PseudoLocale.isPseudo("ar-XB") && PseudoLocale.isPseudo("en-x-pseudo"))
        #expect(!PseudoLocale.isPseudo("de-DE") && !PseudoLocale.isPseudo("ab-xa-/../../victim"))
    }
}
