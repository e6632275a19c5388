import Foundation
import Model

/// Writes the XLIFF a translator needs for one locale (`msgc extract`): every translatable
/// string of the given messages, the existing translation if any, the message's note, the notes
/// a translator wrote on the unit (kept from the existing file, after msgc's), and the
/// length limit.
///
/// XLIFF 1.2 is the default; 2.0 on request. The output is UTF-8 text ending in a newline and
/// depends only on the inputs: units follow the messages in the order given, then
/// `Message.fields`; a unit id already written (a duplicate key, which lint reports) is not
/// written twice.
///
/// - Length limits: 1.2 has `maxwidth` with `size-unit="char"` (what "char" counts is left to
///   each tool). 2.0 uses the Size and Length Restriction module with NFC normalisation, which
///   is what msgc counts after: `utf16` → storage profile `xliff:utf16` with
///   `slr:storageRestriction` = 2 × limit bytes (exact); `utf8` → `xliff:utf8` with limit bytes
///   (exact); `scalars` → general profile `xliff:codepoints` with `slr:sizeRestriction` = limit
///   (exact). For `utf16` and `utf8` the code-point limit is written too, as the hint most tools
///   show: it is implied by the storage limit, never stricter. No standard profile counts
///   grapheme clusters, and a code-point limit would be stricter than msgc, so `graphemes`
///   writes no restriction; the note always states the limit in msgc's measure.
/// - Existing translations keep their state: 1.2 writes the state they were read with when it
///   is a 1.2 value of the same meaning (so `needs-review-l10n` survives), else `translated`,
///   `signed-off`, `final`, `needs-translation`; 2.0 writes `translated`, `reviewed`, `final`,
///   `initial`. A translation whose source text has changed since (stale), or that carried inline
///   markup, is written back as not translated (`needs-translation` / `initial`) with a note:
///   otherwise the new source would make it current again without anyone looking at it.
/// - Characters XML 1.0 cannot carry (C0 controls other than tab, line feed and carriage
///   return; U+FFFE, U+FFFF): 2.0 writes `<cp hex="…"/>` in source and target; 1.2 has no
///   escape for them, so they are written as U+FFFD (lint reports control characters in the
///   source anyway). Attributes and notes replace them with U+FFFD in both versions.
public enum XLIFFWriter {
    public static func write(
        config: ProjectConfig, messages: [Message], locale: String,
        existing: [String: TranslationUnit], suggestions: [String: [TranslationCandidate]] = [:],
        version: TranslationFile.Version = .v1_2, toolVersion: String
    ) -> String {
        var seen = Set<String>()
        var rows: [Row] = []
        for message in messages {
            for (field, text) in message.fields {
                let id = message.unitID(of: field)
                guard seen.insert(id).inserted else { continue }
                let entry = Entry(id: id, message: message, field: field, source: text.value,
                                  existing: existing[id].flatMap { $0.target == nil ? nil : $0 },
                                  translatorNotes: existing[id]?.notes ?? [])
                rows.append(row(entry, config: config, candidates: (existing[id]?.candidates ?? []) + (suggestions[id] ?? [])))
            }
        }
        return write(rows, config: config, locale: locale, version: version, toolVersion: toolVersion)
    }

    /// The note on each unit of an `.orphans` file (`msgc extract`).
    public static let orphanNote = "No message has this unit's id any more (its key was renamed, or the message removed). "
        + "msgc extract kept the unit here so that its translation is not lost; msgc never reads this file."

    /// An XLIFF file of `units` as they were read, with their targets, states, notes and
    /// candidates, each with `orphanNote`: what `msgc extract` keeps of units no message has any
    /// more. The units are written in the order given.
    public static func writeOrphans(
        config: ProjectConfig, units: [TranslationUnit], locale: String, version: TranslationFile.Version, toolVersion: String
    ) -> String {
        let rows = units.map { unit in
            Row(id: unit.id.value, source: unit.source.value, target: unit.target?.value,
                state12: XLIFFStates.xliff12Value(for: unit), state20: XLIFFStates.xliff20Value(for: unit.state),
                isApproved: unit.isApproved, maxLength: nil, developerNote: nil, msgcNote: orphanNote,
                translatorNotes: unit.notes, candidates: unit.candidates)
        }
        return write(rows, config: config, locale: locale, version: version, toolVersion: toolVersion)
    }

    private static func write(
        _ rows: [Row], config: ProjectConfig, locale: String, version: TranslationFile.Version, toolVersion: String
    ) -> String {
        switch version {
        case .v1_2: write12(config: config, locale: locale, rows: rows, toolVersion: toolVersion)
        case .v2_0: write20(config: config, locale: locale, rows: rows, toolVersion: toolVersion)
        }
    }

    /// One unit as it is written: from a message's field (`Entry`), or an orphan as it was read.
    private struct Row {
        var id: String
        var source: String
        var target: String?
        var state12: String
        var state20: String
        /// 1.2 `approved="yes"`, carried where the translation is still current.
        var isApproved: Bool
        /// The field's limit; nil for an orphan, which has no field.
        var maxLength: Int?
        var developerNote: String?
        var msgcNote: String
        var translatorNotes: [TranslationNote]
        var candidates: [TranslationCandidate]
    }

    /// How a message's field is written: a stale translation (or one that had markup) as not
    /// translated and not approved, anything else with the state it was read with.
    private static func row(_ entry: Entry, config: ProjectConfig, candidates: [TranslationCandidate]) -> Row {
        let current = entry.needsReview ? nil : entry.existing
        return Row(
            id: entry.id, source: entry.source, target: entry.existing?.target?.value,
            state12: current.map(XLIFFStates.xliff12Value(for:)) ?? XLIFFStates.xliff12Value(for: .untranslated),
            state20: XLIFFStates.xliff20Value(for: current?.state ?? .untranslated),
            isApproved: current?.isApproved ?? false, maxLength: entry.field.maxLength,
            developerNote: developerNote(entry), msgcNote: msgcNote(entry, config: config),
            translatorNotes: entry.translatorNotes, candidates: candidates)
    }

    private struct Entry {
        var id: String
        var message: Message
        var field: MessageField
        var source: String
        /// The existing unit, when it has a target.
        var existing: TranslationUnit?
        /// Notes a translator (or their tool) wrote on the existing unit, written back after msgc's.
        var translatorNotes: [TranslationNote]

        /// Whether the existing target must be looked at again before it can count.
        var needsReview: Bool {
            guard let existing else { return false }
            return existing.source.value != source || !existing.inlineMarkup.isEmpty
        }
    }

    // MARK: - XLIFF 1.2

    private static func write12(config: ProjectConfig, locale: String, rows: [Row], toolVersion: String) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="msgc" source-language="\(attribute(config.sourceLocale.value))" \
            target-language="\(attribute(locale))" datatype="plaintext">
                <header>
                  <tool tool-id="msgc" tool-name="msgc" tool-version="\(attribute(toolVersion))"/>
                </header>
                <body>

            """
        for row in rows {
            let id = attribute(row.id)
            out += "      <trans-unit id=\"\(id)\" resname=\"\(id)\""
            if let maxLength = row.maxLength { out += " maxwidth=\"\(maxLength)\" size-unit=\"char\"" }
            if row.isApproved { out += " approved=\"yes\"" }
            out += " xml:space=\"preserve\">\n"
            out += "        <source>\(text(row.source, codePointElements: false))</source>\n"
            if let target = row.target {
                out += "        <target state=\"\(row.state12)\">\(text(target, codePointElements: false))</target>\n"
            }
            if let note = row.developerNote {
                out += "        <note from=\"developer\">\(noteText(note))</note>\n"
            }
            out += "        <note from=\"msgc\">\(noteText(row.msgcNote))</note>\n"
            for note in row.translatorNotes {
                let from = note.author.map { " from=\"\(attribute($0))\"" } ?? ""
                out += "        <note\(from)>\(noteText(note.text))</note>\n"
            }
            for candidate in row.candidates {
                out += "        <alt-trans"
                if let origin = candidate.origin { out += " origin=\"\(attribute(origin))\"" }
                if let quality = candidate.quality { out += " match-quality=\"\(attribute(quality))\"" }
                out += ">\n"
                if let source = candidate.source { out += "          <source>\(text(source, codePointElements: false))</source>\n" }
                out += "          <target>\(text(candidate.target, codePointElements: false))</target>\n"
                out += "        </alt-trans>\n"
            }
            out += "      </trans-unit>\n"
        }
        out += """
                </body>
              </file>
            </xliff>

            """
        return out
    }

    // MARK: - XLIFF 2.0

    private static func write20(config: ProjectConfig, locale: String, rows: [Row], toolVersion: String) -> String {
        let restriction = SizeRestriction(config.lengthMeasure)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" \
            xmlns:mda="urn:oasis:names:tc:xliff:metadata:2.0" \
            xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" \
            srcLang="\(attribute(config.sourceLocale.value))" trgLang="\(attribute(locale))">
              <file id="msgc" original="msgc">
                <mda:metadata>
                  <mda:metaGroup category="tool">
                    <mda:meta type="tool-id">msgc</mda:meta>
                    <mda:meta type="tool-name">msgc</mda:meta>
                    <mda:meta type="tool-version">\(noteText(toolVersion))</mda:meta>
                  </mda:metaGroup>
                </mda:metadata>

            """
        if let profiles = restriction.profilesAttributes {
            out += """
                    <slr:profiles \(profiles)>
                      <slr:normalization general="nfc" storage="nfc"/>
                    </slr:profiles>

                """
        }
        for row in rows {
            out += "    <unit id=\"\(attribute(unitID20(row.id)))\" name=\"\(attribute(row.id))\" xml:space=\"preserve\""
            if let maxLength = row.maxLength { out += restriction.unitAttributes(limit: maxLength) }
            out += ">\n"
            // Candidates come first (module elements precede the notes); each refers to the
            // one segment, which then has an id.
            if !row.candidates.isEmpty {
                out += "      <mtc:matches xmlns:mtc=\"\(XLIFFUnitCollector.matchesNamespace)\">\n"
                for candidate in row.candidates {
                    out += "        <mtc:match ref=\"#s1\""
                    if let origin = candidate.origin { out += " origin=\"\(attribute(origin))\"" }
                    if let quality = candidate.quality.flatMap(matchQuality20) { out += " matchQuality=\"\(quality)\"" }
                    out += ">\n"
                    out += "          <source>\(text(candidate.source ?? row.source, codePointElements: true))</source>\n"
                    out += "          <target>\(text(candidate.target, codePointElements: true))</target>\n"
                    out += "        </mtc:match>\n"
                }
                out += "      </mtc:matches>\n"
            }
            out += "      <notes>\n"
            if let note = row.developerNote {
                out += "        <note category=\"developer\">\(noteText(note))</note>\n"
            }
            out += "        <note category=\"msgc\">\(noteText(row.msgcNote))</note>\n"
            for note in row.translatorNotes {
                let category = note.author.map { " category=\"\(attribute($0))\"" } ?? ""
                out += "        <note\(category)>\(noteText(note.text))</note>\n"
            }
            out += "      </notes>\n"
            let segmentID = row.candidates.isEmpty ? "" : " id=\"s1\""
            if let target = row.target {
                out += "      <segment\(segmentID) state=\"\(row.state20)\">\n"
                out += "        <source>\(text(row.source, codePointElements: true))</source>\n"
                out += "        <target>\(text(target, codePointElements: true))</target>\n"
            } else {
                out += "      <segment\(segmentID)>\n"
                out += "        <source>\(text(row.source, codePointElements: true))</source>\n"
            }
            out += "      </segment>\n"
            out += "    </unit>\n"
        }
        out += """
              </file>
            </xliff>

            """
        return out
    }

    /// XLIFF 2.0 unit ids are NMTOKENs, which cannot hold `/`: `PRODUCT:KEY:field`, with any
    /// other character an NMTOKEN cannot hold replaced by `_`. The unit's `name` keeps the exact
    /// id, and import reads `name` first (docs/formats.md, "Unit identity").
    static func unitID20(_ id: String) -> String {
        String(String.UnicodeScalarView(id.unicodeScalars.map { scalar -> Unicode.Scalar in
            if scalar == "/" { return ":" }
            return isNameCharacter(scalar) ? scalar : "_"
        }))
    }

    /// XML 1.0 (fifth edition) NameChar.
    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x3A, 0x5F, 0xB7: true
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x37D, 0x37F...0x1FFF, 0x200C...0x200D, 0x203F...0x2040,
             0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            true
        default: false
        }
    }

    /// How the project's `lengthMeasure` is written with the Size and Length Restriction module.
    private struct SizeRestriction {
        var generalProfile: String?
        var storageProfile: String?
        var bytesPerUnit: Int

        init(_ measure: LengthMeasure) {
            switch measure {
            case .utf16: (generalProfile, storageProfile, bytesPerUnit) = ("xliff:codepoints", "xliff:utf16", 2)
            case .utf8: (generalProfile, storageProfile, bytesPerUnit) = ("xliff:codepoints", "xliff:utf8", 1)
            case .scalars: (generalProfile, storageProfile, bytesPerUnit) = ("xliff:codepoints", nil, 0)
            case .graphemes: (generalProfile, storageProfile, bytesPerUnit) = (nil, nil, 0)
            }
        }

        var profilesAttributes: String? {
            var parts: [String] = []
            if let generalProfile { parts.append("generalProfile=\"\(generalProfile)\"") }
            if let storageProfile { parts.append("storageProfile=\"\(storageProfile)\"") }
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }

        func unitAttributes(limit: Int) -> String {
            var out = ""
            if generalProfile != nil { out += " slr:sizeRestriction=\"\(limit)\"" }
            if storageProfile != nil { out += " slr:storageRestriction=\"\(limit * bytesPerUnit)\"" }
            return out
        }
    }

    /// A 1.2 `match-quality` (free text: `95`, `95%`, `95.5`) as 2.0's `matchQuality`, a decimal
    /// from 0 to 100; nil when it is not one (2.0 allows nothing else).
    static func matchQuality20(_ quality: String) -> String? {
        let number = quality.hasSuffix("%") ? String(quality.dropLast()) : quality
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value >= 0, value <= 100,
              number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == " ") }) else { return nil }
        return number.trimmingCharacters(in: .whitespaces)
    }

    // MARK: - Notes

    private static func developerNote(_ entry: Entry) -> String? {
        guard let note = entry.message.note?.value, !note.isEmpty else { return nil }
        return note
    }

    private static func msgcNote(_ entry: Entry, config: ProjectConfig) -> String {
        var note = "Product: \(entry.message.product.value). Message type: \(entry.message.type.value.rawValue). "
            + "Field: \(entry.field.displayName). Limit: \(entry.field.maxLength) \(config.lengthMeasure.unitName)."
        if let existing = entry.existing {
            if !existing.inlineMarkup.isEmpty {
                note += " The previous translation contained markup, which was removed: review it."
            } else if existing.source.value != entry.source {
                note += " The source text has changed since this translation: review it."
            }
        }
        return note
    }

    // MARK: - Escaping

    /// Whether XML 1.0 can carry `scalar` in a document at all.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Element content: `&`, `<`, `>` escaped, a carriage return as `&#xD;` (a raw one would be
    /// read back as a line feed). Characters XML cannot carry become `<cp hex="…"/>` (2.0) or
    /// U+FFFD (1.2).
    static func text(_ value: String, codePointElements: Bool) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#xD;"
            default:
                if isXMLCharacter(scalar) {
                    out.unicodeScalars.append(scalar)
                } else if codePointElements {
                    out += "<cp hex=\"\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))\"/>"
                } else {
                    out += "\u{FFFD}"
                }
            }
        }
        return out
    }

    /// Text in a note or other place where `<cp>` is not allowed.
    static func noteText(_ value: String) -> String {
        text(value, codePointElements: false)
    }

    /// An attribute value in double quotes: `&`, `<`, `>`, `"`, `'` escaped, and tab, line feed
    /// and carriage return as character references (a parser would turn them into spaces).
    static func attribute(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#x9;"
            case "\n": out += "&#xA;"
            case "\r": out += "&#xD;"
            default: out.unicodeScalars.append(isXMLCharacter(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
