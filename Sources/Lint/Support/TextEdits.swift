import Diagnostics
import Foundation
import Model

extension LintContext {
    /// The edit that replaces the scalars `scalarOffset..<scalarOffset + length` of `text` with
    /// `replacement` (nothing, to remove them) where they are written in their file; nil unless
    /// that is exactly what the edit does.
    ///
    /// An edit must change those characters and nothing else, as the file writes them: a
    /// character may be written as itself, as a YAML escape (`\u200B`, `\t`), a doubled single
    /// quote, an XML character reference (`&#x200B;`, `&#9;`), a predefined entity or an XLIFF 2.0
    /// `<cp hex="200B"/>`. So the span `location(of:atScalarOffset:length:)` gives must lie on one
    /// line, and what the line writes there must read back as exactly those characters, whole
    /// escapes and references only (never a tag next to them). In a plain YAML scalar the
    /// result must still read as itself (no `: ` or ` #` made, no white space or indicator
    /// at its start, nothing empty); in a block scalar the edit may not touch a line's
    /// indentation. Anything else gets no edit: the fix-it keeps its sentence only.
    func edit(
        replacing text: Located<String>, atScalarOffset scalarOffset: Int, length: Int = 1, with replacement: String = ""
    ) -> FixIt.Edit? {
        let scalars = Array(text.value.unicodeScalars)
        guard scalarOffset >= 0, length > 0, scalarOffset + length <= scalars.count else { return nil }
        let location = location(of: text, atScalarOffset: scalarOffset, length: length)
        // Only the scalars the edit needs are read from the line, which may be a megabyte long.
        guard let line = location.line, let column = location.column, location.endLine == line,
              let endColumn = location.endColumn, endColumn > column,
              let file = catalog.sourceFiles[location.path],
              let segment = file.scalars(line: line, columns: column..<endColumn) else { return nil }
        let removed = scalars[scalarOffset..<(scalarOffset + length)]
        let path = location.path.lowercased()
        if path.hasSuffix(".xliff") || path.hasSuffix(".xlf") {
            guard WrittenText.xml(segment).map({ $0.elementsEqual(removed) }) == true else { return nil }
            return FixIt.Edit(location: location, replacement: Self.xmlEscaped(replacement))
        }
        switch text.style {
        case .quoted:
            guard let quoteLine = text.location.line, let quoteColumn = text.location.column,
                  let quote = quoteLine == line ? file.scalars(line: line, columns: quoteColumn..<(quoteColumn + 1))?.first : nil,
                  WrittenText.yamlQuoted(segment, quote: quote).map({ $0.elementsEqual(removed) }) == true,
                  !replacement.unicodeScalars.contains(where: { $0 == quote || $0 == "\\" || $0.value < 0x20 }) else { return nil }
            return FixIt.Edit(location: location, replacement: replacement)
        case .plain, .opaque:
            guard segment.elementsEqual(removed) else { return nil }
            var result = scalars
            result.replaceSubrange(scalarOffset..<(scalarOffset + length), with: replacement.unicodeScalars)
            if case .plain = text.style {
                guard Self.readsAsPlainScalar(result) else { return nil }
            } else {
                // A block scalar: a line's first character may go only when what follows it
                // is not white space, which would then count as indentation.
                let isLineStart = column == 1 || file.scalars(line: line, columns: 1..<column)?.allSatisfy { $0 == " " } == true
                if isLineStart {
                    guard let next = file.scalars(line: line, columns: endColumn..<(endColumn + 1))?.first, next != " ", next != "\t",
                          replacement.unicodeScalars.first.map({ $0 != " " && $0 != "\t" }) ?? true else { return nil }
                }
                guard !replacement.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else { return nil }
            }
            return FixIt.Edit(location: location, replacement: replacement)
        case .mapped:
            return nil
        }
    }

    /// Whether `scalars`, written as a plain YAML scalar on one line after a key, read back as
    /// themselves: not empty or null, no white space or indicator first, no white space or `:`
    /// last, and no `: ` (a mapping) or ` #` (a comment) inside.
    static func readsAsPlainScalar(_ scalars: [Unicode.Scalar]) -> Bool {
        guard let first = scalars.first, let last = scalars.last else { return false }
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
        if isSpace(first) || "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return false }
        if isSpace(last) || last == ":" { return false }
        for index in scalars.indices.dropLast() {
            if scalars[index] == ":" && isSpace(scalars[index + 1]) { return false }
            if isSpace(scalars[index]) && scalars[index + 1] == "#" { return false }
        }
        for scalar in scalars where scalar.value < 0x20 || scalar == "\u{7F}" { return false }
        let text = String(String.UnicodeScalarView(scalars))
        return !["~", "null", "Null", "NULL"].contains(text)
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}

/// What a written form reads as, for `LintContext.edit(replacing:…)`: nil when it is not a whole
/// number of characters, escapes or references (a tag, half an escape).
enum WrittenText {
    /// XML element text: characters as themselves, character references, the predefined
    /// entities, and XLIFF 2.0's `<cp hex="…"/>`.
    static func xml<C: Collection<Unicode.Scalar>>(_ written: C) -> [Unicode.Scalar]? {
        let written = Array(written)
        var result: [Unicode.Scalar] = []
        var index = 0
        while index < written.count {
            let scalar = written[index]
            if scalar == "&" {
                guard let end = written[index...].firstIndex(of: ";") else { return nil }
                let name = String(String.UnicodeScalarView(written[(index + 1)..<end]))
                let value: UInt32? = switch name {
                case "amp": 0x26
                case "lt": 0x3C
                case "gt": 0x3E
                case "quot": 0x22
                case "apos": 0x27
                default:
                    if name.hasPrefix("#x") { UInt32(name.dropFirst(2), radix: 16) } else if name.hasPrefix("#") { UInt32(name.dropFirst(), radix: 10) } else { nil }
                }
                guard let value, let decoded = Unicode.Scalar(value) else { return nil }
                result.append(decoded)
                index = end + 1
            } else if scalar == "<" {
                // Only `<cp hex="…"/>`, XLIFF 2.0's way to write a character XML cannot hold.
                guard let end = written[index...].firstIndex(of: ">") else { return nil }
                let tag = String(String.UnicodeScalarView(written[index...end])).replacingOccurrences(of: "'", with: "\"")
                guard tag.hasPrefix("<cp hex=\""), tag.hasSuffix("\"/>") || tag.hasSuffix("\" />") else { return nil }
                let hex = tag.dropFirst("<cp hex=\"".count).prefix { $0 != "\"" }
                guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
                result.append(decoded)
                index = end + 1
            } else {
                result.append(scalar)
                index += 1
            }
        }
        return result
    }

    /// The inside of a YAML quoted scalar opened with `quote`: in double quotes, characters as
    /// themselves and escapes; in single quotes, characters as themselves and `''`.
    static func yamlQuoted<C: Collection<Unicode.Scalar>>(_ written: C, quote: Unicode.Scalar) -> [Unicode.Scalar]? {
        let written = Array(written)
        var result: [Unicode.Scalar] = []
        var index = 0
        while index < written.count {
            let scalar = written[index]
            if quote == "'" {
                if scalar == "'" {
                    guard index + 1 < written.count, written[index + 1] == "'" else { return nil }
                    index += 1
                }
                result.append(scalar)
                index += 1
                continue
            }
            guard quote == "\"" else { return nil }
            if scalar == "\"" { return nil }
            guard scalar == "\\" else {
                result.append(scalar)
                index += 1
                continue
            }
            guard index + 1 < written.count else { return nil }
            let kind = written[index + 1]
            let hexCount: Int? = switch kind {
            case "x": 2
            case "u": 4
            case "U": 8
            default: nil
            }
            if let hexCount {
                guard index + 2 + hexCount <= written.count,
                      let value = UInt32(String(String.UnicodeScalarView(written[(index + 2)..<(index + 2 + hexCount)])), radix: 16),
                      let decoded = Unicode.Scalar(value) else { return nil }
                result.append(decoded)
                index += 2 + hexCount
                continue
            }
            let simple: UInt32? = switch kind {
            case "0": 0x00
            case "a": 0x07
            case "b": 0x08
            case "t", "\t": 0x09
            case "n": 0x0A
            case "v": 0x0B
            case "f": 0x0C
            case "r": 0x0D
            case "e": 0x1B
            case " ": 0x20
            case "\"": 0x22
            case "/": 0x2F
            case "\\": 0x5C
            case "N": 0x85
            case "_": 0xA0
            case "L": 0x2028
            case "P": 0x2029
            default: nil
            }
            guard let simple, let decoded = Unicode.Scalar(simple) else { return nil }
            result.append(decoded)
            index += 2
        }
        return result
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
