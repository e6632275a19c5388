import Model

/// One text a rule looks at: a field of a message in one locale, source or translated.
struct FieldText {
    var localized: LocalizedMessage
    var field: MessageField
    var text: Located<String>

    var isSource: Bool { localized.isSource }
    var locale: String { localized.locale }

    /// A finding on the source text concerns every locale, so it names none; a finding on a
    /// translation names its locale, so that a build leaves only that locale out.
    var subject: Subject { isSource ? localized.message.subject : localized.subject }

    /// "header", or "de-DE header" for a translation.
    var displayName: String { isSource ? field.displayName : "\(locale) \(field.displayName)" }
}

extension LintContext {
    /// Every field of every message in every locale that has all its texts, in the order of
    /// the localization's candidates and then of the fields.
    var fieldTexts: [FieldText] {
        localization.candidates.flatMap { localized in
            localized.texts.keys.sorted().map { FieldText(localized: localized, field: $0, text: localized.texts[$0]!) }
        }
    }

    /// The source-language text of a translated field.
    func sourceText(of fieldText: FieldText) -> Located<String>? {
        fieldText.localized.message.text(of: fieldText.field)
    }
}
