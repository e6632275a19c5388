
/// Escaping for msgc's HTML pages (the coverage map, the preview gallery): every text from the
/// content tree is untrusted and goes through here.
public enum HTMLText {
    /// Text safe in element content and in double-quoted attributes; a line feed becomes `&#10;`
    /// so that it survives in a `title` attribute.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n": result += "&#10;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
