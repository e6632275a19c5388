import Diagnostics
import Model

/// Every lint rule, alphabetized by code. A test checks the order, that codes are unique,
/// and that each rule has valid and invalid examples.
public enum Registry {
    public static let rules: [any LintRule.Type] = [
        ImageFileNotFound.self,
        ImageNotPNG.self,
        CorruptPNG.self,
        ImageHasTransparency.self,
        WrongImageDimensions.self,
        MediaOnOfferMessage.self,
        HeaderAboveMissingImage.self,
        TooManyBullets.self,
        IncompleteBullet.self,
        MissingAltText.self,
        UnusedImage.self,
        FieldTooLong.self,
        FieldNearLimit.self,
        MalformedLocaleTag.self,
        UnknownLocaleSubtag.self,
        NonCanonicalLocaleCase.self,
        DeprecatedLocaleSubtag.self,
        NotAppStoreLocale.self,
        TranslationLocaleNotInProject.self,
        DuplicateTranslationLocale.self,
        TranslationLocaleCase.self,
        TranslationLocaleUnderscore.self,
        DuplicateMessageKey.self,
        UnknownProduct.self,
        MissingDefaultMessage.self,
        MultipleDefaultMessages.self,
        DefaultMessageNotText.self,
        TooManyUploads.self,
        FileNamesDifferingOnlyInCase.self,
        SwitchTargetNotInGroup.self,
        RealtimeFieldOnWrongType.self,
        UnknownRealtimeMessage.self,
        RealtimeMessageCannotAnswer.self,
        StaleTranslation.self,
        TranslationBelowMinimumState.self,
        OrphanTranslationUnit.self,
        UntranslatedTarget.self,
        TranslationOfSourceLocale.self,
        ForeignTranslationFile.self,
        DefaultLostToRename.self,
        EmptyText.self,
        ControlCharacter.self,
        BidiOverride.self,
        LineSeparator.self,
        UnbalancedBidiIsolate.self,
        BidiMarkOutsideRTL.self,
        ZeroWidthCharacter.self,
        InvalidCharacter.self,
        NotNFC.self,
        SurroundingWhitespace.self,
        TranslationIdenticalToSource.self,
        NumberMismatch.self,
    ]

    /// The info of every rule, in the registry's order.
    public static var infos: [RuleInfo] { rules.map { $0.info } }
}

/// Runs every rule over a catalog.
public enum Linter {
    /// All findings for `catalog`: without a usable configuration, only what the parser found.
    public static func lint(_ catalog: Catalog, localization: Localization) -> [Diagnostic] {
        guard let config = catalog.config else { return [] }
        return lint(context: LintContext(catalog: catalog, config: config, localization: localization))
    }

    /// All findings of the rules in `context`.
    public static func lint(context: LintContext) -> [Diagnostic] {
        // Rules are independent pure functions of the context: run them on every core, and
        // keep their findings in registry order.
        Registry.rules.concurrentMap { $0.init().check(context) }.flatMap { $0 }
    }
}
