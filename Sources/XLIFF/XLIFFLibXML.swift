import CLibXML2

/// The process-wide libxml2 setup msgc relies on, done once and thread-safely (Swift runs a
/// global's initializer exactly once, under a lock).
///
/// - `xmlInitParser()` must run before libxml2 is used from several threads.
/// - The external entity loader is process-wide state in libxml2. msgc's loader refuses every
///   request, so no DTD, external entity or XInclude can ever open a file or a URL, whatever
///   the parser options: belt and braces on libxml2 2.9, which lacks `XML_PARSE_NO_XXE`.
enum XLIFFLibXMLSetup {
    private static let done: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()

    static func ensure() {
        precondition(done)
    }

    /// The parser options for untrusted XLIFF: no network, CDATA as text. Never `NOENT`,
    /// `DTDLOAD`, `DTDATTR`, `DTDVALID`, `HUGE`, `RECOVER` or `XINCLUDE` (docs/formats.md,
    /// "Reading untrusted XLIFF"). On libxml2 2.13 and later `XML_PARSE_NO_XXE`
    /// (bit 23) is added; Debian bookworm's 2.9.14 does not have it.
    static var parserOptions: Int32 {
        var options = XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue
        if LIBXML_VERSION >= 21300 { options |= 1 << 23 }
        return Int32(options)
    }
}

/// The first error libxml2 reported while reading one document.
final class XLIFFLibXMLErrorCollector {
    struct Report {
        var domain: Int32
        var code: Int32
        var message: String
        var line: Int
        var column: Int
    }

    private(set) var first: Report?

    func record(_ error: xmlError) {
        guard first == nil, Self.isFatal(domain: error.domain, code: error.code, level: error.level) else { return }
        first = Report(domain: error.domain, code: error.code, message: error.message.map { String(cString: $0) } ?? "unknown error",
                       line: Int(error.line), column: Int(error.int2))
    }

    /// Errors make a file unreadable; warnings do not, except namespace errors (an undeclared
    /// prefix), which libxml2 reports as warnings but which break XML Namespaces
    /// well-formedness.
    private static func isFatal(domain: Int32, code: Int32, level: xmlErrorLevel) -> Bool {
        if level.rawValue >= XML_ERR_ERROR.rawValue { return true }
        return domain == Int32(XML_FROM_NAMESPACE.rawValue) && (200..<300).contains(code)
    }
}
