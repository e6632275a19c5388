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
                let value = decodeUTF8Scalar(bytes, at: &index)
                if let scalar = Unicode.Scalar(value), isWanted(scalar) { found.append((offset, scalar)) }
                offset += 1
            }
        }
        return found
    }
}

/// The scalar value whose UTF-8 starts at `index` in `bytes`, moving `index` past it. `bytes`
/// must be valid UTF-8, as a Swift string's are: nothing is checked. One decoder for the
/// loops that look through every text for rare scalars.
@inline(__always)
func decodeUTF8Scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt32 {
    let lead = UInt32(bytes[index])
    if lead < 0x80 {
        index += 1
        return lead
    } else if lead < 0xE0 {
        defer { index += 2 }
        return (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
    } else if lead < 0xF0 {
        defer { index += 3 }
        return (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
    } else {
        defer { index += 4 }
        return (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
            | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
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
