import ArgumentParser
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Model

extension Msgc {
    struct Lint: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check the content tree and print every problem found.",
            discussion: """
                With paths, reports only what is found in those files (or folders) of the content tree: \
                `msgc lint translations/de-DE.xliff` checks a translator's returned file. The whole tree \
                is still read, since a translation is judged against its messages. Each translation file \
                reported on ends with notes on what is still missing in it (TRN006) and on units that \
                wait for message sources with errors (TRN007).

                Exits 1 if any error is found (with --strict, any warning too), 2 if a file cannot be read.
                """)

        @OptionGroup var options: CommonOptions

        @Flag(name: .long, help: "Treat warnings as errors.")
        var strict = false

        @Argument(help: ArgumentHelp("Report only what is found in these files or folders of the content tree.", valueName: "path"))
        var paths: [String] = []

        func execute() throws -> Outcome {
            try options.requireContentTree()
            let scope = try LintScope(paths: paths, contentPath: options.contentPath)
            let compilation = Compilation.compile(root: options.contentURL)
            var found = compilation.findings
            if let scope {
                found = found.filter { scope.contains($0.location.path) }
                // A translator's report closes with what is left to do in each file.
                found += TranslatorReport.notes(for: compilation) { scope.contains($0) }
            }
            let outcome = compilation.policy.strict(strict).outcome(of: found)
            try options.write(outcome.diagnostics, sources: compilation.snippetSources, to: .standardOutput)
            if options.format == .human && !options.quiet {
                try Output.write(outcome.summary + "\n", to: .standardOutput)
            }
            return outcome
        }
    }
}

/// The files `msgc lint PATH…` reports on, as root-relative paths of the content tree.
struct LintScope {
    /// Root-relative files, and folders (ending in `/`; the empty string for the root itself).
    private var files: Set<String> = []
    private var folders: [String] = []

    /// Nil when no path is given: everything is reported. Each path must exist and lie inside
    /// the content tree, or the command ends with exit status 2 and says which does not.
    init?(paths: [String], contentPath: String) throws {
        guard !paths.isEmpty else { return nil }
        guard let root = Self.realPath(contentPath) else {
            throw ValidationError("cannot resolve the content tree '\(contentPath)'")
        }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("'\(path)' does not exist")
            }
            // The folder holding the path is resolved, not the path itself: a translation file
            // that is a symbolic link is still the file of the tree it is named in.
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let absolute: String
            if isDirectory.boolValue {
                guard let resolved = Self.realPath(url.path) else { throw ValidationError("cannot resolve '\(path)'") }
                absolute = resolved
            } else {
                guard let folder = Self.realPath(url.deletingLastPathComponent().path) else {
                    throw ValidationError("cannot resolve '\(path)'")
                }
                absolute = folder == "/" ? "/" + url.lastPathComponent : folder + "/" + url.lastPathComponent
            }
            if absolute == root {
                folders.append("")
                continue
            }
            guard absolute.hasPrefix(root == "/" ? "/" : root + "/") else {
                throw ValidationError(
                    "'\(path)' is not inside the content tree '\(contentPath)'; pass --content DIR for the tree it belongs to")
            }
            let relative = String(absolute.dropFirst(root == "/" ? 1 : root.count + 1))
            if isDirectory.boolValue { folders.append(relative + "/") } else { files.insert(relative) }
        }
    }

    func contains(_ path: String) -> Bool {
        files.contains(path) || folders.contains { $0.isEmpty || path.hasPrefix($0) }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
