import Model

extension LintContext {
    /// The location of the scalars `scalarOffset..<scalarOffset + length` of `text`.
    ///
    /// `Located.location(atScalarOffset:)` is exact for plain scalars, quoted ones without
    /// escapes and XML text it has columns for. Characters lint rules look for (a tab, U+2028, U+0085) can often only be written
    /// as escapes, so for a quoted scalar on one line this reads the source line and counts
    /// each escape (`\t`, `\u2028`, `''`) as the one scalar it stands for. A block scalar
    /// (`|` or `>`) is mapped line by line where that is exact (`positionsOfBlockScalar`).
    func location(of text: Located<String>, atScalarOffset scalarOffset: Int, length: Int = 1) -> SourceLocation {
        if case .opaque = text.style, let lineNumber = text.location.line, let column = text.location.column,
           let file = catalog.sourceFiles[text.location.path], let header = file.line(lineNumber),
           let positions = Self.positionsOfBlockScalar(
               text.value, header: Array(header.unicodeScalars), indicatorIndex: column - 1, lineNumber: lineNumber,
               line: { file.line($0) }) {
            let start = positions[min(max(scalarOffset, 0), positions.count - 1)]
            let end = positions[min(max(scalarOffset + length, 0), positions.count - 1)]
            return SourceLocation(
                file: text.location.file, line: start.line, column: start.column, endLine: end.line, endColumn: end.column)
        }
        guard case .quoted(hasEscapes: true) = text.style, let lineNumber = text.location.line,
              let column = text.location.column, let line = catalog.sourceFiles[text.location.path]?.line(lineNumber),
              let columns = Self.columnsOfQuotedScalar(Array(line.unicodeScalars), quoteIndex: column - 1),
              columns.count == text.value.unicodeScalars.count + 1
        else { return text.location(atScalarOffset: scalarOffset, length: length) }
        let start = min(max(scalarOffset, 0), columns.count - 1)
        let end = min(max(scalarOffset + length, start), columns.count - 1)
        return SourceLocation(
            file: text.location.file, line: lineNumber, column: columns[start], endLine: lineNumber, endColumn: columns[end])
    }

    /// The 1-based column of each scalar of a quoted YAML scalar that starts with its quote at
    /// `quoteIndex` and closes on the same line, plus the column of the closing quote; nil when
    /// the scalar does not close on this line.
    static func columnsOfQuotedScalar(_ line: [Unicode.Scalar], quoteIndex: Int) -> [Int]? {
        guard line.indices.contains(quoteIndex) else { return nil }
        let quote = line[quoteIndex]
        var columns: [Int] = []
        var index = quoteIndex + 1
        while index < line.count {
            let scalar = line[index]
            if quote == "\"" {
                if scalar == "\"" { return columns + [index + 1] }
                if scalar == "\\" {
                    guard index + 1 < line.count else { return nil }
                    columns.append(index + 1)
                    switch line[index + 1] {
                    case "x": index += 4
                    case "u": index += 6
                    case "U": index += 10
                    default: index += 2
                    }
                    continue
                }
            } else if quote == "'" {
                if scalar == "'" {
                    if index + 1 < line.count, line[index + 1] == "'" {
                        columns.append(index + 1)
                        index += 2
                        continue
                    }
                    return columns + [index + 1]
                }
            } else {
                return nil
            }
            columns.append(index + 1)
            index += 1
        }
        return nil
    }

    /// The line and column of each scalar of a block scalar whose indicator (`|` or `>`) is at
    /// `indicatorIndex` of line `lineNumber`, plus the place just after its text; nil unless
    /// each line of the block is exactly one line of `value`.
    ///
    /// That holds for literal scalars and for folded ones without empty or more-indented lines,
    /// whose lines are joined by single spaces. The value is rebuilt from the source lines that
    /// way and compared, so anything else (an explicit indentation, kept trailing lines, a
    /// folded paragraph break) keeps the indicator's location rather than a wrong one.
    static func positionsOfBlockScalar(
        _ value: String, header: [Unicode.Scalar], indicatorIndex: Int, lineNumber: Int, line: (Int) -> String?
    ) -> [(line: Int, column: Int)]? {
        guard header.indices.contains(indicatorIndex), header[indicatorIndex] == "|" || header[indicatorIndex] == ">" else {
            return nil
        }
        let isFolded = header[indicatorIndex] == ">"
        var index = indicatorIndex + 1
        if index < header.count, header[index] == "-" || header[index] == "+" { index += 1 }
        while index < header.count, header[index] == " " { index += 1 }
        guard index == header.count || (header[index] == "#" && header[index - 1] == " ") else { return nil }

        var lines: [[Unicode.Scalar]] = []
        var indentation: Int?
        while let next = line(lineNumber + 1 + lines.count).map({ Array($0.unicodeScalars) }) {
            let spaceCount = next.prefix { $0 == " " }.count
            if spaceCount < next.count {
                if indentation == nil { indentation = spaceCount }
                if let indentation, spaceCount < indentation { break }
            }
            lines.append(next)
        }
        // Blank lines after the text belong to chomping, or to what follows.
        while let last = lines.last, last.allSatisfy({ $0 == " " }) { lines.removeLast() }
        guard let indentation, !lines.isEmpty else { return nil }
        let contents = lines.map { $0.dropFirst(indentation) }
        if isFolded, !contents.allSatisfy({ $0.first.map { $0 != " " && $0 != "\t" } ?? false }) { return nil }

        var rebuilt: [Unicode.Scalar] = []
        var positions: [(line: Int, column: Int)] = []
        for (offset, content) in contents.enumerated() {
            if offset > 0 {
                rebuilt.append(isFolded ? " " : "\n")
                positions.append((lineNumber + offset, indentation + 1 + contents[offset - 1].count))
            }
            for (column, scalar) in content.enumerated() {
                rebuilt.append(scalar)
                positions.append((lineNumber + 1 + offset, indentation + 1 + column))
            }
        }
        let scalars = Array(value.unicodeScalars)
        // Clipping leaves one line break after the text, which ends its last line.
        guard scalars.starts(with: rebuilt), scalars.count - rebuilt.count <= 1,
              scalars.dropFirst(rebuilt.count).allSatisfy({ $0 == "\n" }) else { return nil }
        let end = (line: lineNumber + contents.count, column: indentation + 1 + contents[contents.count - 1].count)
        positions += repeatElement(end, count: scalars.count - rebuilt.count + 1)
        return positions
    }
}
