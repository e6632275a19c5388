extension LanguageTag {
    /// Checks the tag against the IANA Language Subtag Registry, as RFC 5646 section 2.2.9
    /// defines "valid": every language, extlang, script, region and variant subtag is
    /// registered (or in a private-use range), and no variant or extension singleton repeats.
    ///
    /// Returns `.unknownSubtag` and `.duplicateSubtag` findings in tag order; an empty list
    /// means the tag is valid. Grandfathered tags are valid by definition. Extension and
    /// private-use subtags are not checked: the registry doesn't list them. An extlang in the
    /// second or third position is reported as unknown, because section 2.2.2 reserves those
    /// positions permanently. A variant's `Prefix` is guidance, not a validity rule, so
    /// `en-1996` is valid. Known mistakes (`UK`, `eng`, `zh-CHS`) come with a replacement.
    public func validate() -> [LanguageTagFinding] {
        guard !isGrandfathered else { return [] }
        var findings: [LanguageTagFinding] = []
        var seenVariants: Set<String> = []
        var seenSingletons: Set<String> = []
        var extlangCount = 0
        for (index, subtag) in subtags.enumerated() {
            let key = subtag.text.lowercased()
            switch subtag.role {
            case .variant where !seenVariants.insert(key).inserted:
                findings.append(LanguageTagFinding(
                    kind: .duplicateSubtag, message: "the variant '\(subtag.text)' appears twice",
                    scalarOffset: subtag.scalarOffset, scalarLength: subtag.scalarLength,
                    replacement: replacingSubtag(at: index, with: nil)))
            case .extensionSingleton where !seenSingletons.insert(key).inserted:
                findings.append(LanguageTagFinding(
                    kind: .duplicateSubtag, message: "the extension '\(subtag.text)' appears twice",
                    scalarOffset: subtag.scalarOffset, scalarLength: subtag.scalarLength))
            case .extlang where extlangCount > 0:
                findings.append(LanguageTagFinding(
                    kind: .unknownSubtag,
                    message: "'\(subtag.text)' is a second extended language subtag; only one can be valid",
                    scalarOffset: subtag.scalarOffset, scalarLength: subtag.scalarLength))
            case .language, .extlang, .script, .region, .variant:
                if subtag.role == .extlang { extlangCount += 1 }
                guard subtag.record == nil, let type = subtag.registryType else { continue }
                var message = "'\(subtag.text)' is not a registered \(type.noun)"
                var replacement: String?
                if let correction = SubtagCorrection.correction(for: subtag.text, role: subtag.role) {
                    message += "; \(correction.explanation)"
                    replacement = replacingSubtag(at: index, with: correction.subtag)
                }
                findings.append(LanguageTagFinding(
                    kind: .unknownSubtag, message: message,
                    scalarOffset: subtag.scalarOffset, scalarLength: subtag.scalarLength,
                    replacement: replacement))
            default:
                continue
            }
        }
        return findings
    }

    /// Whether the tag is valid BCP 47: well-formed (it parsed) and `validate()` finds nothing.
    public var isValid: Bool { validate().isEmpty }

    /// The tag with one subtag replaced (or removed, for `nil`), in canonical case, if the
    /// result is still well-formed.
    func replacingSubtag(at index: Int, with newText: String?) -> String? {
        var texts = subtags.map(\.text)
        if let newText { texts[index] = newText } else { texts.remove(at: index) }
        guard let tag = try? LanguageTag(parsing: texts.joined(separator: "-")) else { return nil }
        return tag.withCanonicalCase().text
    }
}
