extension LanguageTag {
    /// The same tag in the case RFC 5646 section 2.1.1 recommends: language, extlang, variant,
    /// extension and private-use subtags lower case, script title case (`Hans`), region upper
    /// case (`US`, `419`); grandfathered tags as the registry writes them (`en-GB-oed`).
    ///
    /// Case carries no meaning in BCP 47, but App Store Connect's codes are case-sensitive.
    public func withCanonicalCase() -> LanguageTag {
        LanguageTag(parts: subtags.map { ($0.conventionalText, $0.role) })
    }

    /// The canonical form of the tag (RFC 5646 section 4.5), in canonical case.
    ///
    /// - A grandfathered or redundant tag with a `Preferred-Value` becomes that value
    ///   (`i-klingon` → `tlh`, `zh-yue` → `yue`); a redundant tag also matches a prefix of a
    ///   longer tag (`zh-yue-HK` → `yue-HK`). Without one (`i-default`) it stays.
    /// - An extlang replaces its language (`zh-cmn-CN` → `cmn-CN`).
    /// - Language, script, region and variant subtags with a `Preferred-Value` are replaced
    ///   (`iw` → `he`, `my-BU` → `my-MM`, `heploc` → `alalc97`); a variant repeated by the
    ///   replacement is dropped.
    /// - Extensions are sorted by singleton.
    ///
    /// The tag need not be valid: unregistered subtags are kept as they are. A script equal to
    /// the language's `Suppress-Script` (`en-Latn`) is kept; RFC 5646 discourages writing it
    /// but does not remove it in the canonical form.
    public func canonicalized() -> LanguageTag {
        if isGrandfathered {
            if let preferred = subtags[0].record?.preferredValue, let tag = try? LanguageTag(parsing: preferred) {
                return tag.withCanonicalCase()
            }
            return withCanonicalCase()
        }
        var parts = self.parts
        if let (record, count) = redundantPrefix(), let preferred = record.preferredValue,
           let replacement = try? LanguageTag(parsing: preferred)
        {
            parts.replaceSubrange(0..<count, with: replacement.parts)
        }
        if parts.count > 1, parts[1].role == .extlang,
           let preferred = SubtagRegistry.record(for: parts[1].text, type: .extlang)?.preferredValue
        {
            parts.replaceSubrange(0..<2, with: [(preferred, .language)])
        }
        var seenVariants: Set<String> = []
        parts = parts.compactMap { part in
            var part = part
            let type: SubtagType? = switch part.role {
            case .language: .language
            case .script: .script
            case .region: .region
            case .variant: .variant
            default: nil
            }
            if let type, let preferred = SubtagRegistry.record(for: part.text, type: type)?.preferredValue {
                part.text = preferred
            }
            if part.role == .variant && !seenVariants.insert(part.text.lowercased()).inserted { return nil }
            return part
        }
        return LanguageTag(parts: sortingExtensions(parts)).withCanonicalCase()
    }

    /// The longest run of leading subtags that is a registered redundant tag, and its length.
    func redundantPrefix() -> (record: SubtagRecord, count: Int)? {
        let core = subtags.prefix { [.language, .extlang, .script, .region, .variant].contains($0.role) }
        guard core.count >= 2 else { return nil }
        for count in stride(from: core.count, through: 2, by: -1) {
            let key = core.prefix(count).map(\.text).joined(separator: "-")
            if let record = SubtagRegistry.record(for: key, type: .redundant) { return (record, count) }
        }
        return nil
    }

    /// Orders extension sequences by singleton, keeping each singleton's subtags with it.
    private func sortingExtensions(_ parts: [(text: String, role: Subtag.Role)]) -> [(text: String, role: Subtag.Role)] {
        guard let start = parts.firstIndex(where: { $0.role == .extensionSingleton }) else { return parts }
        let end = parts.firstIndex { $0.role == .privateUseSingleton } ?? parts.count
        var blocks: [[(text: String, role: Subtag.Role)]] = []
        for part in parts[start..<end] {
            if part.role == .extensionSingleton { blocks.append([part]) } else { blocks[blocks.count - 1].append(part) }
        }
        let sorted = blocks.enumerated()
            .sorted { ($0.element[0].text.lowercased(), $0.offset) < ($1.element[0].text.lowercased(), $1.offset) }
            .flatMap(\.element)
        return Array(parts[..<start]) + sorted + Array(parts[end...])
    }

    /// Reports each deprecated part of the tag with its `Preferred-Value`, in tag order.
    ///
    /// A deprecated grandfathered tag (`i-klingon`) or redundant prefix (`zh-yue`) is one
    /// finding covering it; otherwise each deprecated language, extlang, script, region or
    /// variant subtag is one. The replacement is the whole canonical tag (`iw-IL` → `he-IL`),
    /// or `nil` when the registry gives no `Preferred-Value` (`CS`, `i-enochian`).
    public func checkDeprecations() -> [LanguageTagFinding] {
        let canonical = canonicalized().text
        func finding(_ noun: String, _ text: String, preferred: String?, offset: Int, length: Int) -> LanguageTagFinding {
            let message = preferred.map { "the \(noun) '\(text)' is deprecated; use '\($0)'" }
                ?? "the \(noun) '\(text)' is deprecated and has no replacement"
            return LanguageTagFinding(
                kind: .deprecatedSubtag, message: message, scalarOffset: offset, scalarLength: length,
                replacement: preferred == nil ? nil : canonical)
        }

        if isGrandfathered {
            guard let record = subtags[0].record, record.isDeprecated else { return [] }
            return [finding(SubtagType.grandfathered.noun, text, preferred: record.preferredValue,
                            offset: 0, length: subtags[0].scalarLength)]
        }
        var findings: [LanguageTagFinding] = []
        var covered = 0
        if let (record, count) = redundantPrefix(), record.isDeprecated {
            let last = subtags[count - 1]
            let length = last.scalarOffset + last.scalarLength
            let written = String(String.UnicodeScalarView(text.unicodeScalars.prefix(length)))
            findings.append(finding(SubtagType.redundant.noun, written, preferred: record.preferredValue,
                                    offset: 0, length: length))
            covered = count
        }
        for subtag in subtags.dropFirst(covered) {
            guard let type = subtag.registryType, let record = subtag.record, record.isDeprecated else { continue }
            // An extlang's Preferred-Value is itself as a language; what to write is the canonical tag.
            let preferred = type == .extlang ? canonical : record.preferredValue
            findings.append(finding(type.noun, subtag.text, preferred: preferred,
                                    offset: subtag.scalarOffset, length: subtag.scalarLength))
        }
        return findings
    }
}
