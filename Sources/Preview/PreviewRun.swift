import Compiler
import Foundation
import Model

/// `msgc preview`'s one job: compile the content tree and draw its pages.
public struct PreviewRun: Sendable {
    public var compilation: Compilation
    /// The pages drawn, and what they show; none when the tree cannot be drawn.
    public var pages: [PreviewGallery.Page]
    public var summary: PreviewGallery.Summary?

    /// Whether the tree can be drawn: every file was read and msgc.yaml is usable.
    public var isDrawable: Bool { !compilation.hasIOFailure && compilation.catalog.config != nil }

    /// Compiles the tree at `root` and draws every locale's page and the index, or only the
    /// page of the locale `choose` picks among the project's (`PreviewGallery.locales`); it
    /// is asked only when the tree can be drawn, and what it throws ends the run.
    public static func draw(root: URL, choosingLocale choose: ([String]) throws -> String?) rethrows -> PreviewRun {
        let compilation = Compilation.compile(root: root)
        var run = PreviewRun(compilation: compilation, pages: [], summary: nil)
        guard run.isDrawable else { return run }
        let locale = try choose(PreviewGallery.locales(compilation))
        let (pages, summary) = PreviewGallery.pages(compilation, only: locale)
        run.pages = pages
        run.summary = summary
        return run
    }
}
