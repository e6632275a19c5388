import LanguageTags

/// libFuzzer entry point for the BCP 47 parser: any bytes that are UTF-8 (the only way a tag
/// reaches msgc, from YAML or an XLIFF attribute), through parsing, validation against the
/// IANA registry, canonicalization and the App Store Connect locale check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLanguageTag(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = data.map { UnsafeBufferPointer(start: $0, count: count) } ?? UnsafeBufferPointer(start: nil, count: 0)
    guard let text = String(validating: bytes, as: UTF8.self) else { return -1 }
    let findings = LanguageTagChecker.check(text, extraLocales: ["x-fuzz"])
    let validity = LanguageTagChecker.checkValidity(text)
    // Every finding's span lies inside the tag: renderers underline it.
    let scalarCount = text.unicodeScalars.count
    for finding in findings + validity {
        precondition(finding.scalarOffset >= 0 && finding.scalarLength >= 0
                     && finding.scalarOffset + finding.scalarLength <= scalarCount,
                     "finding span \(finding.scalarOffset)+\(finding.scalarLength) outside '\(text)'")
    }
    // A tag with no findings at all is accepted as an App Store locale, which must be valid BCP 47.
    if findings.isEmpty { precondition(validity.isEmpty || text == "x-fuzz", "'\(text)' accepted but invalid") }
    return 0
}
