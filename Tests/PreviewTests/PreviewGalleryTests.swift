import Compiler
import Foundation
import Model
@testable import Preview
import PseudoLocalization
import Testing
import TestSupport

@Suite struct PreviewGalleryTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A copy of the example content with one hostile, too-long message in the family plan, and
    /// en-XA and ar-XB pseudo-translations.
    static func hostileExample() throws -> (URL, Compilation) {
        let folder = TestFolders.root.appendingPathComponent("msgc-preview-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("content"), to: folder)
        let family = folder.appendingPathComponent("messages/family.yaml")
        var text = try String(contentsOf: family, encoding: .utf8)
        text += """

              - key: hostile
                product: com.example.parla.family.yearly
                type: text
                header: "<script>alert('x')</script> & \\"Plus\\" is waiting for the whole family"
                body: <img src=x onerror=alert(1)> and a <b>bold</b> claim

            """
        try Data(text.utf8).write(to: family)
        let (catalog, _) = ContentTree(root: folder).load()
        for locale in ["en-XA", "ar-XB"] {
            let output = try PseudoTranslation.make(catalog: catalog, locale: locale, expansion: 0.35, version: .v1_2, toolVersion: "test")
            try Data(output.document.utf8).write(to: folder.appendingPathComponent("translations/\(locale).xliff"))
        }
        return (folder, Compilation.compile(root: folder))
    }

    static func articles(_ html: String) -> [String] {
        html.components(separatedBy: "<article class=\"message\"").dropFirst().map { $0.components(separatedBy: "</article>")[0] }
    }

    @Test func rendersEveryMessageOfEveryLocale() throws {
        let (folder, compilation) = try Self.hostileExample()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pages, summary) = PreviewGallery.pages(compilation)
        let config = try #require(compilation.catalog.config)
        #expect(pages.map(\.name) == ["index.html", "en-US.html", "de-DE.html", "fr-FR.html", "es-MX.html", "pt-BR.html", "ja.html", "zh-Hans.html", "ar-SA.html", "ar-XB.html", "en-XA.html"])
        var total = 0
        for page in pages.dropFirst() {
            let locale = String(page.name.dropLast(".html".count))
            let expected = compilation.catalog.messages.filter {
                PseudoLocale.isPseudo(locale) || ProductLocales(config)[$0.product.value].contains(locale)
            }
            let articles = Self.articles(page.html)
            #expect(articles.count == expected.count, "\(locale)")
            // In the order of the project's products, then of the sources.
            let ordered = config.products.flatMap { product in expected.filter { $0.product.value == product.id.value } }
            for (article, message) in zip(articles, ordered) { #expect(article.contains(">\(message.key.value)</bdi></code>"), "\(locale)") }
            total += articles.count
        }
        #expect(summary.sheetCount + summary.unavailableCount == total)
        // The new message has no translation in the family plan's other locales: it says why.
        let german = try #require(pages.first { $0.name == "de-DE.html" })
        let hostile = try #require(Self.articles(german.html).first { $0.contains(">hostile</bdi>") })
        #expect(hostile.contains("Not shown in de-DE") && hostile.contains("<li>header: missing</li>"))
        #expect(hostile.contains("finding on the source text") || hostile.contains("findings on the source text"))
    }

    @Test func escapesEverythingFromTheContentTree() throws {
        let (folder, compilation) = try Self.hostileExample()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pages, _) = PreviewGallery.pages(compilation)
        for page in pages {
            #expect(!page.html.contains("<script"), "\(page.name)")
            #expect(!page.html.contains("<img src=x"), "\(page.name)")
            #expect(!page.html.contains("<b>bold"), "\(page.name)")
        }
        let english = try #require(pages.first { $0.name == "en-US.html" }).html
        #expect(english.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;Plus&quot; is waiting"))
        #expect(english.contains("&lt;img src=x onerror=alert(1)&gt; and a &lt;b&gt;bold&lt;/b&gt; claim"))
        // Nothing is fetched from anywhere: images are data: URIs, and the policy forbids the rest.
        #expect(english.contains("content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\""))
        #expect(!english.contains("src=\"http") && !english.contains("href=\"http"))
        #expect(english.contains("{ background-image: url(\"data:image/png;base64,iVBORw0KGgo"))
        #expect(english.contains("<span class=\"hero pic pic-"))
    }

    /// Each image is embedded once per page, however many sheets show it, and every use of it
    /// names that one copy.
    @Test func eachImageIsEmbeddedOncePerPage() throws {
        let (folder, compilation) = try Self.hostileExample()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pages, _) = PreviewGallery.pages(compilation)
        for page in pages where page.name != "index.html" {
            let embedded = page.html.components(separatedBy: "data:image/png;base64,").count - 1
            let classes = Set(page.html.matches(of: /class="(?:hero|icon) pic (pic-\d+)"/).map { String($0.output.1) })
            #expect(embedded == classes.count, "\(page.name)")
            for name in classes { #expect(page.html.contains(".\(name) { background-image: url(\"data:image/png;base64,"), "\(page.name) \(name)") }
        }
        let english = try #require(pages.first { $0.name == "en-US.html" }).html
        let uses = english.components(separatedBy: " pic pic-").count - 1
        let embedded = english.components(separatedBy: "data:image/png;base64,").count - 1
        #expect(uses > embedded, "the example's icons are shared by several messages")
    }

    @Test func mirrorsRightToLeftLocalesAndKeepsTheSheetsLayout() throws {
        let (folder, compilation) = try Self.hostileExample()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pages, _) = PreviewGallery.pages(compilation)
        func page(_ name: String) throws -> String { try #require(pages.first { $0.name == name }).html }
        for (name, direction, locale) in [("ar-SA.html", "rtl", "ar-SA"), ("ar-XB.html", "rtl", "ar-XB"), ("en-US.html", "ltr", "en-US"), ("ja.html", "ltr", "ja")] {
            let html = try page(name)
            let sheets = html.components(separatedBy: "<div class=\"sheet\"").count - 1
            #expect(sheets > 0)
            #expect(html.components(separatedBy: "<div class=\"sheet\" dir=\"\(direction)\" lang=\"\(locale)\">").count - 1 == sheets, "\(name)")
        }
        // winback puts its header above the image; benefits (no position) has no image, and its
        // bullets follow the body, each with its icon.
        let english = try page("en-US.html")
        let winback = try #require(Self.articles(english).first { $0.contains(">winback</bdi>") })
        let header = try #require(winback.range(of: "<p class=\"header\">"))
        let image = try #require(winback.range(of: "<span class=\"hero pic"))
        let body = try #require(winback.range(of: "<p class=\"body\">"))
        #expect(header.lowerBound < image.lowerBound && image.lowerBound < body.lowerBound)
        let family = try #require(Self.articles(english).first { $0.contains(">stay-together</bdi>") })
        let familyImage = try #require(family.range(of: "<span class=\"hero pic"))
        let familyHeader = try #require(family.range(of: "<p class=\"header\">"))
        #expect(familyImage.lowerBound < familyHeader.lowerBound, "above-body: the image comes first")
        let benefits = try #require(Self.articles(english).first { $0.contains(">benefits</bdi>") })
        #expect(benefits.components(separatedBy: "<li><span class=\"icon pic pic-").count - 1 == 3)
        #expect(benefits.contains("aria-label=\"Green check mark\""))
    }

    @Test func showsLengthsAndFindingsOnTheMessageTheyConcern() throws {
        let (folder, compilation) = try Self.hostileExample()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pages, _) = PreviewGallery.pages(compilation)
        let english = try #require(pages.first { $0.name == "en-US.html" }).html
        let articles = Self.articles(english)
        let hostile = try #require(articles.first { $0.contains(">hostile</bdi>") })
        #expect(hostile.contains("<tr class=\"over\"><th scope=\"row\">header</th><td class=\"count\">68 / 66</td>"))
        #expect(hostile.contains("<span class=\"code\">LEN001</span>"))
        // The finding is on that message only.
        #expect(articles.filter { $0.contains("LEN001") }.count == 1)
        let winback = try #require(articles.first { $0.contains(">winback</bdi>") })
        #expect(winback.contains("<tr class=\"ok\"><th scope=\"row\">header</th><td class=\"count\">30 / 66</td>"))
        #expect(winback.contains("no findings"))

        // In a pseudo locale, overflow is a warning shown on the message.
        let pseudo = try #require(pages.first { $0.name == "en-XA.html" }).html
        #expect(pseudo.contains("en-XA is a pseudo locale"))
        let overflowing = Self.articles(pseudo).filter { $0.contains("<tr class=\"over\">") }
        #expect(!overflowing.isEmpty)
        #expect(overflowing.allSatisfy { $0.contains("<li class=\"warning\"><span class=\"code\">LEN001</span>") })
    }

    @Test func oneLocaleAndTheSameBytesEveryTime() throws {
        let (folder, compilation) = try Self.hostileExample()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (all, _) = PreviewGallery.pages(compilation)
        let (again, _) = PreviewGallery.pages(Compilation.compile(root: folder))
        #expect(all.map(\.html) == again.map(\.html))
        let (one, summary) = PreviewGallery.pages(compilation, only: "ja")
        #expect(one.map(\.name) == ["ja.html"])
        #expect(summary.localeCount == 1)
        #expect(!one[0].html.contains("<nav>"), "no links to pages that were not written")
    }
}
