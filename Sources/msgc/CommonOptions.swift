import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Model
import XLIFF

/// How diagnostics are printed.
enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
    case human, json, sarif, github
}

/// When to colour human output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// Whether to colour what goes to `handle`: `auto` colours only a terminal, and never with `NO_COLOR` set.
    func isEnabled(for handle: FileHandle) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
            return isatty(handle.fileDescriptor) != 0
        }
    }
}

/// Options every command that reads a content tree shares.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The content tree to read (default: the current folder when it holds msgc.yaml, else ./content).", valueName: "dir"))
    var content: String?

    /// The content tree's folder as given, or as found (`ContentTreeLocation`).
    var contentPath: String { ContentTreeLocation.path(explicit: content) }

    @Option(name: .long, help: "Diagnostics format: \(DiagnosticFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: DiagnosticFormat = .human

    @Option(name: .long, help: "Colour: auto (only on a terminal, and never with NO_COLOR set), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .long, help: "Print only errors and warnings, no summary or progress.")
    var quiet = false

    var contentURL: URL { URL(fileURLWithPath: contentPath) }

    /// The prefix that makes root-relative paths work from the current folder.
    var pathPrefix: String { ContentTreeLocation.pathPrefix(contentPath) }

    func useColor(for handle: FileHandle) -> Bool { color.isEnabled(for: handle) }

    /// Renders diagnostics in the chosen format.
    func render(_ diagnostics: [Diagnostic], sources: [String: SourceFile], to handle: FileHandle) -> String {
        var output: [UInt8] = []
        write(diagnostics, sources: sources, format: format, useColor: useColor(for: handle)) { output += $0 }
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes diagnostics in the chosen format to `handle` as they are rendered, part by part
    /// (`ReportText`): a report of thousands of findings is never held whole. After a part
    /// that cannot be written, nothing more is written, and the failure ends the command.
    func write(_ diagnostics: [Diagnostic], sources: [String: SourceFile], to handle: FileHandle) throws(OutputFailure) {
        var failure: OutputFailure?
        write(diagnostics, sources: sources, format: format, useColor: useColor(for: handle)) { part in
            guard failure == nil else { return }
            do throws(OutputFailure) { try Output.write(part, to: handle) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private func write(
        _ diagnostics: [Diagnostic], sources: [String: SourceFile], format: DiagnosticFormat, useColor: Bool,
        to write: ([UInt8]) -> Void
    ) {
        let options = RenderOptions(pathPrefix: pathPrefix, sources: sources, useColor: useColor)
        switch format {
        case .human: HumanRenderer.write(diagnostics, options: options, to: write)
        case .json: JSONRenderer.write(diagnostics, options: options, to: write)
        case .sarif: SARIFRenderer.write(diagnostics, options: options, toolVersion: Msgc.version, rules: Codes.all, to: write)
        case .github: GitHubRenderer.write(diagnostics, options: options, to: write)
        }
    }

    /// What stops a command that writes files for translators, which works from sound sources
    /// only: the errors that would stop a build, judged as build judges them (msgc.yaml's
    /// `rules:` through the project's `SeverityPolicy`; a code set `off` or to `warning` no longer
    /// stops it). They are reported on standard error, and the outcome is returned: 1, or 2 when
    /// a file could not be read. Nil when nothing stops the command.
    func blockingErrors(_ compilation: Compilation, nothing: String) throws -> Outcome? {
        let sourceLocale = compilation.catalog.config?.sourceLocale.value
        let blocks = { (diagnostic: Diagnostic) in ReleasePlan.blocksBuild(diagnostic, sourceLocale: sourceLocale) }
        let outcome = compilation.policy.outcome(of: compilation.findings, fails: blocks)
        guard outcome.status != .success else { return nil }
        try write(outcome.diagnostics.filter(blocks), sources: compilation.snippetSources, to: .standardError)
        return try Outcome.stop("fix the message sources first; \(nothing)", outcome)
    }

    /// Fails with exit status 2 when the content folder does not exist.
    func requireContentTree() throws { try ContentTreeLocation.require(explicit: content) }
}

/// The locale a `--locale` names among `locales`, ignoring case as BCP 47 does: `de-de` is
/// the project's `de-DE`, with a warning on standard error that names the canonical spelling.
/// A tag that names none of them is returned as given, for the command to refuse.
func projectLocale(named given: String, among locales: [String], quiet: Bool) throws(OutputFailure) -> String {
    guard !locales.contains(given), let match = locales.first(where: { $0.lowercased() == given.lowercased() }) else { return given }
    if !quiet {
        try Output.error("warning: --locale '\(given)' is the project's locale '\(match)' in another case; using \(match)")
    }
    return match
}

/// Refuses, with exit status 2, to write `document` over a file that holds translations it
/// would not carry over: another locale's file, a locale's second file, a file msgc cannot
/// read. The file msgc uses for the locale (`usedFile`, root-relative) is read and carried over
/// by the command itself (extract keeps the units no message has in an `.orphans` file), so it
/// may always be replaced.
func refuseToLoseTranslations(
    at out: String, document: String, usedFile: String?, contentPath: String, replaceableLocale: String? = nil
) throws {
    let url = URL(fileURLWithPath: out)
    if isLocaleFile(out, usedFile, contentPath: contentPath) { return }
    let why: String
    switch XLIFFExport.replacing(url, with: document, replaceableLocale: replaceableLocale) {
    case .safe: return
    case .unreadable(let reason):
        why = "exists but cannot be read (\(reason)), so msgc cannot tell whether it holds translations"
    case .notXLIFF(let reason):
        why = "exists but cannot be read as XLIFF (\(reason)), so msgc cannot tell whether it holds translations"
    case .losesTranslations(let count, let language):
        let locale = language.map { " (\($0))" } ?? ""
        why = "holds \(count) translation\(count == 1 ? "" : "s")\(locale) that the new file would not carry over"
    }
    throw Refusal(.usage, "'\(out)' \(why); nothing was written. Choose another --out, or move the file away first")
}

/// Whether `out` is the locale's file in the content tree (`usedFile`, root-relative), however
/// either is spelled.
func isLocaleFile(_ out: String, _ usedFile: String?, contentPath: String) -> Bool {
    guard let usedFile, let used = realpath((contentPath as NSString).appendingPathComponent(usedFile), nil) else { return false }
    defer { free(used) }
    guard let target = realpath(out, nil) else { return false }
    defer { free(target) }
    return strcmp(used, target) == 0
}

/// Refuses, with exit status 2, an `--out` inside the content tree that msgc would read back as
/// something else: inside the tree extract and pseudo write only an XLIFF file under
/// `translations/`, and only the locale's own file (`localeFile`, root-relative) when it has
/// one, since a second file for a locale is an error for lint and build. A link in the way is
/// resolved first: the tree is where the file would land.
func refuseToWriteIntoTheTree(at out: String, contentPath: String, localeFile: String?) throws {
    guard let root = resolvedPath(contentPath) else { return }
    let url = URL(fileURLWithPath: out).standardizedFileURL
    // A missing folder is FileOutput's to report.
    guard let folder = resolvedPath(url.deletingLastPathComponent().path) else { return }
    let name = url.lastPathComponent
    let target = resolvedPath(url.path) ?? (folder == "/" ? "/" + name : folder + "/" + name)
    guard target.hasPrefix(root + "/") else { return }
    let relative = String(target.dropFirst(root.count + 1))
    let pathExtension = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
    let why: String
    if !relative.hasPrefix("translations/") || !["xliff", "xlf"].contains(pathExtension) {
        why = "is inside the content tree ('\(relative)'), which is msgc's input; in the tree it writes only XLIFF files under translations/"
    } else if let localeFile, !isLocaleFile(out, localeFile, contentPath: contentPath) {
        why = "would be a second file for the locale in the content tree, beside '\(ContentTreeLocation.pathPrefix(contentPath) + localeFile)' "
            + "(lint and build refuse two); write that file again instead (it is read and carried over)"
    } else {
        return
    }
    throw Refusal(.usage, "'\(out)' \(why). Nothing was written; choose another --out")
}

private func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// Where a command finds its content tree, as git and cargo find theirs: `--content` when
/// given; else the current folder when it holds `msgc.yaml` (a writer or translator working
/// inside the tree); else `./content` (the layout `msgc init` makes beside a project).
enum ContentTreeLocation {
    static func path(explicit: String?) -> String {
        if let explicit { return explicit }
        return FileManager.default.fileExists(atPath: "msgc.yaml") ? "." : "content"
    }

    /// The prefix that makes root-relative paths work from the current folder.
    static func pathPrefix(_ content: String) -> String {
        let trimmed = content.hasSuffix("/") ? String(content.dropLast()) : content
        return trimmed == "." || trimmed.isEmpty ? "" : trimmed + "/"
    }

    /// Fails with exit status 2 when the content folder does not exist.
    static func require(explicit: String?) throws {
        let content = path(explicit: explicit)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content, isDirectory: &isDirectory), isDirectory.boolValue else {
            if explicit == nil {
                throw ValidationError(
                    "no content tree here: the current folder has no msgc.yaml and there is no ./content; pass --content DIR, or run `msgc init` to create one")
            }
            throw ValidationError("no content tree at '\(content)': pass --content DIR, or run `msgc init \(content)` to create one")
        }
    }
}

/// Reads the file given to `--state`, shared by `build` and `coverage`.
enum StateOption {
    /// The state file at `path`, or nil when none was given. A state file that cannot be read
    /// or used is reported on standard error and ends the command with exit status 2: it is an
    /// input given on the command line, and msgc uses a state file whole or not at all.
    static func load(_ path: String?, color: ColorChoice, format: DiagnosticFormat = .human) throws -> StateFile? {
        guard let path else { return nil }
        let (state, diagnostics) = StateFileParser.load(URL(fileURLWithPath: path), displayPath: path)
        // Warnings (entries left out) are said and the rest of the file is used.
        if !diagnostics.isEmpty {
            let options = RenderOptions(useColor: color.isEnabled(for: .standardError))
            // The state file's path is given as it was on the command line, not inside the content tree.
            let text = switch format {
            case .human: HumanRenderer.render(diagnostics, options: options)
            case .json: JSONRenderer.render(diagnostics, options: options)
            case .sarif: SARIFRenderer.render(diagnostics, options: options, toolVersion: Msgc.version, rules: Codes.all)
            case .github: GitHubRenderer.render(diagnostics, options: options)
            }
            try Output.write(text, to: .standardError)
        }
        guard let state else { throw Refusal(.usage, "the state file cannot be used; nothing was written") }
        return state
    }

    /// Refuses (exit status 2, naming both) a state file of another environment or app than
    /// the one the command works on; one without them was warned about when it was read (STA011).
    static func requireOrigin(_ state: StateFile, path: String, environment: Environment, bundleId: String) throws {
        if let mismatch = StateFileParser.mismatch(state, path: path, environment: environment, bundleId: bundleId) {
            throw Refusal(.usage, mismatch + "; nothing was written")
        }
    }
}
