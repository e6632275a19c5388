import Model

extension LintContext {
    /// The location of the scalars `scalarOffset..<scalarOffset + length` of `text`.
    ///
    /// `Located.location(atScalarOffset:)` is exact for plain scalars, quoted ones without
    /// escapes and XML text it has columns for. Characters lint rules look for (a tab, U+2028, U+0085) can often only be written
    /// as escapes, so for a quoted scalar on one line this reads the source line and counts
    /// each escape (`\t`, `\u2028`, `''`) as the one scalar it stands for.
    func location(of text: Located<String>, atScalarOffset scalarOffset: Int, length: Int = 1) -> SourceLocation {
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
}
