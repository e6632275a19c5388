import Diagnostics
import Model

/// Every diagnostic the XLIFF reader produces (codes `XLF001`…), with the factories that build
/// them.
///
/// A file that cannot be read at all (XLF001–XLF007) gets exactly one diagnostic and no units:
/// the first problem found, at the place libxml2 or msgc's own checks report. The other codes
/// concern a readable file and may occur several times.
public enum XLIFFDiagnostics {
    /// Where `msgc explain` examples of XLIFF problems are written.
    static let examplePath = "translations/de-DE.xliff"

    // MARK: - Rule descriptions

    public static let malformedXML = RuleInfo(
        code: "XLF001", name: "malformed-xliff", severity: .error,
        summary: "An XLIFF file is not well-formed XML.",
        rationale: """
            msgc reads XLIFF with libxml2 and refuses a file with any XML error rather than guess \
            what a broken file meant: a half-read file could ship a truncated or misattributed \
            translation. The file is left out whole; the location is where libxml2 noticed the \
            problem, which is at or after the mistake.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</source>⟦⟧")),
            .invalidFile(examplePath, example(target: "<target state=\"translated\">&brand;⟦⟧ wartet</target>")),
        ])

    public static let doctype = RuleInfo(
        code: "XLF002", name: "xliff-doctype", severity: .error,
        summary: "An XLIFF file has a DOCTYPE declaration.",
        rationale: """
            No XLIFF 1.2 or 2.0 file needs a DTD or entities, and they are how XML attacks work: \
            external entities read local files into the text msgc would ship, parameter entities \
            and external DTDs make the parser fetch files or URLs, and nested entities expand a \
            kilobyte into gigabytes. msgc refuses the whole file before libxml2 reads the \
            declaration. Without a DOCTYPE no entity can be declared, so a reference to one, such \
            as `&brand;`, is not well-formed XML and is reported as XLF001; the five predefined \
            entities (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`) and character references are \
            ordinary text.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(
                target: "<target state=\"translated\">&brand;</target>",
                prolog: "⟦<!DOCTYPE⟧ xliff [ <!ENTITY brand SYSTEM \"file:///etc/passwd\"> ]>\n")),
        ])

    public static let notXLIFF = RuleInfo(
        code: "XLF003", name: "not-xliff", severity: .error,
        summary: "A file in translations/ is XML but not XLIFF.",
        rationale: """
            Only files whose root is an XLIFF 1.x or 2.x `<xliff>` element in the XLIFF namespace \
            carry translations msgc understands. Anything else, such as an Android strings file \
            or a TMX memory saved with an .xlf extension, is left out with this diagnostic instead \
            of being silently ignored.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, """
                <?xml version="1.0" encoding="UTF-8"?>
                ⟦<resources>⟧
                  <string name="header">Bleiben Sie bei Premium</string>
                </resources>
                """),
        ])

    public static let unsupportedVersion = RuleInfo(
        code: "XLF004", name: "unsupported-xliff-version", severity: .error,
        summary: "An XLIFF file uses a version msgc does not read.",
        rationale: """
            msgc reads XLIFF 1.2 (and the 1.0 and 1.1 files older tools still write) and XLIFF \
            2.0 and 2.1, which share one namespace. XLIFF 2.2 changed the core namespace and adds \
            modules msgc does not know, so it is refused instead of half understood; export 1.2 \
            or 2.0 from the translation tool.
            """,
        examples: [
            .validFile(examplePath, example20(target: "<target>Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, """
                <?xml version="1.0" encoding="UTF-8"?>
                ⟦<xliff version="2.2" xmlns="urn:oasis:names:tc:xliff:document:2.2" srcLang="en-US" trgLang="de-DE">⟧
                  <file id="msgc"/>
                </xliff>
                """),
        ])

    public static let nestedTooDeeply = RuleInfo(
        code: "XLF005", name: "xliff-nested-too-deeply", severity: .error,
        summary: "An XLIFF file nests elements deeper than msgc reads.",
        rationale: """
            Real XLIFF needs fewer than 20 levels of elements; thousands of levels only serve to \
            exhaust the stack or the memory of whatever reads the file. msgc stops at \
            \(XLIFFReader.maxElementDepth) levels and leaves the file out.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(
                target: "<target state=\"translated\">"
                    + String(repeating: "<g id=\"1\">", count: 59) + "⟦<g id=\"1\">⟧Premium"
                    + String(repeating: "</g>", count: 60) + "</target>")),
        ])

    public static let fileTooLarge = RuleInfo(
        code: "XLF006", name: "xliff-file-too-large", severity: .error,
        summary: "An XLIFF file is larger than msgc reads.",
        rationale: """
            An XLIFF file for a whole app is a few megabytes at most. msgc refuses files larger \
            than \(ContentLimits.maxXLIFFBytes) bytes before parsing them, so that no input can \
            exhaust memory or time.
            """,
        examples: [
            .invalidFile(examplePath, "", specialFiles: ["⟦\(examplePath)⟧": .xliffLargerThan(bytes: ContentLimits.maxXLIFFBytes, locale: "de-DE")]),
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
        ])

    public static let unsupportedEncoding = RuleInfo(
        code: "XLF007", name: "xliff-encoding", severity: .error,
        summary: "An XLIFF file is not valid UTF-8 or UTF-16.",
        rationale: """
            msgc reads UTF-8, with or without a byte order mark, and UTF-16 with a byte order mark \
            (or with an XML declaration). A byte that is not valid in the file's encoding, or \
            another declared encoding, would turn into wrong characters in the shipped message; \
            the diagnostic points at the first bad byte.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(
                target: "<target state=\"translated\">Bleiben Sie bei Premium</target>",
                encoding: "⟦ISO-8859-1⟧")),
        ])

    public static let inlineMarkupInTarget = RuleInfo(
        code: "XLF008", name: "inline-markup-in-target", severity: .error,
        summary: "A translation contains XLIFF inline markup, which Apple cannot show.",
        rationale: """
            Retention messages are plain text. msgc never puts inline codes (1.2: g, x, bx, ex, \
            ph, bpt, ept, it, sub; 2.0: ph, pc, sc, ec) into the XLIFF it writes, so one in a \
            target was added by a tool or a translator and stands for formatting or a placeholder \
            that cannot be rendered. Dropping it silently could lose a word or a line break, so \
            the translation is not shipped until the target is plain text. Annotations (mrk, and \
            2.0 sm/em) keep their text and are fine.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei <mrk mtype=\"term\">Premium</mrk></target>")),
            .invalidFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei ⟦<g id=\"1\" ctype=\"bold\">⟧Premium</g></target>")),
        ])

    public static let duplicateUnit = RuleInfo(
        code: "XLF009", name: "duplicate-xliff-unit", severity: .warning,
        summary: "A unit of an XLIFF file repeats an earlier unit's id (2.0: name) with the same target.",
        rationale: """
            Unit ids are unique within an XLIFF file. When a tool or a manual merge repeats a unit \
            with the same target, nothing is lost: msgc uses the first and ignores the repeat, and \
            the warning asks for a clean file. A repeat with a different target is XLF013.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, repeatedHeader(target: "Bleiben Sie bei Premium")),
        ])

    public static let conflictingUnits = RuleInfo(
        code: "XLF013", name: "conflicting-xliff-units", severity: .error,
        summary: "Two units of an XLIFF file have the same id (2.0: name) and different targets.",
        rationale: """
            When a file holds two translations of one field, msgc cannot tell which the translator \
            meant: taking the first would ship a text that may be the outdated one. Neither is \
            used, and the message is not ready in that locale until one of the units is removed. \
            In XLIFF 2.0 units are matched by `name` only where names are unique in the file, else \
            by `id`. A repeated unit that matches no message field is never used anyway: there \
            this is a warning.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, repeatedHeader(target: "Bleib bei Premium")),
        ])

    public static let conflictingTargetLanguages = RuleInfo(
        code: "XLF010", name: "conflicting-xliff-target-languages", severity: .error,
        summary: "The <file> elements of one XLIFF file name different target languages.",
        rationale: """
            An XLIFF file's target language decides which locale its translations ship in, and msgc \
            reads one locale per file. When a later <file> names another language, its units are \
            ignored rather than shipped in the wrong locale; split the file by language.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(
                target: "<target state=\"translated\">Bleiben Sie bei Premium</target>",
                extraFile: """
                  <file original="other" source-language="en-US" target-language="⟦fr-FR⟧" datatype="plaintext">
                    <body/>
                  </file>

                """)),
        ])

    public static let missingTargetLanguage = RuleInfo(
        code: "XLF011", name: "missing-xliff-target-language", severity: .error,
        summary: "An XLIFF file does not say which language it is translated into.",
        rationale: """
            msgc takes a translation file's locale from `target-language` (XLIFF 1.2) or `trgLang` \
            (2.0), never from its name, so a file without one cannot be used: the diagnostic says \
            how many units that leaves unused. When the file's name (`de-DE.xliff`, `de_DE.xlf`, \
            Xcode's `de.xcloc/Localized Contents/de.xliff`) names one of the project's locales, or \
            another well-formed language tag, the diagnostic suggests it, but msgc does not guess: \
            a file renamed or copied for another language would ship in the wrong one.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(
                target: "<target state=\"translated\">Bleiben Sie bei Premium</target>",
                fileTag: "⟦<file original=\"msgc\" source-language=\"en-US\" datatype=\"plaintext\">⟧")),
        ])

    public static let incompleteUnit = RuleInfo(
        code: "XLF012", name: "incomplete-xliff-unit", severity: .warning,
        summary: "An XLIFF unit has no id or no source text and is ignored.",
        rationale: """
            Every XLIFF unit needs an id, which msgc matches to a message field, and a source, \
            which shows whether the translation is current. A unit without either cannot be \
            matched and is ignored.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(
                target: "<target state=\"translated\">Bleiben Sie bei Premium</target>",
                unitTag: "⟦<trans-unit resname=\"header\">⟧")),
        ])

    public static let unknownState = RuleInfo(
        code: "XLF014", name: "unknown-xliff-state", severity: .warning,
        summary: "A translation's state is not one of the states its XLIFF version defines.",
        rationale: """
            XLIFF 1.2 defines ten target states (new, needs-translation, needs-adaptation, \
            needs-l10n, the three needs-review ones, translated, signed-off, final) and lets tools \
            add their own as `x-…`; XLIFF 2.0 defines four segment states (initial, translated, \
            reviewed, final) and puts a tool's own in `subState`. State values are case-sensitive. \
            msgc cannot tell what any other value means, so it reads the unit as not translated \
            and does not use it. A value that is a state written another way (`Translated`, \
            `signed_off`, `translatd`: case, `_` or a space for `-`, a letter or two) gets that \
            state as its fix. A known word of another vocabulary (the other version's states, \
            gettext's `fuzzy`, `approved`, `done`, `needs_review`) is named by its meaning, with \
            the version's state that claims no more than the word did (`fuzzy` is \
            `needs-review-translation`, never `final`) and the not-translated state beside it, \
            neither preferred: only someone who knows the text can say it is ready. For any other \
            value, msgc offers no state.
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"translated\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example(target: "<target state=\"⟦Translated⟧\">Bleiben Sie bei Premium</target>")),
            .invalidFile(examplePath, example20(target: "<target>Bleiben Sie bei Premium</target>", state: "⟦signed-off⟧")),
        ])

    public static let emptyTargetMarkedTranslated = RuleInfo(
        code: "XLF015", name: "empty-target-marked-translated", severity: .warning,
        summary: "A unit has no translation, but its state says it is translated.",
        rationale: """
            An empty target, or one of only white space, is no translation whatever its state, so \
            msgc never uses it. When the state says the unit is translated or beyond (1.2 \
            `translated`, a needs-review state, `signed-off`, `final`, or `approved="yes"` on the \
            unit; 2.0 `translated`, `reviewed` or `final`, whatever `subState` refines it to), \
            the file contradicts itself: the \
            translator's tool shows the work as done while the field is missing in that locale. \
            This usually comes from a confirmed empty segment, a text deleted after review, or a \
            script that set every state. A target without a state is no claim (translate-toolkit \
            and memoQ write untranslated units so) and is not reported; `msgc lint` on the file \
            counts every field still without a translation (TRN006).
            """,
        examples: [
            .validFile(examplePath, example(target: "<target state=\"final\">Bleiben Sie bei Premium</target>")),
            .validFile(examplePath, example(target: "<target></target>")),
            .invalidFile(examplePath, example(target: "<target state=\"⟦final⟧\"></target>")),
            .invalidFile(examplePath, example(target: "<target state=\"⟦translated⟧\">   </target>")),
            .invalidFile(examplePath, example20(target: "<target/>", state: "⟦reviewed⟧")),
        ])

    /// Every XLIFF diagnostic, in code order.
    /// The codes of findings about one unit, rather than about the file as a whole.
    public static let unitCodes: Set<String> = [
        inlineMarkupInTarget.code, duplicateUnit.code, conflictingUnits.code, incompleteUnit.code, unknownState.code,
        emptyTargetMarkedTranslated.code,
    ]

    public static let infos: [RuleInfo] = [
        malformedXML, doctype, notXLIFF, unsupportedVersion, nestedTooDeeply, fileTooLarge, unsupportedEncoding,
        inlineMarkupInTarget, duplicateUnit, conflictingTargetLanguages, missingTargetLanguage, incompleteUnit,
        conflictingUnits, unknownState, emptyTargetMarkedTranslated,
    ]

    // MARK: - Factories

    static func malformedXML(detail: String, at location: SourceLocation) -> Diagnostic {
        make(malformedXML, location, "XML is not well-formed: \(detail)")
    }

    static func truncated(insideElement name: String, openedOnLine line: Int, at location: SourceLocation) -> Diagnostic {
        make(malformedXML, location, "file ends inside <\(name)> opened on line \(line): it looks truncated")
    }

    static func emptyFile(path: String) -> Diagnostic {
        make(malformedXML, SourceLocation(path: path), "file has no XML element; an XLIFF file starts with <xliff>")
    }

    static func doctype(at location: SourceLocation) -> Diagnostic {
        make(doctype, location, "DOCTYPE declarations are not allowed in XLIFF; msgc reads no DTDs or entities",
             fixIts: [FixIt("remove the <!DOCTYPE …> declaration: XLIFF needs none")])
    }

    static func notXLIFF(rootName: String, namespace: String, at location: SourceLocation) -> Diagnostic {
        let found = namespace.isEmpty ? "<\(rootName)>" : "<\(rootName)> in namespace '\(namespace)'"
        return make(notXLIFF, location, "not an XLIFF file: the root element is \(found), not an XLIFF <xliff>")
    }

    static func unsupportedVersion(namespace: String, at location: SourceLocation) -> Diagnostic {
        make(unsupportedVersion, location,
             "XLIFF namespace '\(namespace)' is not supported; msgc reads XLIFF 1.2 and 2.0/2.1",
             fixIts: [FixIt("export the translations as XLIFF 1.2 or 2.0")])
    }

    static func nestedTooDeeply(depth: Int, at location: SourceLocation) -> Diagnostic {
        make(nestedTooDeeply, location,
             "elements are nested \(depth) levels deep here; msgc reads at most \(XLIFFReader.maxElementDepth)")
    }

    public static func fileTooLarge(byteCount: Int, path: String) -> Diagnostic {
        make(fileTooLarge, SourceLocation(path: path),
             "file has \(byteCount) bytes; msgc reads XLIFF files of at most \(ContentLimits.maxXLIFFBytes) bytes")
    }

    static func unsupportedEncoding(_ message: String, at location: SourceLocation) -> Diagnostic {
        make(unsupportedEncoding, location, message, fixIts: [FixIt("save the file as UTF-8")])
    }

    /// `isMessageField` false: the unit matches no message field, so its translation is never
    /// used and the markup in it is a warning, with a note that says why.
    static func inlineMarkup(unitID: String, elements: [Located<String>], at location: SourceLocation,
                             subject: Subject?, isMessageField: Bool = true) -> Diagnostic {
        let names = elements.map { "<\($0.value)>" }
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        let noun = elements.count == 1 ? "inline element" : "inline elements"
        var diagnostic = make(inlineMarkupInTarget, location,
                    "target of unit '\(unitID)' contains \(noun) \(unique.joined(separator: ", ")); Apple shows plain text only",
                    notes: elements.dropFirst().map { Note("also <\($0.value)> here", at: $0.location) },
                    fixIts: [FixIt("write the target as plain text, without markup")],
                    subject: isMessageField ? subject : nil)
        if !isMessageField { diagnostic.lowerForOrphanUnit() }
        return diagnostic
    }

    /// `noun` is "unit id" or "unit name", whichever keys the file's units.
    static func duplicateUnit(noun: String, id: String, firstLine: Int?, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        let earlier = firstLine.map { " on line \($0)" } ?? ""
        return make(duplicateUnit, location,
                    "\(noun) '\(id)' appears again with the same target; msgc uses the first one\(earlier) and ignores this one",
                    notes: [Note("first unit with this \(noun.dropFirst(5))", at: first)],
                    fixIts: [FixIt("delete the repeated unit")])
    }

    static func conflictingUnits(
        noun: String, id: String, firstLine: Int?, at location: SourceLocation, first: SourceLocation, isMessageField: Bool
    ) -> Diagnostic {
        // No subject: the unit's message is not ready in the locale because its field is
        // ambiguous (a gap the localizer reports), which says it once, in coverage too.
        let earlier = firstLine.map { " on line \($0)" } ?? ""
        var diagnostic = make(conflictingUnits, location,
                    "\(noun) '\(id)' appears again with a different target than the one\(earlier); neither is used",
                    notes: [Note("first unit with this \(noun.dropFirst(5))", at: first)],
                    fixIts: [FixIt("keep the unit with the right translation and delete the other")])
        if !isMessageField { diagnostic.lowerForOrphanUnit() }
        return diagnostic
    }

    static func conflictingTargetLanguage(_ language: String, earlier: String, at location: SourceLocation) -> Diagnostic {
        make(conflictingTargetLanguages, location,
             "this <file> has target-language '\(language)' but an earlier one has '\(earlier)'; its units are ignored",
             fixIts: [FixIt("put each target language in its own XLIFF file")])
    }

    static func missingTargetLanguage(version: TranslationFile.Version, unitCount: Int, at location: SourceLocation) -> Diagnostic {
        let attribute = version == .v1_2 ? "target-language on <file>" : "trgLang on <xliff>"
        let cost = unitCount == 0 ? "" : unitCount == 1 ? " and its 1 unit is not used" : " and none of its \(unitCount) units is used"
        return make(missingTargetLanguage, location,
                    "XLIFF file has no target language, so msgc cannot tell its locale\(cost); add \(attribute)")
    }

    /// The attribute that names an XLIFF file's target language in `version`.
    public static func targetLanguageAttribute(_ version: TranslationFile.Version) -> String {
        version == .v1_2 ? "target-language" : "trgLang"
    }

    /// `canEdit`: the value is written as read, so a fix-it may replace it.
    static func unknownState(
        _ raw: String, unitID: String, version: TranslationFile.Version, suggestion: XLIFFStates.Suggestion, at location: SourceLocation, canEdit: Bool
    ) -> Diagnostic {
        func write(_ state: String, _ why: String = "") -> FixIt {
            FixIt("write '\(state)'" + why, edits: canEdit ? [.init(location: location, replacement: state)] : [])
        }
        let problem = "state '\(raw)' of unit '\(unitID)' is not an XLIFF \(version.rawValue) state, so msgc reads the unit as not translated and does not use it"
        var notes: [Note] = []
        switch suggestion {
        case .spelling(let state):
            return make(unknownState, location, problem + "; the nearest state is '\(state)'", fixIts: [write(state)])
        case .meaning(let state, let meaning):
            if version == .v2_0 && raw.hasPrefix("x-") {
                notes.append(Note("XLIFF 2.0 has no custom states: a tool's own state goes in subState, beside one of the four states"))
            }
            // A tool's own state (`x-…`) means nothing msgc can tell: `initial` until someone says more.
            let message = raw.hasPrefix("x-")
                ? problem + "; the nearest state is '\(state)'"
                : problem + "; '\(raw)' means \(meaning.words), which XLIFF \(version.rawValue) writes '\(state)'"
            guard meaning > .notTranslated else { return make(unknownState, location, message, notes: notes, fixIts: [write(state)]) }
            // Two fixes, neither preferred: whoever knows the text says which it is.
            let untranslated = XLIFFStates.Meaning.notTranslated.state(in: version)
            return make(unknownState, location, message, notes: notes, fixIts: [
                write(state, " if the text is \(meaning.words)\(state == "final" || meaning >= .translated ? "" : "; msgc ships a unit in that state")"),
                write(untranslated, " if it is not translated yet"),
            ])
        case .unknown:
            let states = version.stateValues.map { "'\($0)'" }.joined(separator: ", ")
            return make(unknownState, location, problem + "; msgc cannot tell what it means",
                        fixIts: [FixIt("write the XLIFF \(version.rawValue) state the text is in, one of \(states)")])
        }
    }

    /// `claim` is what says the unit is translated: "state 'final'" or "approved=\"yes\"".
    static func emptyTargetMarkedTranslated(
        unitID: String, claim: String, version: TranslationFile.Version, targetIsMissing: Bool, isWhiteSpace: Bool,
        at location: SourceLocation, subject: Subject?
    ) -> Diagnostic {
        let target = targetIsMissing ? "has no target" : isWhiteSpace ? "has a target of only white space" : "has an empty target"
        // The state the file's own version writes: a 1.2 file is never told to write 2.0's `initial`.
        let notYet = version == .v1_2 ? "state 'needs-translation'" : "state 'initial'"
        return make(emptyTargetMarkedTranslated, location,
                    "unit '\(unitID)' \(target), but \(claim) says it is translated; msgc has no text to use",
                    fixIts: [FixIt("translate the unit, or mark it as not translated yet (\(notYet)\(claim.hasPrefix("approved") ? ", without approved=\"yes\"" : ""))")],
                    subject: subject)
    }

    static func unitWithoutID(element: String, at location: SourceLocation) -> Diagnostic {
        make(incompleteUnit, location, "<\(element)> has no id and is ignored")
    }

    static func unitWithoutSource(id: String, at location: SourceLocation) -> Diagnostic {
        make(incompleteUnit, location, "unit '\(id)' has no source text and is ignored")
    }

    private static func make(
        _ info: RuleInfo, _ location: SourceLocation, _ message: String,
        notes: [Note] = [], fixIts: [FixIt] = [], subject: Subject? = nil
    ) -> Diagnostic {
        Diagnostic(code: info.code, severity: info.severity, location: location, message: message,
                   notes: notes, fixIts: fixIts, subject: subject)
    }

    // MARK: - Example files

    /// The example file with its header unit repeated, the repeat's id marked, with `target`.
    private static func repeatedHeader(target: String) -> String {
        example(
            target: "<target state=\"translated\">Bleiben Sie bei Premium</target>",
            extraUnit: """
                  <trans-unit id="⟦com.example.news.premium.yearly/winback/header⟧">
                    <source>Stay with Premium</source>
                    <target state="translated">\(target)</target>
                  </trans-unit>

            """)
    }

    private static func example(
        target: String, prolog: String = "", encoding: String = "UTF-8", extraUnit: String = "", extraFile: String = "",
        fileTag: String = "<file original=\"msgc\" source-language=\"en-US\" target-language=\"de-DE\" datatype=\"plaintext\">",
        unitTag: String = "<trans-unit id=\"com.example.news.premium.yearly/winback/header\">"
    ) -> String {
        """
        <?xml version="1.0" encoding="\(encoding)"?>
        \(prolog)<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
          \(fileTag)
            <body>
              \(unitTag)
                <source>Stay with Premium</source>
                \(target)
              </trans-unit>
        \(extraUnit)    </body>
          </file>
        \(extraFile)</xliff>

        """
    }

    private static func example20(target: String, state: String = "translated") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en-US" trgLang="de-DE">
          <file id="msgc">
            <unit id="com.example.news.premium.yearly:winback:header" name="com.example.news.premium.yearly/winback/header">
              <segment state="\(state)">
                <source>Stay with Premium</source>
                \(target)
              </segment>
            </unit>
          </file>
        </xliff>

        """
    }
}

extension Diagnostic {
    /// An error about a unit that matches no message field becomes a warning: the unit's
    /// translation is never used, so nothing it holds can reach Apple.
    mutating func lowerForOrphanUnit() {
        guard severity == .error else { return }
        severity = .warning
        notes.append(Note("the unit matches no message field, so its translation is never used"))
    }
}
