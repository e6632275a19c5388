import Compiler
import Diagnostics
import Foundation
import Model

/// `msgc preview`: every message in every locale drawn the way Apple's cancellation sheet lays
/// it out, as self-contained HTML pages, one per locale plus an index.
///
/// - Layout (Apple's documentation): the header sits above the body, or above the image when
///   `headerPosition` is `above-image`; the image comes before the body; bullet points follow,
///   each with its icon. A right-to-left locale's sheet is mirrored (`dir="rtl"`), as the
///   system mirrors it.
/// - Beside each sheet: every string's length in the project's `lengthMeasure` (after NFC, as
///   msgc ships it) against Apple's limit, and the lint findings about that message in that
///   locale. Findings on the source text (which concern every locale) are listed on the source
///   locale's page and counted on the others. A message without a usable translation in a
///   locale shows why instead.
/// - Self-contained: inline CSS, images as `data:` URIs, no script, nothing from the network.
///   Every text from the content tree is HTML-escaped: message text is untrusted.
/// - Deterministic: pages, locales, products and messages in a fixed order; no dates.
public enum PreviewGallery {
    public struct Page: Sendable {
        /// The file name: `index.html` or `LOCALE.html`.
        public var name: String
        public var html: String
    }

    /// What a gallery shows, for the summary the command prints.
    public struct Summary: Sendable {
        public var localeCount: Int
        public var sheetCount: Int
        public var unavailableCount: Int
        public var sheetsWithFindings: Int
    }

    /// The locales a gallery shows, in order: the project's (source first), then pseudo locales.
    public static func locales(_ compilation: Compilation) -> [String] {
        guard let config = compilation.catalog.config else { return [] }
        var result: [String] = []
        for locale in [config.sourceLocale.value] + config.locales.map(\.value) where !result.contains(locale) { result.append(locale) }
        let pseudo = compilation.localization.candidates.map(\.locale).filter(PseudoLocale.isPseudo)
        for locale in Set(pseudo).sorted() where !result.contains(locale) { result.append(locale) }
        return result
    }

    /// The pages for `only` one locale, or for every locale plus `index.html`.
    public static func pages(_ compilation: Compilation, only: String? = nil) -> ([Page], Summary) {
        let model = PreviewModel(compilation)
        let shown = only.map { [$0] } ?? locales(compilation)
        var pages: [Page] = []
        var summary = Summary(localeCount: shown.count, sheetCount: 0, unavailableCount: 0, sheetsWithFindings: 0)
        var rows: [PreviewPageRenderer.IndexRow] = []
        for locale in shown {
            let sections = model.sections(for: locale)
            let entries = sections.flatMap(\.entries)
            let row = PreviewPageRenderer.IndexRow(
                locale: locale,
                sheets: entries.count { $0.localized != nil },
                unavailable: entries.count { $0.localized == nil },
                errors: entries.reduce(0) { $0 + $1.findings.errorCount },
                warnings: entries.reduce(0) { $0 + $1.findings.warningCount })
            rows.append(row)
            summary.sheetCount += row.sheets
            summary.unavailableCount += row.unavailable
            summary.sheetsWithFindings += entries.count { !$0.findings.isEmpty }
            pages.append(Page(
                name: "\(locale).html",
                html: PreviewPageRenderer.localePage(model: model, locale: locale, sections: sections, navigation: only == nil ? shown : [])))
        }
        if only == nil {
            pages.insert(Page(name: "index.html", html: PreviewPageRenderer.indexPage(model: model, rows: rows)), at: 0)
        }
        return (pages, summary)
    }
}

/// The compilation arranged for drawing: per locale, per product, each message with its texts,
/// its findings and, when it has no usable translation, why.
struct PreviewModel {
    struct Entry {
        var message: Message
        var locale: String
        /// Nil when the message has no usable translation in the locale.
        var localized: LocalizedMessage?
        var gaps: [TranslationGap]
        /// Findings about this message in this locale (and, in the source locale, its source).
        var findings: [Diagnostic]
        /// Findings about the source text, counted on the other locales' pages.
        var sourceFindingCount: Int
        var anchor: String
    }

    struct Section {
        var product: String
        var entries: [Entry]
    }

    let compilation: Compilation
    let config: ProjectConfig?
    let sourceLocale: String
    private var candidates: [Subject: LocalizedMessage] = [:]
    private var gaps: [Subject: [TranslationGap]] = [:]
    private var findings: [Subject: [Diagnostic]] = [:]
    /// Each product's messages, in catalog order.
    private let messagesOfProduct: [String: [Message]]
    private let productLocales: ProductLocales?
    /// Findings that name no message: the configuration, unreadable files, unused images.
    let generalFindings: [Diagnostic]

    init(_ compilation: Compilation) {
        self.compilation = compilation
        config = compilation.catalog.config
        sourceLocale = config?.sourceLocale.value ?? ""
        messagesOfProduct = Dictionary(grouping: compilation.catalog.messages, by: \.product.value)
        productLocales = config.map(ProductLocales.init)
        for candidate in compilation.localization.candidates where candidates[candidate.subject] == nil {
            candidates[candidate.subject] = candidate
        }
        for gap in compilation.localization.gaps { gaps[gap.subject, default: []].append(gap) }
        var general: [Diagnostic] = []
        for diagnostic in compilation.diagnostics {
            if let subject = diagnostic.subject { findings[subject, default: []].append(diagnostic) } else { general.append(diagnostic) }
        }
        generalFindings = general
    }

    var title: String { config?.bundleId.value ?? "msgc" }

    func sections(for locale: String) -> [Section] {
        guard let config, let productLocales else { return [] }
        let isPseudo = PseudoLocale.isPseudo(locale)
        var sections: [Section] = []
        for product in config.products {
            let productId = product.id.value
            guard isPseudo || productLocales[productId].contains(locale) else { continue }
            var entries: [Entry] = []
            for message in messagesOfProduct[productId] ?? [] {
                let subject = Subject(product: productId, key: message.key.value, locale: locale)
                var messageFindings = findings[subject] ?? []
                let sourceFindings = findings[message.subject] ?? []
                if locale == sourceLocale { messageFindings = (messageFindings + sourceFindings).sortedForOutput() }
                entries.append(Entry(
                    message: message, locale: locale, localized: candidates[subject], gaps: gaps[subject] ?? [],
                    findings: messageFindings, sourceFindingCount: locale == sourceLocale ? 0 : sourceFindings.count,
                    anchor: "m-\(sections.count + 1)-\(entries.count + 1)"))
            }
            if !entries.isEmpty { sections.append(Section(product: productId, entries: entries)) }
        }
        return sections
    }

    /// The bytes of an image of the content tree, when it could be read.
    func imageBytes(_ path: String) -> [UInt8]? {
        compilation.catalog.images[path]?.bytes
    }

    /// The image at `path` as the content-tree walk read it: its bytes and PNG structure.
    func image(_ path: String) -> ImageAsset? {
        compilation.catalog.images[path]
    }
}
