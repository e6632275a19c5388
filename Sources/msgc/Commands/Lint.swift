import ArgumentParser
import Foundation
import Lint
import Model

extension Msgc {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check the content tree and print every problem found.",
            discussion: "Exits 1 if any error is found (with --strict, any warning too), 2 if a file cannot be read.")

        @OptionGroup var options: CommonOptions

        @Flag(name: .long, help: "Treat warnings as errors.")
        var strict = false

        func run() throws {
            try options.requireContentTree()
            let compilation = Compilation.compile(root: options.contentURL)
            ProcessLifetime.keepUntilExit(compilation)
            let diagnostics = strict ? compilation.diagnostics.escalatingWarnings() : compilation.diagnostics
            Output.write(options.render(diagnostics, sources: compilation.snippetSources(root: options.contentURL), to: .standardOutput), to: .standardOutput)
            if options.format == .human && !options.quiet {
                Output.write(DiagnosticSummary.line(for: diagnostics) + "\n", to: .standardOutput)
            }
            if compilation.hasIOFailure { throw ExitStatus.failure.exitCode }
            if diagnostics.errorCount > 0 { throw ExitStatus.diagnostics.exitCode }
        }
    }
}
