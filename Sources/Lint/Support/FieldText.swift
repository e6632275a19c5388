import Model

/// One text a rule looks at: a field of a message in one locale, source or translated.
///
/// A class, not a struct: a dozen rules walk every one of these, and copying a struct that
/// holds a whole `LocalizedMessage` retains each of its strings and arrays, which cost more
/// than the rules' own work (BENCHMARKS.md). It is immutable, so sharing it changes nothing.
final class FieldText: Sendable {
    let localized: LocalizedMessage
    let field: MessageField
    let text: Located<String>

    init(localized: LocalizedMessage, field: MessageField, text: Located<String>) {
        self.localized = localized
        self.field = field
        self.text = text
    }

    var isSource: Bool { localized.isSource }
    var locale: String { localized.locale }

    /// A finding on the source text concerns every locale, so it names none; a finding on a
    /// translation names its locale, so that a build leaves only that locale out.
    var subject: Subject { isSource ? localized.message.subject : localized.subject }

    /// "header", or "de-DE header" for a translation.
    var displayName: String { isSource ? field.displayName : "\(locale) \(field.displayName)" }

    /// The scalars of the text that `isWanted` picks, each with its offset in scalars.
    @inline(__always)
    func scalars(where isWanted: (Unicode.Scalar) -> Bool) -> [(offset: Int, scalar: Unicode.Scalar)] {
        text.value.scalars(where: isWanted)
    }
}

extension String {
    /// The scalars that `isWanted` picks, each with its offset in scalars.
    ///
    /// Rules look for rare characters in every text, and walking `unicodeScalars` costs about
    /// fifty instructions a scalar (BENCHMARKS.md): this decodes the UTF-8 in one plain loop
    /// (a Swift string is always valid UTF-8) and allocates nothing when, as usual, there is
    /// nothing to find.
    @inline(__always)
    func scalars(where isWanted: (Unicode.Scalar) -> Bool) -> [(offset: Int, scalar: Unicode.Scalar)] {
        var found: [(offset: Int, scalar: Unicode.Scalar)] = []
        var text = self
        text.withUTF8 { bytes in
            var index = 0
            var offset = 0
            while index < bytes.count {
                let lead = UInt32(bytes[index])
                let value: UInt32
                if lead < 0x80 {
                    value = lead
                    index += 1
                } else if lead < 0xE0 {
                    value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                    index += 2
                } else if lead < 0xF0 {
                    value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    index += 3
                } else {
                    value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                    index += 4
                }
                if let scalar = Unicode.Scalar(value), isWanted(scalar) { found.append((offset, scalar)) }
                offset += 1
            }
        }
        return found
    }
}

extension FieldText {
    /// Every field of every message in every locale that has all its texts, in the order of
    /// the localization's candidates and then of the fields (`LintContext.fieldTexts`).
    static func all(in localization: Localization) -> [FieldText] {
        localization.candidates.flatMap { localized in
            localized.texts.keys.sorted().map { FieldText(localized: localized, field: $0, text: localized.texts[$0]!) }
        }
    }
}

extension LintContext {
    /// The source-language text of a translated field.
    func sourceText(of fieldText: FieldText) -> Located<String>? {
        fieldText.localized.message.text(of: fieldText.field)
    }
}
