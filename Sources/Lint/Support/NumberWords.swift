/// English number words in a source text, read as the numbers they name, for `NumberMismatch`.
///
/// A writer spells small numbers out ("at least one", "two-factor", "zero fees"), while many
/// translators write the digit (Japanese `1つ`, German `0 €`). The words are the cardinals
/// zero to twelve and the ordinals first to twelfth, month names (`March` → `3月`),
/// multiplicatives (`once`, `single`, `twice`), `dozen`, `hex` (`16進数`), and a unit after
/// "every", "each" or "per" (`every hour` → `１時間ごと`), in any case, as whole words: alone or as
/// part of a hyphenated compound ("two-factor", "one-time"), but not next to a tens word
/// ("twenty-one" is not one), and not inside a longer word ("someone", "often"). A word
/// followed by `%`, "percent" or "per cent" is a percentage.
///
/// Only English is read: the words of other source languages are left alone, and so are
/// number words in translations (a translation keeps the source's digits; see the rule).
enum NumberWords {
    static let cardinals = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    static let ordinals = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"]
    static let tens: Set<String> = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// Whether texts in `locale` (a BCP 47 tag) are read for number words: English only.
    static func reads(locale: String) -> Bool {
        let language = locale.prefix { $0 != "-" && $0 != "_" }
        return language.lowercased() == "en"
    }

    /// Month names, which translators write as numerals (`March` → `3月`, `3.`), and their
    /// usual abbreviations (not `may`'s, which is also a verb: "May" alone counts).
    static let months = ["", "january", "february", "march", "april", "may", "june", "july", "august", "september",
                         "october", "november", "december"]
    static let monthAbbreviations = ["jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
                                     "sept": 9, "oct": 10, "nov": 11, "dec": 12]
    /// Multiplicatives and other words that name a number (`once` → `1度`, `single` → `1つ`,
    /// `twice` → `2回`, `hex` → `16進数`, `dozen` → `12`).
    static let others = ["once": 1, "single": 1, "twice": 2, "double": 2, "thrice": 3, "triple": 3, "dozen": 12,
                         "hex": 16, "hexadecimal": 16]
    /// Units that "every", "each" or "per" makes one of (`every hour` → `１時間ごと`).
    static let units: Set<String> = ["second", "minute", "hour", "day", "week", "month", "year"]

    /// The value a lowercased word names, nil for any other word.
    static func value(of word: String) -> Int? {
        if let index = cardinals.firstIndex(of: word) { return index }
        if let index = ordinals.firstIndex(of: word), index > 0 { return index }
        if let index = months.firstIndex(of: word), index > 0 { return index }
        return monthAbbreviations[word] ?? others[word]
    }

    static func numbers(in text: String) -> [NumberToken] {
        let scalars = Array(text.unicodeScalars)
        // Words as runs of letters, with where each starts.
        var words: [(start: Int, end: Int, text: String)] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index].properties.isAlphabetic else { index += 1; continue }
            let start = index
            while index < scalars.count, scalars[index].properties.isAlphabetic { index += 1 }
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[start..<index])
            words.append((start, index, String(word).lowercased()))
        }
        var tokens: [NumberToken] = []
        for (position, word) in words.enumerated() {
            // "every hour", "each day", "per month": one of the unit.
            let isUnitAfterEvery = units.contains(word.text) && position > 0 && ["every", "each", "per"].contains(words[position - 1].text)
            guard let value = isUnitAfterEvery ? 1 : value(of: word.text) else { continue }
            // "twenty-one": a compound with a tens word names another number.
            let joinedBefore = position > 0 && word.start - words[position - 1].end == 1 && scalars[word.start - 1] == "-"
            let joinedAfter = position + 1 < words.count && words[position + 1].start - word.end == 1 && scalars[word.end] == "-"
            if joinedBefore && tens.contains(words[position - 1].text) { continue }
            if joinedAfter && tens.contains(words[position + 1].text) { continue }
            var isPercent = false
            var look = word.end
            while look < scalars.count, NumberScanner.isSpace(scalars[look].value) { look += 1 }
            if look < scalars.count, NumberScanner.isPercentSign(scalars[look].value) {
                isPercent = true
            } else if position + 1 < words.count, words[position + 1].start == look {
                let next = words[position + 1].text
                isPercent = next == "percent" || (next == "per" && position + 2 < words.count && words[position + 2].text == "cent")
            }
            var written = String.UnicodeScalarView()
            written.append(contentsOf: scalars[word.start..<word.end])
            tokens.append(NumberToken(
                value: String(value), isPercent: isPercent, scalarOffset: word.start, scalarLength: word.end - word.start,
                text: String(written)))
        }
        return tokens
    }
}
