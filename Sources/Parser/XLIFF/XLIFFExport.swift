import Model

/// What `msgc extract` writes for one locale: every message of every product that ships in
/// that locale, with the translations the content tree already has for it.
public enum XLIFFExport {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noConfiguration
        case sourceLocale(String)
        case localeNotInProject(String, projectLocales: [String])

        public var description: String {
            switch self {
            case .noConfiguration:
                "the content tree has no usable msgc.yaml; run `msgc lint` to see why"
            case .sourceLocale(let locale):
                "'\(locale)' is the source locale; its text is in the message sources, not in XLIFF"
            case .localeNotInProject(let locale, let locales):
                "'\(locale)' is not one of the project's locales (\(locales.joined(separator: ", "))); add it to `locales` in msgc.yaml first"
            }
        }
    }

    /// The XLIFF document for `locale`.
    public static func document(
        catalog: Catalog, locale: String, version: TranslationFile.Version, toolVersion: String
    ) throws(Failure) -> String {
        guard let config = catalog.config else { throw .noConfiguration }
        guard locale != config.sourceLocale.value else { throw .sourceLocale(locale) }
        guard config.locales.contains(where: { $0.value == locale }) else {
            throw .localeNotInProject(locale, projectLocales: config.locales.map(\.value))
        }
        let productLocales = ProductLocales(config)
        let messages = catalog.messages.filter { productLocales[$0.product.value].contains(locale) }
        var existing: [String: TranslationUnit] = [:]
        if let file = Localizer.translationFiles(catalog, sourceLocale: config.sourceLocale.value)[locale] {
            for unit in file.units where existing[unit.id.value] == nil { existing[unit.id.value] = unit }
        }
        return XLIFFWriter.write(
            config: config, messages: messages, locale: locale, existing: existing, version: version, toolVersion: toolVersion)
    }
}
