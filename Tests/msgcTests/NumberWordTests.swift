import Foundation
import Testing
import TestSupport

/// TXT012 as translators write numbers: an English source that spells a number ("at least
/// one", "two-factor", "zero") and targets that write the digit, in files shaped like the
/// ones that were reported: a Japanese file with `1つ`, a German one with `0`.
@Suite(.ownThreads) struct NumberWordTests {
    static let source = """
        messages:
          - key: secure
            product: com.example.app.yearly
            type: text
            default: true
            header: Turn on two-factor sign-in
            body: Keep at least one device signed in. Zero fees, and your first month is free.

        """

    static func xliff(_ language: String, header: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
          <file original="msgc" source-language="en-US" target-language="\(language)" datatype="plaintext">
            <body>
              <trans-unit id="com.example.app.yearly/secure/header" xml:space="preserve">
                <source>Turn on two-factor sign-in</source>
                <target state="translated">\(header)</target>
              </trans-unit>
              <trans-unit id="com.example.app.yearly/secure/body" xml:space="preserve">
                <source>Keep at least one device signed in. Zero fees, and your first month is free.</source>
                <target state="translated">\(body)</target>
              </trans-unit>
            </body>
          </file>
        </xliff>

        """
    }

    static func tree(japaneseBody: String = "少なくとも1つのデバイスでサインインしたままにしてください。手数料は0円、最初の1か月は無料です。") throws -> TemporaryTree {
        try TemporaryTree([
            "msgc.yaml": TemporaryTree.config.replacingOccurrences(of: "[en-US, de-DE]", with: "[en-US, de-DE, ja]"),
            "messages/secure.yaml": source,
            "translations/ja.xliff": xliff("ja", header: "2段階認証をオンにする", body: japaneseBody),
            "translations/de-DE.xliff": xliff(
                "de-DE", header: "2-Faktor-Anmeldung aktivieren",
                body: "Lassen Sie mindestens ein Gerät angemeldet. 0 € Gebühren, und Ihr 1. Monat ist kostenlos."),
        ])
    }

    @Test func digitsForTheSourcesNumberWordsAreNoError() throws {
        let tree = try Self.tree()
        let lint = try MsgcRunner.run(["lint", "--content", tree.root.path, "--strict"])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(!lint.stdout.contains("TXT012"), "\(lint.stdout)")
    }

    @Test func aDigitThatNamesAnotherNumberIsStillAnError() throws {
        let tree = try Self.tree(japaneseBody: "少なくとも2つのデバイスでサインインしたままにしてください。手数料は0円、最初の1か月は無料です。")
        let lint = try MsgcRunner.run(["lint", "--content", tree.root.path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("translations/ja.xliff:11:"), "\(lint.stdout)")
        #expect(lint.stdout.contains("error: ja body has 2 ('2'), which the source does not have [TXT012]"), "\(lint.stdout)")
    }

    @Test func theExplanationSaysWhichSourcesGetIt() throws {
        let explain = try MsgcRunner.run(["explain", "TXT012"])
        #expect(explain.stdout.contains("When the source language is English"), "\(explain.stdout)")
        #expect(explain.stdout.contains("English sources only"))
        #expect(explain.stdout.contains("Keep at least one device signed in."))
    }

    /// Retention copy with a month, a frequency and a multiplicative, translated as translators
    /// do: Japanese with `3月`, `１時間ごと` and `1度`, German with `3.` and French with `1 fois`.
    /// None of them is refused; a number msgc finds nowhere in the source is a warning whose
    /// fix never tells a Japanese translator to remove it.
    @Test func monthsFrequenciesAndMultiplicativesReadAsTranslatorsWriteThem() throws {
        let source = """
            messages:
              - key: spring
                product: com.example.app.yearly
                type: text
                default: true
                header: Your offer ends in March
                body: We check every hour and remind you once. Use a single code.

            """
        func unit(_ field: String, _ text: String, _ target: String) -> String {
            "<trans-unit id=\"com.example.app.yearly/spring/\(field)\" xml:space=\"preserve\"><source>\(text)</source><target state=\"translated\">\(target)</target></trans-unit>"
        }
        func file(_ language: String, _ header: String, _ body: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="msgc" source-language="en-US" target-language="\(language)" datatype="plaintext"><body>
            \(unit("header", "Your offer ends in March", header))
            \(unit("body", "We check every hour and remind you once. Use a single code.", body))
            </body></file></xliff>

            """
        }
        let tree = try TemporaryTree([
            "msgc.yaml": TemporaryTree.config.replacingOccurrences(of: "[en-US, de-DE]", with: "[en-US, de-DE, fr-FR, ja]"),
            "messages/spring.yaml": source,
            "translations/ja.xliff": file("ja", "特典は3月に終了します", "１時間ごとに確認し、1度だけお知らせします。1つのコードをお使いください。"),
            "translations/de-DE.xliff": file("de-DE", "Ihr Angebot endet im 3. Monat", "Wir prüfen 1x pro Stunde und erinnern Sie 1 Mal. Nutzen Sie 1 Code."),
            "translations/fr-FR.xliff": file("fr-FR", "Votre offre se termine en mars", "Nous vérifions toutes les heures et vous le rappelons 1 fois. Utilisez un seul code."),
        ])
        let lint = try MsgcRunner.run(["lint", "--content", tree.root.path])
        #expect(lint.status == 0, "\(lint.stdout)")
        #expect(!lint.stdout.contains("TXT012"), "\(lint.stdout)")

        // A year the source does not say: a warning, and the Japanese fix keeps the numeral.
        let extra = try TemporaryTree([
            "msgc.yaml": TemporaryTree.config.replacingOccurrences(of: "[en-US, de-DE]", with: "[en-US, de-DE, ja]"),
            "messages/spring.yaml": source,
            "translations/ja.xliff": file("ja", "特典は2027年3月に終了します", "１時間ごとに確認し、1度だけお知らせします。1つのコードをお使いください。"),
        ])
        let warned = try MsgcRunner.run(["lint", "--content", extra.root.path])
        #expect(warned.status == 0, "\(warned.stdout)")
        #expect(warned.stdout.contains("('2027'), which msgc does not find in the source [TXT012]") && warned.stdout.contains("warning: ja header has"), "\(warned.stdout)")
        #expect(warned.stdout.contains("= fix: check that it says what the source says; ja may need a numeral where the source has a word"))
        #expect(!warned.stdout.contains("remove the number"))
    }
}
