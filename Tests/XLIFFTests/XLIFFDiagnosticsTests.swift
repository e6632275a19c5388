import Diagnostics
import Model
import Testing
@testable import XLIFF

@Suite("XLIFF diagnostics catalogue")
struct XLIFFDiagnosticsTests {
    @Test("codes are XLF, unique, in order, with unique kebab-case names")
    func catalogue() {
        let codes = XLIFFDiagnostics.infos.map(\.code)
        let expected: [String] = (1...codes.count).map { (number: Int) -> String in
            let digits = String(number)
            return "XLF" + String(repeating: "0", count: 3 - digits.count) + digits
        }
        #expect(codes == expected)
        let names = XLIFFDiagnostics.infos.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } })
        for info in XLIFFDiagnostics.infos {
            #expect(info.summary.hasSuffix("."), "\(info.code)")
            #expect(!info.rationale.isEmpty, "\(info.code)")
        }
    }

    struct MarkedExample: CustomTestStringConvertible {
        var info: RuleInfo
        var example: RuleExample
        var testDescription: String { "\(info.code) \(example.kind.rawValue)" }
    }

    /// The examples written as text, read by the reader alone. An example made of special
    /// files (XLF006's oversized file) is a content tree's: RuleExamplesTests runs it, as it
    /// runs every example through the compiler.
    static let examples: [MarkedExample] = XLIFFDiagnostics.infos.flatMap { info in
        info.examples.filter { $0.specialFiles.isEmpty }.map { MarkedExample(info: info, example: $0) }
    }

    /// The text without `⟦`/`⟧`, and the marked span as (line, column, endLine, endColumn).
    static func unmark(_ text: String) -> (String, (Int, Int, Int, Int)?) {
        var plain = String.UnicodeScalarView()
        var line = 1
        var column = 1
        var start: (Int, Int)?
        var span: (Int, Int, Int, Int)?
        for scalar in text.unicodeScalars {
            switch scalar {
            case "⟦": start = (line, column)
            case "⟧": if let start { span = (start.0, start.1, line, column) }
            default:
                plain.append(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
        }
        return (String(plain), span)
    }

    @Test("every example does what it says, at the marked place", arguments: examples)
    func example(_ marked: MarkedExample) throws {
        let (text, span) = Self.unmark(marked.example.text)
        let (_, diagnostics) = XLIFFReader.read(bytes: Array(text.utf8), path: marked.example.path)
        switch marked.example.kind {
        case .valid:
            #expect(diagnostics.isEmpty)
        case .invalid:
            let diagnostic = try #require(diagnostics.first { $0.code == marked.info.code })
            #expect(diagnostics.count == 1)
            #expect(diagnostic.severity == marked.info.severity)
            let (line, column, endLine, endColumn) = try #require(span)
            #expect(diagnostic.location.line == line)
            #expect(diagnostic.location.column == column)
            if (endLine, endColumn) != (line, column) {
                #expect(diagnostic.location.endLine == endLine)
                #expect(diagnostic.location.endColumn == endColumn)
            }
        }
    }
}
