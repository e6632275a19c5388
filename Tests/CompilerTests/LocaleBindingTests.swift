import Model
import Parser
import Testing

/// BCP 47 tags are case-insensitive: an XLIFF file's target language binds to the project's
/// locale it names in any case, or with gettext's `_` for `-`, and to nothing else.
@Suite struct LocaleBindingTests {
    static func binding() throws -> LocaleBinding {
        let (config, _, diagnostics) = ConfigParser.parse(bytes: Array("""
            bundleId: com.example.news
            sourceLocale: en-US
            locales: [en-US, de, pt-BR, zh-Hans]
            namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
            products:
              - id: com.example.news.yearly

            """.utf8))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return LocaleBinding(try #require(config))
    }

    @Test(arguments: [
        ("DE", "de"),  // TYPO3
        ("pt-br", "pt-BR"),  // Phrase
        ("PT-BR", "pt-BR"),
        ("zh-hans", "zh-Hans"),
        ("EN-us", "en-US"),  // the source locale binds too (and is reported as such)
    ])
    func aTagInAnotherCaseBindsToTheProjectsLocale(tag: String, locale: String) throws {
        let binding = try Self.binding()
        #expect(binding.locale(for: tag) == locale)
        #expect(binding.isCaseVariant(tag))
        #expect(!binding.isCaseVariant(locale))
    }

    @Test(arguments: ["de_DE", "pt_PT", "de-DE", "ja", "zh-Hant", "en-XA", "zh_Hant"])
    func otherTagsStayAsWritten(tag: String) throws {
        let binding = try Self.binding()
        #expect(binding.locale(for: tag) == tag)
        #expect(!binding.isVariantSpelling(tag))
        #expect(!binding.isCaseVariant(tag))
    }

    /// po2xliff copies gettext's `Language: pt_BR` header into target-language as it is.
    @Test(arguments: [("pt_BR", "pt-BR"), ("pt_br", "pt-BR"), ("zh_Hans", "zh-Hans"), ("en_US", "en-US")])
    func aTagWithUnderscoreBindsToTheProjectsLocale(tag: String, locale: String) throws {
        let binding = try Self.binding()
        #expect(binding.locale(for: tag) == locale)
        #expect(binding.isUnderscoreVariant(tag))
        #expect(!binding.isCaseVariant(tag))
        #expect(!binding.isUnderscoreVariant(locale))
    }
}
