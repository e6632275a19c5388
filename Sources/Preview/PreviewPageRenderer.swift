import Diagnostics
import Foundation
import Model

/// The HTML of the gallery's pages. It draws what `PreviewModel` arranged and decides nothing.
enum PreviewPageRenderer {
    struct IndexRow {
        var locale: String
        var sheets: Int
        var unavailable: Int
        var errors: Int
        var warnings: Int
    }

    static func indexPage(model: PreviewModel, rows: [IndexRow]) -> String {
        var html = head(title: "Retention message preview · \(model.title)")
        html += "<header><h1>Retention message preview</h1><p class=\"sub\"><bdi>\(escape(model.title))</bdi> · each locale's messages as the cancellation sheet shows them</p></header>\n<main>\n"
        html += "<table class=\"index\">\n<thead><tr><th scope=\"col\">locale</th><th scope=\"col\">sheets</th><th scope=\"col\">not available</th><th scope=\"col\">errors</th><th scope=\"col\">warnings</th></tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr><th scope=\"row\"><a href=\"\(escape(row.locale)).html\">\(localeName(row.locale))</a>"
            if PseudoLocale.isPseudo(row.locale) { html += " <span class=\"badge pseudo\">pseudo</span>" }
            html += "</th><td>\(row.sheets)</td><td>\(row.unavailable)</td>"
            html += "<td class=\"\(row.errors > 0 ? "bad" : "")\">\(row.errors)</td><td class=\"\(row.warnings > 0 ? "warn" : "")\">\(row.warnings)</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        html += generalFindings(model)
        return html + "</main>\n</body>\n</html>\n"
    }

    static func localePage(model: PreviewModel, locale: String, sections: [PreviewModel.Section], navigation: [String]) -> String {
        var images = PageImages()
        var html = "<header>"
        if !navigation.isEmpty {
            html += "<nav><a href=\"index.html\">all locales</a>"
            for other in navigation { html += other == locale ? " · <strong>\(escape(other))</strong>" : " · <a href=\"\(escape(other)).html\">\(escape(other))</a>" }
            html += "</nav>"
        }
        html += "<h1>\(localeName(locale))</h1><p class=\"sub\"><bdi>\(escape(model.title))</bdi> · lengths in \(escape(model.config?.lengthMeasure.unitName ?? "")) after NFC"
        html += LocaleDirection.isRightToLeft(locale) ? " · right to left: the sheet is mirrored" : ""
        html += "</p>"
        if PseudoLocale.isPseudo(locale) {
            html += "<p class=\"pseudo-note\">\(escape(locale)) is a pseudo locale: its text is made longer, accented and bracketed to show what translations may run into. It never ships.</p>"
        }
        html += "</header>\n<main>\n"
        for section in sections {
            html += "<section class=\"product\">\n<h2><bdi>\(escape(section.product))</bdi></h2>\n"
            for entry in section.entries { html += messageHTML(entry, model: model, images: &images) }
            html += "</section>\n"
        }
        if sections.isEmpty { html += "<p>No messages in \(escape(locale)).</p>\n" }
        return head(title: "\(locale) · retention message preview · \(model.title)", images: images, model: model) + html + "</main>\n</body>\n</html>\n"
    }

    /// The images a page shows, each embedded once in the page's style sheet however many sheets
    /// use it (a hero shared by 40 messages was 40 copies of a megabyte of base64), and drawn
    /// where it is used as a box of its class.
    struct PageImages {
        /// Paths in the order the page first uses them; a path's class is `pic-` and its place.
        private(set) var paths: [String] = []
        private var classOfPath: [String: String] = [:]

        mutating func className(for path: String) -> String {
            if let name = classOfPath[path] { return name }
            let name = "pic-\(paths.count + 1)"
            paths.append(path)
            classOfPath[path] = name
            return name
        }

        /// One rule per image, with its bytes as a data: URI.
        func style(model: PreviewModel) -> String {
            paths.map { path in
                let bytes = model.imageBytes(path) ?? []
                return ".\(classOfPath[path]!) { background-image: url(\"data:image/png;base64,\(Data(bytes).base64EncodedString())\"); }"
            }.joined(separator: "\n")
        }
    }

    // MARK: - One message

    static func messageHTML(_ entry: PreviewModel.Entry, model: PreviewModel, images: inout PageImages) -> String {
        let message = entry.message
        var html = "<article class=\"message\" id=\"\(entry.anchor)\">\n<h3><code><bdi>\(escape(message.key.value))</bdi></code>"
        if message.isDefaultMessage { html += " <span class=\"badge default\">default</span>" }
        html += " <span class=\"badge\">\(escape(message.type.value.rawValue))</span>"
        if message.headerPosition?.value == .aboveImage { html += " <span class=\"badge\">header above image</span>" }
        html += " <span class=\"where\">\(escape(position(message.location)))</span></h3>\n<div class=\"row\">\n"
        if let localized = entry.localized {
            html += sheetHTML(localized, model: model, images: &images)
            html += "<div class=\"facts\">\n" + lengthsHTML(localized, measure: model.config?.lengthMeasure ?? .utf16)
        } else {
            html += "<div class=\"phone\"><div class=\"sheet unavailable\"><p><strong>Not shown in \(escape(entry.locale))</strong></p><ul>"
            for gap in entry.gaps {
                html += "<li>\(escape(gap.field.displayName)): \(escape(describe(gap.reason)))</li>"
            }
            if entry.gaps.isEmpty { html += "<li>no translation</li>" }
            html += "</ul></div></div>\n<div class=\"facts\">\n"
        }
        html += findingsHTML(entry)
        return html + "</div>\n</div>\n</article>\n"
    }

    /// The sheet: header above the body (image first) or above the image, then the body, then bullets.
    static func sheetHTML(_ localized: LocalizedMessage, model: PreviewModel, images: inout PageImages) -> String {
        let message = localized.message
        let direction = LocaleDirection.isRightToLeft(localized.locale) ? "rtl" : "ltr"
        var html = "<div class=\"phone\"><div class=\"sheet\" dir=\"\(direction)\" lang=\"\(escape(localized.locale))\">"
        let header = "<p class=\"header\">\(escape(localized.text(.header)?.value ?? ""))</p>"
        var image = ""
        if let file = message.image?.file?.value {
            image = imageHTML(file, alt: localized.text(.imageAlt)?.value ?? "", className: "hero", model: model, images: &images)
        }
        html += message.headerPosition?.value == .aboveImage ? header + image : image + header
        html += "<p class=\"body\">\(escape(localized.text(.body)?.value ?? ""))</p>"
        if !message.bullets.isEmpty {
            html += "<ul class=\"bullets\">"
            for (index, bullet) in message.bullets.enumerated() {
                let alt = localized.text(.bulletAlt(index))?.value ?? ""
                let icon = bullet.image.map { imageHTML($0.value, alt: alt, className: "icon", model: model, images: &images) } ?? ""
                html += "<li>\(icon)<span>\(escape(localized.text(.bulletText(index))?.value ?? ""))</span></li>"
            }
            html += "</ul>"
        }
        return html + "</div></div>\n"
    }

    /// An image as a box of its page's class for it (`PageImages`), sized as the image is.
    static func imageHTML(_ path: String, alt: String, className: String, model: PreviewModel, images: inout PageImages) -> String {
        guard let asset = model.image(path), asset.bytes != nil else {
            return "<div class=\"\(className) noimage\" role=\"img\" aria-label=\"\(escape(alt))\">\(escape(path)) cannot be shown</div>"
        }
        var size = ""
        if case .success(let png) = asset.png { size = " style=\"aspect-ratio: \(png.widthPixels) / \(png.heightPixels)\"" }
        let picture = images.className(for: path)
        return "<span class=\"\(className) pic \(picture)\" role=\"img\" aria-label=\"\(escape(alt))\" title=\"\(escape(path))\"\(size)></span>"
    }

    /// Each field's length against Apple's limit; alt texts, which the sheet does not show, with their text.
    static func lengthsHTML(_ localized: LocalizedMessage, measure: LengthMeasure) -> String {
        var html = "<table class=\"lengths\">\n"
        for (field, located) in localized.texts {
            let text = located.value
            let count = measure.count(text.precomposedStringWithCanonicalMapping)
            let limit = field.maxLength
            let level = count > limit ? "over" : count * 5 > limit * 4 ? "near" : "ok"
            let width = min(100, count * 100 / max(limit, 1))
            html += "<tr class=\"\(level)\"><th scope=\"row\">\(escape(field.displayName))"
            if field == .imageAlt || { if case .bulletAlt = field { true } else { false } }() {
                html += "<span class=\"alt\" dir=\"auto\" lang=\"\(escape(localized.locale))\">\(escape(text))</span>"
            }
            html += "</th><td class=\"count\">\(count) / \(limit)</td>"
            html += "<td class=\"bar\"><span style=\"width: \(width)%\"></span></td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func findingsHTML(_ entry: PreviewModel.Entry) -> String {
        var html = ""
        if !entry.findings.isEmpty {
            html += "<ul class=\"findings\">\n"
            for finding in entry.findings {
                html += "<li class=\"\(finding.severity.rawValue)\"><span class=\"code\">\(escape(finding.code))</span> "
                html += "<span class=\"severity\">\(finding.severity.rawValue)</span> <bdi>\(escape(finding.message))</bdi> "
                html += "<span class=\"where\">\(escape(position(finding.location)))</span></li>\n"
            }
            html += "</ul>\n"
        } else if entry.localized != nil {
            html += "<p class=\"clean\">no findings</p>\n"
        }
        if entry.sourceFindingCount > 0 {
            html += "<p class=\"source-findings\">\(entry.sourceFindingCount) finding\(entry.sourceFindingCount == 1 ? "" : "s") on the source text: see the source locale's page</p>\n"
        }
        return html
    }

    static func generalFindings(_ model: PreviewModel) -> String {
        guard !model.generalFindings.isEmpty else { return "" }
        var html = "<h2>Findings about no one message</h2>\n<ul class=\"findings\">\n"
        for finding in model.generalFindings {
            html += "<li class=\"\(finding.severity.rawValue)\"><span class=\"code\">\(escape(finding.code))</span> "
            html += "<span class=\"severity\">\(finding.severity.rawValue)</span> <bdi>\(escape(finding.message))</bdi> "
            html += "<span class=\"where\">\(escape(position(finding.location)))</span></li>\n"
        }
        return html + "</ul>\n"
    }

    static func describe(_ reason: TranslationGapReason) -> String {
        switch reason {
        case .missing: "missing"
        case .notTranslated(let raw): "not translated (\(raw ?? "no state"))"
        case .ambiguous: "ambiguous (repeated units with different targets)"
        case .stale(let recorded, _): "stale (translated from “\(recorded)”)"
        case .belowMinimumState(let state, let raw): "below minimumState (\(raw ?? state.rawValue))"
        }
    }

    static func position(_ location: SourceLocation) -> String {
        var text = location.path
        if let line = location.line {
            text += ":\(line)"
            if let column = location.column { text += ":\(column)" }
        }
        return text
    }

    /// The locale code, with its name in its own language when Foundation's locale data has one.
    static func localeName(_ code: String) -> String {
        var html = "<bdi>\(escape(code))</bdi>"
        if !PseudoLocale.isPseudo(code), let name = Locale(identifier: code).localizedString(forIdentifier: code), !name.isEmpty {
            let direction = LocaleDirection.isRightToLeft(code) ? "rtl" : "ltr"
            html += " <bdi class=\"native\" lang=\"\(escape(code))\" dir=\"\(direction)\">\(escape(name))</bdi>"
        }
        return html
    }

    /// Text safe in element content and in double-quoted attributes.
    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    static func head(title: String, images: PageImages = PageImages(), model: PreviewModel? = nil) -> String {
        let pictures = model.map { images.style(model: $0) } ?? ""
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
        <title>\(escape(title))</title>
        <style>
        \(style)\(pictures.isEmpty ? "" : "\n" + pictures)
        </style>
        </head>
        <body>

        """
    }

    static let style = """
        :root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; }
        * { box-sizing: border-box; }
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "WenQuanYi Zen Hei", sans-serif; color: var(--ink); margin: 24px; background: #f6f8fa; }
        h1 { font-size: 22px; margin: 4px 0; } h1 .native { font-weight: 400; color: var(--muted); }
        h2 { font-size: 17px; margin: 24px 0 8px; }
        h3 { font-size: 14px; margin: 0 0 8px; font-weight: 600; }
        nav { font-size: 13px; color: var(--muted); }
        .sub { margin: 0 0 12px; color: var(--muted); }
        .pseudo-note { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px; border-radius: 6px; }
        .message { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; margin: 0 0 14px; }
        .row { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
        .phone { flex: 0 0 360px; background: #e9ecef; border-radius: 22px; padding: 14px 10px; }
        .sheet { background: #fff; border-radius: 14px; padding: 18px 16px; box-shadow: 0 1px 4px rgba(0,0,0,.12); text-align: start; }
        .sheet .header { font-size: 20px; font-weight: 700; line-height: 1.25; margin: 0 0 10px; overflow-wrap: anywhere; }
        .sheet .hero { display: block; width: 100%; height: auto; border-radius: 8px; margin: 0 0 12px; }
        .pic { background-position: center; background-size: 100% 100%; background-repeat: no-repeat; }
        .sheet .body { font-size: 15px; margin: 0 0 10px; color: #30363d; overflow-wrap: anywhere; }
        .sheet .bullets { list-style: none; padding: 0; margin: 8px 0 0; }
        .sheet .bullets li { display: flex; align-items: center; gap: 10px; margin: 8px 0; font-size: 15px; overflow-wrap: anywhere; }
        .sheet .icon { display: block; width: 28px; height: 28px; flex: 0 0 28px; border-radius: 6px; }
        .noimage { background: repeating-linear-gradient(45deg, #ffebe9, #ffebe9 8px, #fff 8px, #fff 16px); color: #a40e26; font-size: 12px; padding: 8px; border-radius: 6px; }
        .sheet .noimage.hero { min-height: 60px; }
        .sheet .noimage.icon { padding: 0; overflow: hidden; font-size: 0; }
        .unavailable { color: var(--muted); border: 2px dashed var(--line); box-shadow: none; }
        .unavailable ul { margin: 4px 0; padding-inline-start: 18px; }
        .facts { flex: 1 1 320px; min-width: 280px; }
        table.lengths { border-collapse: collapse; width: 100%; font-size: 13px; margin-bottom: 8px; }
        .lengths th { text-align: start; font-weight: 500; padding: 3px 8px 3px 0; vertical-align: top; }
        .lengths .alt { display: block; color: var(--muted); font-weight: 400; font-size: 12px; }
        .lengths .count { white-space: nowrap; text-align: end; padding: 3px 8px; font-variant-numeric: tabular-nums; vertical-align: top; }
        .lengths .bar { width: 35%; vertical-align: top; padding-top: 8px; }
        .lengths .bar span { display: block; height: 6px; border-radius: 3px; background: #1a7f37; }
        .lengths tr.near .bar span { background: #d4a72c; } .lengths tr.near .count { color: #7d4e00; font-weight: 600; }
        .lengths tr.over .bar span { background: #cf222e; } .lengths tr.over .count { color: #a40e26; font-weight: 700; }
        .findings { list-style: none; padding: 0; margin: 0; font-size: 13px; }
        .findings li { border-inline-start: 4px solid var(--line); padding: 4px 8px; margin: 4px 0; background: #f6f8fa; border-radius: 4px; overflow-wrap: anywhere; }
        .findings li.error { border-color: #cf222e; background: #ffebe9; }
        .findings li.warning { border-color: #d4a72c; background: #fff8c5; }
        .findings .code { font: 600 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
        .findings .severity { font-size: 11px; text-transform: uppercase; color: var(--muted); }
        .where { font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--muted); font-weight: 400; }
        .clean { color: #1a7f37; font-size: 13px; margin: 0; }
        .source-findings { color: var(--muted); font-size: 12px; }
        .badge { font-size: 11px; font-weight: 500; background: #ddf4ff; color: #0550ae; border-radius: 10px; padding: 1px 7px; }
        .badge.default { background: #dafbe1; color: #116329; } .badge.pseudo { background: #fff8c5; color: #7d4e00; }
        table.index { border-collapse: collapse; background: #fff; }
        .index th, .index td { padding: 6px 14px; border-bottom: 1px solid var(--line); text-align: start; }
        .index td.bad { color: #a40e26; font-weight: 700; } .index td.warn { color: #7d4e00; font-weight: 600; }
        code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
        """
}
