/// Parses text against RFC 5646's `Language-Tag` grammar, reporting the first problem with
/// the offset of the offending part.
///
/// `_` is read as a separator so that `en_US` gets its grammar checked like `en-US`; if that
/// is the only problem, the error is `.underscoreSeparator` with the corrected tag. Other
/// problems come first because the `_` fix alone wouldn't make the tag usable (`en_US.UTF-8`
/// is reported for its `.`).
enum LanguageTagParser {
    /// A subtag's text and where it starts, in Unicode scalars.
    private struct Token {
        var text: String
        var offset: Int
        var length: Int { text.utf8.count }
        var isAlpha: Bool { text.utf8.allSatisfy(LanguageTagParser.isLetter) }
        var isDigits: Bool { text.utf8.allSatisfy(LanguageTagParser.isDigit) }
    }

    /// The slots of a `langtag`, in the order they must appear.
    private enum Slot: Int, Comparable {
        case language, extlang, script, region, variant

        static func < (lhs: Slot, rhs: Slot) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    static func parse(_ text: String) -> Result<LanguageTag, LanguageTagSyntaxError> {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else {
            return .failure(.init(reason: .empty, message: "the language tag is empty", scalarOffset: 0, scalarLength: 0))
        }
        var firstUnderscore: Int?
        for (offset, scalar) in scalars.enumerated() {
            if scalar == "_" {
                firstUnderscore = firstUnderscore ?? offset
            } else if scalar != "-" && !(scalar.isASCII && isLetterOrDigit(UInt8(scalar.value))) {
                return .failure(.init(
                    reason: .invalidCharacter,
                    message: "\(describe(scalar)) is not allowed in a language tag; tags use only ASCII letters, digits and '-'",
                    scalarOffset: offset, scalarLength: 1))
            }
        }

        let tokens: [Token]
        switch tokenize(scalars) {
        case .success(let result): tokens = result
        case .failure(let error): return .failure(error)
        }
        let parsed: Result<LanguageTag, LanguageTagSyntaxError>
        let normalized = tokens.map { $0.text }.joined(separator: "-")
        if SubtagRegistry.record(for: normalized, type: .grandfathered) != nil {
            parsed = .success(LanguageTag(
                text: normalized, subtags: [.init(text: normalized, role: .grandfathered, scalarOffset: 0)]))
        } else {
            parsed = parseLangtag(tokens, text: text)
        }
        guard case .success(let tag) = parsed, let underscore = firstUnderscore else { return parsed }
        return .failure(.init(
            reason: .underscoreSeparator,
            message: "'\(text)' uses '_' as a separator; BCP 47 uses '-'",
            scalarOffset: underscore, scalarLength: 1,
            correctedTag: tag.withCanonicalCase().text))
    }

    /// Splits at `-` and `_`, rejecting empty and over-long subtags.
    private static func tokenize(_ scalars: [Unicode.Scalar]) -> Result<[Token], LanguageTagSyntaxError> {
        var tokens: [Token] = []
        var current = ""
        var start = 0
        for offset in 0...scalars.count {
            // A virtual separator after the last scalar closes the last subtag.
            let scalar: Unicode.Scalar = offset < scalars.count ? scalars[offset] : "-"
            guard scalar == "-" || scalar == "_" else {
                current.unicodeScalars.append(scalar)
                continue
            }
            if current.isEmpty {
                let separator = offset < scalars.count ? scalars[offset] : scalars[offset - 1]
                let message = offset == 0 ? "the tag starts with '\(separator)'"
                    : offset == scalars.count ? "the tag ends with '\(separator)'"
                    : "the tag has two separators in a row"
                return .failure(.init(
                    reason: .emptySubtag, message: message,
                    scalarOffset: min(offset, scalars.count - 1), scalarLength: 1))
            }
            if current.utf8.count > 8 {
                return .failure(.init(
                    reason: .subtagTooLong,
                    message: "'\(current)' has \(current.utf8.count) characters; a subtag has at most 8",
                    scalarOffset: start, scalarLength: current.utf8.count))
            }
            tokens.append(Token(text: current, offset: start))
            current = ""
            start = offset + 1
        }
        return .success(tokens)
    }

    /// The `langtag` and `privateuse` productions.
    private static func parseLangtag(_ tokens: [Token], text: String) -> Result<LanguageTag, LanguageTagSyntaxError> {
        var subtags: [LanguageTag.Subtag] = []
        func add(_ token: Token, _ role: LanguageTag.Subtag.Role) {
            subtags.append(.init(text: token.text, role: role, scalarOffset: token.offset))
        }
        func failure(_ reason: LanguageTagSyntaxError.Reason, _ message: String, _ token: Token)
            -> Result<LanguageTag, LanguageTagSyntaxError>
        {
            .failure(.init(reason: reason, message: message, scalarOffset: token.offset, scalarLength: token.length))
        }

        let first = tokens[0]
        let firstLowercased = first.text.lowercased()
        var index = 0
        if firstLowercased == "x" {
            // A private-use tag: handled by the loop below as if after a language.
        } else if firstLowercased == "i" {
            return .failure(.init(
                reason: .invalidLanguage,
                message: "'\(text)' is not one of the grandfathered 'i-' tags",
                scalarOffset: 0, scalarLength: text.unicodeScalars.count))
        } else if first.length == 1 {
            return failure(.invalidLanguage,
                "'\(first.text)' cannot start a tag; a tag starts with a language subtag of 2–8 letters, or 'x' for private use",
                first)
        } else if !first.isAlpha {
            return failure(.invalidLanguage,
                "'\(first.text)' is not a language subtag; a tag starts with 2–8 letters", first)
        } else {
            add(first, .language)
            index = 1
        }

        let languageTakesExtlangs = first.length <= 3
        var slot = Slot.language
        var extlangCount = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.length == 1 {
                if token.text.lowercased() == "x" {
                    guard index + 1 < tokens.count else {
                        return failure(.emptyPrivateUse, "'\(token.text)' is not followed by a private-use subtag", token)
                    }
                    add(token, .privateUseSingleton)
                    for subtag in tokens[(index + 1)...] { add(subtag, .privateUseSubtag) }
                    break
                }
                var end = index + 1
                while end < tokens.count && tokens[end].length > 1 { end += 1 }
                guard end > index + 1 else {
                    return failure(.emptyExtension, "the extension '\(token.text)' has no subtags", token)
                }
                add(token, .extensionSingleton)
                for subtag in tokens[(index + 1)..<end] { add(subtag, .extensionSubtag) }
                index = end
                continue
            }

            let isVariant = token.length >= 5 || (token.length == 4 && isDigit(token.text.utf8.first!))
            if slot <= .extlang && languageTakesExtlangs && token.length == 3 && token.isAlpha {
                guard extlangCount < 3 else {
                    return failure(.tooManyExtlangs,
                        "'\(token.text)' is a fourth extended language subtag; a tag has at most 3", token)
                }
                extlangCount += 1
                add(token, .extlang)
                slot = .extlang
            } else if slot < .script && token.length == 4 && token.isAlpha {
                add(token, .script)
                slot = .script
            } else if slot < .region && ((token.length == 2 && token.isAlpha) || (token.length == 3 && token.isDigits)) {
                add(token, .region)
                slot = .region
            } else if isVariant {
                add(token, .variant)
                slot = .variant
            } else {
                return failure(.misplacedSubtag, misplacedMessage(token, slot: slot, language: subtags.first), token)
            }
            index += 1
        }
        return .success(LanguageTag(text: text, subtags: subtags))
    }

    /// Says why a subtag fits no slot, naming the slot its shape suggests.
    private static func misplacedMessage(_ token: Token, slot: Slot, language: LanguageTag.Subtag?) -> String {
        let quoted = "'\(token.text)'"
        let languageText = language?.text ?? ""
        switch (token.length, token.isAlpha, token.isDigits) {
        case (3, true, _):
            if slot <= .extlang {
                return "\(quoted) cannot follow the language '\(languageText)'; extended language subtags follow only a 2–3 letter language"
            }
            return "\(quoted) is out of place; an extended language subtag comes right after the language"
        case (4, true, _):
            if slot == .script { return "\(quoted) is a second script subtag; a tag has at most one" }
            return "\(quoted) is out of place; the script comes before the region and variants"
        case (2, true, _), (3, _, true):
            if slot == .region { return "\(quoted) is a second region subtag; a tag has at most one" }
            return "\(quoted) is out of place; the region comes before variants"
        default:
            let expected = switch slot {
            case .language: "an extended language, script, region or variant"
            case .extlang: "a script, region or variant"
            case .script: "a region or variant"
            case .region, .variant: "a variant"
            }
            return "\(quoted) is not \(expected) subtag; variants have 5–8 letters or digits, or a digit and 3 more"
        }
    }

    /// `'.'` for visible ASCII, the code point for anything that may not show.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let codePoint = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if scalar == " " { return "a space" }
        if scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F { return "'\(scalar)'" }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned,
             .privateUse, .surrogate, .nonspacingMark, .enclosingMark, .spacingMark:
            return codePoint
        default:
            return "'\(scalar)' (\(codePoint))"
        }
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte)
    }
}
