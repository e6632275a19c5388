import Compiler
import Foundation
import Model

/// What hovering over a text field shows: its length in the project's measure and in every
/// other against Apple's limit, and the same for the source and each locale's translation.
enum HoverText {
    /// The Markdown for the field at msgc's `line` and `column` of the file at `path`: a field
    /// of a message source, or a unit's source or target in an XLIFF file. Nil elsewhere.
    static func markdown(at path: String, line: Int, column: Int, in compilation: Compilation) -> String? {
        let catalog = compilation.catalog
        let measure = catalog.config?.lengthMeasure ?? .utf16
        if path.hasPrefix("translations/") {
            guard let file = catalog.translationFiles.first(where: { $0.path == path }),
                  let unit = file.units.first(where: { unit in
                      contains(unit.target?.valueSpan, line, column) || contains(unit.source.valueSpan, line, column)
                          || unit.id.location.line == line
                  }),
                  let (product, key, field) = unit.parsedID,
                  let message = catalog.messages.first(where: { $0.product.value == product && $0.key.value == key }) else { return nil }
            // The project's locale the file names (`de-de` is the project's `de-DE`).
            let locale = file.targetLanguage.map { tag in catalog.config.map { LocaleBinding($0).locale(for: tag.value) } ?? tag.value }
            return describe(message, field, highlighting: locale, unitTarget: unit.target?.value, measure: measure, compilation: compilation)
        }
        for message in catalog.messages where message.location.path == path {
            for (field, text) in message.fields where contains(text.valueSpan, line, column) || text.valueSpan.line == line {
                return describe(message, field, highlighting: nil, unitTarget: nil, measure: measure, compilation: compilation)
            }
        }
        return nil
    }

    static func contains(_ span: SourceLocation?, _ line: Int, _ column: Int) -> Bool {
        guard let span, let startLine = span.line, let startColumn = span.column else { return false }
        let endLine = span.endLine ?? startLine
        let endColumn = span.endColumn ?? startColumn
        return (line, column) >= (startLine, startColumn) && (line, column) <= (endLine, endColumn)
    }

    static func describe(
        _ message: Message, _ field: MessageField, highlighting locale: String?, unitTarget: String?, measure: LengthMeasure,
        compilation: Compilation
    ) -> String {
        let limit = field.maxLength
        let sourceLocale = compilation.catalog.config?.sourceLocale.value ?? "source"
        var output = "**\(field.displayName)** of `\(message.product.value)` / `\(message.key.value)` · "
        output += "Apple's limit: \(limit) \(measure.unitName) (msgc.yaml's lengthMeasure: \(measure.rawValue); counted after NFC)\n\n"
        if let locale, let unitTarget {
            output += "**\(locale)** (this file): " + lengths(unitTarget, limit: limit, measure: measure) + "\n\n"
        }
        if let source = message.text(of: field)?.value {
            output += "**\(sourceLocale)** (source): " + lengths(source, limit: limit, measure: measure) + "\n\n"
        }
        var rows: [String] = []
        let localization = compilation.localization
        var seen = Set<String>()
        for localized in localization.candidates + localization.partials
        where localized.message.product.value == message.product.value && localized.message.key.value == message.key.value
            && !localized.isSource && !seen.contains(localized.locale) {
            if let text = localized.text(field)?.value {
                seen.insert(localized.locale)
                let count = measure.count(nfc(text))
                let previous = localized.previousSources[field] != nil ? " (previous translation: the source changed since)" : ""
                rows.append("| \(localized.locale) | \(count) | \(count > limit ? "over by \(count - limit)" : "fits")\(previous) |")
            }
        }
        for gap in localization.gaps
        where gap.subject.product == message.product.value && gap.subject.key == message.key.value && gap.field == field {
            guard let gapLocale = gap.subject.locale, seen.insert(gapLocale).inserted else { continue }
            rows.append("| \(gapLocale) | – | \(gap.reason.name) |")
        }
        if !rows.isEmpty {
            output += "| locale | \(measure.unitName) | |\n| --- | ---: | --- |\n" + rows.sorted().joined(separator: "\n") + "\n"
        }
        return output
    }

    /// "24 of 66 UTF-16 units (fits) — 24 UTF-16 units · 24 graphemes · 24 scalars · 26 UTF-8 bytes".
    static func lengths(_ text: String, limit: Int, measure: LengthMeasure) -> String {
        let normalized = nfc(text)
        let count = measure.count(normalized)
        let verdict = count > limit ? "**over by \(count - limit)**" : "fits"
        let others = LengthMeasure.allCases.map { "\($0.count(normalized)) \($0.unitName)" }.joined(separator: " · ")
        return "\(count) of \(limit) \(measure.unitName), \(verdict) — \(others)"
    }

    static func nfc(_ text: String) -> String { text.precomposedStringWithCanonicalMapping }
}
