/// Checks a locale tag the way msgc needs: valid BCP 47, in canonical case, not deprecated,
/// and one of App Store Connect's locale codes.
///
/// ```swift
/// LanguageTagChecker.check("EN_us")
/// // [malformed: 'EN_us' uses '_' as a separator; BCP 47 uses '-'  (offset 2, length 1) → en-US]
/// LanguageTagChecker.check("JA-jp")
/// // [nonCanonicalCase → ja-JP, notAppStoreCode → ja]
/// ```
///
/// Findings come in this order, each layer only when the previous one allows:
/// 1. `malformed`: the first grammar problem; nothing else is checked.
/// 2. `unknownSubtag`, `duplicateSubtag` in tag order; if any, nothing else is checked,
///    because the App Store check would guess from a tag that doesn't mean what was intended
///    (`en-UK` would become `en-US`).
/// 3. `nonCanonicalCase`, then `deprecatedSubtag` in tag order.
/// 4. `privateUse` or `notAppStoreCode`, judged on the canonical form: `EN-us` and `iw`
///    don't get it (`en-US` and `he` are codes; the earlier findings' fixes are enough), `JA-jp`
///    does. A tag is admitted when its canonical case or canonical form is an App Store code
///    or is listed in `extraLocales` (compared exactly; give them in canonical case).
///
/// Each finding's replacement fixes it and every earlier finding, so the last replacement
/// offered is the whole fix.
public enum LanguageTagChecker {
    /// All findings for a locale tag that must be an App Store Connect code.
    public static func check(_ tag: String, extraLocales: [String] = []) -> [LanguageTagFinding] {
        let parsed: LanguageTag
        switch LanguageTagParser.parse(tag) {
        case .failure(let error):
            return [LanguageTagFinding(
                kind: .malformed, message: error.message, scalarOffset: error.scalarOffset,
                scalarLength: error.scalarLength, replacement: error.correctedTag)]
        case .success(let tag):
            parsed = tag
        }
        var findings = bcp47Findings(parsed)
        guard !findings.contains(where: { [.unknownSubtag, .duplicateSubtag].contains($0.kind) }) else { return findings }

        let canonical = parsed.canonicalized()
        let cased = parsed.withCanonicalCase()
        let isAdmitted = [cased.text, canonical.text].contains { AppStoreLocale.isCode($0) || extraLocales.contains($0) }
        guard !isAdmitted else { return findings }

        let nearest = AppStoreLocale.nearestCode(for: canonical, extraLocales: extraLocales)
        if let privateUse = privateUseFinding(parsed, nearest: nearest) {
            findings.append(privateUse)
        } else {
            let message = nearest.map { "'\(tag)' is not an App Store Connect locale code; the nearest is '\($0)'" }
                ?? "'\(tag)' is not an App Store Connect locale code, and none is close to it"
            findings.append(LanguageTagFinding(
                kind: .notAppStoreCode, message: message, scalarOffset: 0,
                scalarLength: tag.unicodeScalars.count, replacement: nearest))
        }
        return findings
    }

    /// The BCP 47 findings alone (malformed, unknown, duplicate, case, deprecated), for tags
    /// that need not be App Store codes, such as the entries of `extraLocales` itself.
    public static func checkValidity(_ tag: String) -> [LanguageTagFinding] {
        switch LanguageTagParser.parse(tag) {
        case .failure(let error):
            return [LanguageTagFinding(
                kind: .malformed, message: error.message, scalarOffset: error.scalarOffset,
                scalarLength: error.scalarLength, replacement: error.correctedTag)]
        case .success(let tag):
            return bcp47Findings(tag)
        }
    }

    private static func bcp47Findings(_ tag: LanguageTag) -> [LanguageTagFinding] {
        let problems = tag.validate()
        guard problems.isEmpty else { return problems }
        var findings: [LanguageTagFinding] = []
        let cased = tag.withCanonicalCase()
        let changed = zip(tag.subtags, cased.subtags).filter { $0.text != $1.text }.map(\.0)
        if let first = changed.first, let last = changed.last {
            findings.append(LanguageTagFinding(
                kind: .nonCanonicalCase,
                message: "'\(tag.text)' is in non-canonical case; BCP 47 writes '\(cased.text)'",
                scalarOffset: first.scalarOffset,
                scalarLength: last.scalarOffset + last.scalarLength - first.scalarOffset,
                replacement: cased.text))
        }
        return findings + tag.checkDeprecations()
    }

    /// The first private-use part: a private-use registry subtag (`qaa`, `Qaaa`, `AA`) or `x-…`.
    private static func privateUseFinding(_ tag: LanguageTag, nearest: String?) -> LanguageTagFinding? {
        let suffix = nearest.map { "; the nearest code is '\($0)'" } ?? ""
        for subtag in tag.subtags {
            if subtag.role == .privateUseSingleton {
                let length = tag.text.unicodeScalars.count - subtag.scalarOffset
                let part = String(String.UnicodeScalarView(tag.text.unicodeScalars.suffix(length)))
                return LanguageTagFinding(
                    kind: .privateUse,
                    message: "'\(part)' is private use, which no App Store Connect locale code has\(suffix)",
                    scalarOffset: subtag.scalarOffset, scalarLength: length, replacement: nearest)
            }
            if let type = subtag.registryType, let record = subtag.record, record.isPrivateUse {
                return LanguageTagFinding(
                    kind: .privateUse,
                    message: "'\(subtag.text)' is a private-use \(type.noun), which no App Store Connect locale code has\(suffix)",
                    scalarOffset: subtag.scalarOffset, scalarLength: subtag.scalarLength, replacement: nearest)
            }
        }
        return nil
    }
}
