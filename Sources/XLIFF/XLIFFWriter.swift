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
        existing: [String: TranslationUnit], version: TranslationFile.Version = .v1_2, toolVersion: String
    ) -> String {
        var seen = Set<String>()
        var entries: [Entry] = []
        for message in messages {
            for (field, text) in message.fields {
                let id = message.unitID(of: field)
                guard seen.insert(id).inserted else { continue }
                entries.append(Entry(id: id, message: message, field: field, source: text.value,
                                     existing: existing[id].flatMap { $0.target == nil ? nil : $0 },
                                     translatorNotes: existing[id]?.notes ?? []))
            }
        }
        switch version {
        case .v1_2: return write12(config: config, locale: locale, entries: entries, toolVersion: toolVersion)
        case .v2_0: return write20(config: config, locale: locale, entries: entries, toolVersion: toolVersion)
        }
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

    private static func write12(config: ProjectConfig, locale: String, entries: [Entry], toolVersion: String) -> String {
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
        for entry in entries {
            let id = attribute(entry.id)
            out += "      <trans-unit id=\"\(id)\" resname=\"\(id)\" maxwidth=\"\(entry.field.maxLength)\" "
                + "size-unit=\"char\" xml:space=\"preserve\">\n"
            out += "        <source>\(text(entry.source, codePointElements: false))</source>\n"
            if let existing = entry.existing, let target = existing.target {
                let state = entry.needsReview ? XLIFFStates.xliff12Value(for: .untranslated) : XLIFFStates.xliff12Value(for: existing)
                out += "        <target state=\"\(state)\">\(text(target.value, codePointElements: false))</target>\n"
            }
            if let note = developerNote(entry) {
                out += "        <note from=\"developer\">\(noteText(note))</note>\n"
            }
            out += "        <note from=\"msgc\">\(noteText(msgcNote(entry, config: config)))</note>\n"
            for note in entry.translatorNotes {
                let from = note.author.map { " from=\"\(attribute($0))\"" } ?? ""
                out += "        <note\(from)>\(noteText(note.text))</note>\n"
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

    private static func write20(config: ProjectConfig, locale: String, entries: [Entry], toolVersion: String) -> String {
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
        for entry in entries {
            out += "    <unit id=\"\(attribute(unitID20(entry.id)))\" name=\"\(attribute(entry.id))\" xml:space=\"preserve\""
            out += restriction.unitAttributes(limit: entry.field.maxLength)
            out += ">\n"
            out += "      <notes>\n"
            if let note = developerNote(entry) {
                out += "        <note category=\"developer\">\(noteText(note))</note>\n"
            }
            out += "        <note category=\"msgc\">\(noteText(msgcNote(entry, config: config)))</note>\n"
            for note in entry.translatorNotes {
                let category = note.author.map { " category=\"\(attribute($0))\"" } ?? ""
                out += "        <note\(category)>\(noteText(note.text))</note>\n"
            }
            out += "      </notes>\n"
            if let existing = entry.existing, let target = existing.target {
                let state = XLIFFStates.xliff20Value(for: entry.needsReview ? .untranslated : existing.state)
                out += "      <segment state=\"\(state)\">\n"
                out += "        <source>\(text(entry.source, codePointElements: true))</source>\n"
                out += "        <target>\(text(target.value, codePointElements: true))</target>\n"
            } else {
                out += "      <segment>\n"
                out += "        <source>\(text(entry.source, codePointElements: true))</source>\n"
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
