/// XLIFF snippets for the translation rules' examples.
enum TranslationExamples {
    /// Which part of the unit an invalid example marks with `⟦…⟧`.
    enum Mark {
        case none, unitID, sourceText, targetText
    }

    /// The example tree's msgc.yaml.
    static let config = configHead + configProducts

    /// The example tree's msgc.yaml with `minimumState: reviewed`.
    static let reviewedConfig = configHead + "minimumState: reviewed\n" + configProducts

    private static let configHead = """
        bundleId: com.example.news
        sourceLocale: en-US
        locales: [en-US, de-DE]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b

        """
    private static let configProducts = """
        products:
          - id: com.example.news.premium.yearly

        """

    /// A one-unit German XLIFF 1.2 file for the example message's header.
    static func xliff(
        source: String, target: String, state: String = "translated", unitKey: String = "winback", unitID: String? = nil,
        mark: Mark = .none
    ) -> String {
        let id = unitID ?? "com.example.news.premium.yearly/\(unitKey)/header"
        func marked(_ text: String, _ part: Mark) -> String { mark == part ? "⟦\(text)⟧" : text }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="msgc" source-language="en-US" target-language="de-DE" datatype="plaintext">
                <body>
                  <trans-unit id="\(marked(id, .unitID))" xml:space="preserve">
                    <source>\(marked(escape(source), .sourceText))</source>
                    <target state="\(state)">\(marked(escape(target), .targetText))</target>
                  </trans-unit>
                </body>
              </file>
            </xliff>

            """
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
