/// XLIFF snippets for the translation rules' examples.
enum TranslationExamples {
    /// A one-unit German XLIFF 1.2 file for the example message's header. With `marked`, the
    /// unit's `<source>` element is wrapped in `⟦…⟧`; with `rawTarget`, `target` is inserted
    /// unescaped (for markup examples).
    static func xliff(
        source: String, target: String, state: String = "translated", unitKey: String = "winback",
        marked: Bool = false, rawTarget: Bool = false
    ) -> String {
        let id = "com.example.news.premium.yearly/\(unitKey)/header"
        let open = marked ? "⟦" : ""
        let close = marked ? "⟧" : ""
        let sourceElement = "<source>\(escape(source))</source>"
        let targetText = rawTarget ? target : escape(target)
        let unitIDAttribute = marked && unitKey != "winback" ? "id=\"\(open)\(id)\(close)\"" : "id=\"\(id)\""
        let sourceLine = marked && unitKey == "winback" && state == "translated" ? "\(open)\(sourceElement)\(close)" : sourceElement
        let targetOpen = marked && state != "translated" ? "⟦<target state=\"\(state)\">⟧" : "<target state=\"\(state)\">"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="msgc" source-language="en-US" target-language="de-DE" datatype="plaintext">
                <body>
                  <trans-unit \(unitIDAttribute) xml:space="preserve">
                    \(sourceLine)
                    \(targetOpen)\(targetText)</target>
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
