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
}
