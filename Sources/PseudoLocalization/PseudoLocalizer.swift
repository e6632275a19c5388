import Foundation
import Model

/// Turns source text into a pseudo-translation: the same words with accented letters, longer by
/// a set ratio and between brackets, and for a right-to-left pseudo locale laid out right to left.
///
/// `Stay with Plus for 50% off` becomes `[Šţàý ŵîţĥ Þļûš ƒöŕ 50% öƒƒ öñé ţŵö]` at +35%: a reader
/// still recognises the message, sees at once which text was not translated (no brackets, no
/// accents), whether the font has the letters, and where the text is cut or overflows.
///
/// - Expansion: the result counts `⌈n × (1 + expansion)⌉` in the project's length measure, where
///   `n` is the source's count after NFC (brackets and filler words included), so a message
///   overflows in the pseudo locale exactly when a translation that much longer would. Text too
///   short for its brackets to fit in that is only bracketed. In `utf8` the accents themselves
///   cost bytes, so the result may be longer than the target.
/// - Protected text: a word (a run between white space) that holds a digit, a placeholder
///   (`%@`, `%1$d`, `{name}`, `$(NAME)`), markup (`<b>`), a URL or an e-mail address is kept
///   exactly as written, so numbers, percentages and variables survive what the text rules
///   check (TXT011 compares numbers between source and translation). Filler words have no digits.
/// - Right to left (`ar-XB`): a right-to-left mark (U+200F) before each space makes the spaces
///   right-to-left, so the words run from right to left as they would in Arabic or Hebrew while
///   each word stays readable. No bidi embedding or override is used: msgc rejects those (TXT003).
/// - Empty or blank text stays as it is, so the rules about empty text say the same in both.
/// - The result is in NFC: every accented letter is one precomposed character.
public struct PseudoLocalizer: Sendable {
    /// The extra length as a fraction of the source's: 0.35 is 35% longer.
    public var expansion: Double
    public var isRightToLeft: Bool
    public var measure: LengthMeasure

    public init(expansion: Double = 0.35, isRightToLeft: Bool = false, measure: LengthMeasure = .utf16) {
        self.expansion = expansion
        self.isRightToLeft = isRightToLeft
        self.measure = measure
    }

    static let rightToLeftMark: Character = "\u{200F}"

    public func translate(_ source: String) -> String {
        let text = source.precomposedStringWithCanonicalMapping
        guard text.contains(where: { !$0.isWhitespace }) else { return source }
        let target = targetCount(for: text)

        var body = ""
        for (word, isSpace) in Self.words(of: text) {
            if isSpace {
                if isRightToLeft { body.append(Self.rightToLeftMark) }
                body += word
            } else {
                body += Self.isProtected(word) ? word : Self.accented(word)
            }
        }
        var result = "[" + body
        var filler = Self.filler.makeIterator()
        var needsSeparator = !(text.last?.isWhitespace ?? true)
        while measure.count(result + "]") < target {
            if needsSeparator {
                if isRightToLeft { result.append(Self.rightToLeftMark) }
                result.append(" ")
                needsSeparator = false
                continue
            }
            guard let next = filler.next() else { filler = Self.filler.makeIterator(); needsSeparator = true; continue }
            if next == " " {
                needsSeparator = true
            } else {
                result.append(next)
            }
        }
        // Never leave a space or a mark just before the closing bracket: lengthen the last word instead.
        var trimmed = 0
        while let last = result.last, last == " " || last == Self.rightToLeftMark, result.count > 1 + body.count {
            result.removeLast()
            trimmed += 1
        }
        result += String(repeating: "é", count: trimmed)
        return result + "]"
    }

    /// `⌈n × (1 + expansion)⌉` in the project's measure, computed in integers of parts per million
    /// so that the same ratio always gives the same count on every machine.
    func targetCount(for text: String) -> Int {
        let count = measure.count(text)
        let perMillion = Int((expansion * 1_000_000).rounded())
        return count + (count * perMillion + 999_999) / 1_000_000
    }

    /// The text cut into alternating runs of white space and of everything else.
    static func words(of text: String) -> [(text: String, isSpace: Bool)] {
        var runs: [(text: String, isSpace: Bool)] = []
        for character in text {
            let isSpace = character.isWhitespace
            if let last = runs.last, last.isSpace == isSpace {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append((String(character), isSpace))
            }
        }
        return runs
    }

    /// Whether a word must reach the translation unchanged: numbers, placeholders, markup, URLs
    /// and e-mail addresses.
    static func isProtected(_ word: String) -> Bool {
        if word.unicodeScalars.contains(where: { $0.properties.numericType != nil }) { return true }
        if word.contains("://") || word.hasPrefix("www.") { return true }
        if word.contains("@"), word.contains(".") { return true }
        for (open, close) in [("{", "}"), ("<", ">"), ("$(", ")"), ("[", "]")] {
            if word.contains(open), word.contains(close) { return true }
        }
        // printf-style: `%@`, `%d`, `%1$@`, `%lld`, `%%`.
        let scalars = Array(word.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar == "%" && index + 1 < scalars.count {
            let next = scalars[index + 1]
            if next == "@" || next == "%" || next == "$" || (next.isASCII && next.properties.isAlphabetic) { return true }
        }
        return false
    }

    static func accented(_ word: String) -> String {
        String(word.map { accents[$0] ?? $0 })
    }

    /// One precomposed letter (a single NFC scalar in the Basic Multilingual Plane) per ASCII
    /// letter, so accenting never changes a count in graphemes, scalars or UTF-16 units.
    static let accents: [Character: Character] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let marked = Array("àƀçďéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĎÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
        return Dictionary(uniqueKeysWithValues: zip(plain, marked))
    }()

    /// Words that pad a text to its expanded length: they wrap like words, and have no digits.
    static let filler = Array("öñé ţŵö ţĥŕéé ƒöûŕ ƒîṽé šîẋ šéṽéñ éîĝĥţ ñîñé ţéñ ")
}
