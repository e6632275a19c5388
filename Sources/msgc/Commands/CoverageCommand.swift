import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Coverage
import Diagnostics
import Foundation
import Model

/// How `msgc coverage` prints its report.
enum CoverageFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, markdown, html
}

extension Msgc {
    /// `msgc coverage`. Its `--format` chooses the report's format, so it does not take the
    /// diagnostics options that `lint` and `build` share.
    struct CoverageCommand: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "coverage",
            abstract: "Show which products are ready in which locales, and why the rest are not.",
            discussion: """
                A cell per product and locale of its list: how many of the product's messages are \
                ready there, why each other one is not (missing, stale, below minimumState, failing \
                a rule; with --state, PENDING or REJECTED at Apple or not uploaded yet), and whether \
                the product's default message is ready.

                --state matches identifiers of --environment (default: production with --state, \
                else sandbox). --fail-under PERCENT exits 1 when fewer than PERCENT of all messages \
                are ready. --locale L (repeatable) reports only those locales, with totals counted \
                over them. A state file that cannot be used, or a locale the project does not have, \
                exits 2.
                """)

        @Option(name: .long, help: ArgumentHelp(
            "The content tree to read (default: the current folder when it holds msgc.yaml, else ./content).", valueName: "dir"))
        var content: String?

        @Option(name: .long, help: "Report format: \(CoverageFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        var format: CoverageFormat = .table

        @Option(name: .long, help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
        var out: String?

        @Option(name: .long, help: ArgumentHelp(
            "What Apple holds: its Get Message List and Get Image List responses, as JSON.", valueName: "file"))
        var state: String?

        @Option(name: .long, help: "Whose identifiers to match against --state: sandbox or production (default: the state file's, else production with --state, else sandbox).")
        var environment: Environment?

        @Option(name: .long, help: ArgumentHelp("Exit 1 when fewer than this percentage of messages are ready.", valueName: "percent"))
        var failUnder: Double?

        @Option(name: .long, help: "Colour the table: auto (only on a terminal, and never with NO_COLOR set), always or never.")
        var color: ColorChoice = .auto

        @Flag(name: .long, help: "With --out, print nothing on success.")
        var quiet = false

        @Option(name: .long, help: ArgumentHelp(
            "Report only this locale (repeatable): what a translator's file still lacks, as `msgc lint` on the file sends them here.",
            valueName: "locale"))
        var locale: [String] = []

        func validate() throws {
            if let failUnder, !(0...100).contains(failUnder) {
                throw ValidationError("--fail-under takes a percentage from 0 to 100, not \(failUnder)")
            }
        }

        func execute() throws -> Outcome {
            try ContentTreeLocation.require(explicit: content)
            let content = ContentTreeLocation.path(explicit: content)
            let appleState = try StateOption.load(state, color: color)
            // Without --environment, the state file's own (it names it since msgc recorded it).
            let environment = environment ?? appleState?.environment.flatMap(Environment.init(rawValue:))
            let run = CoverageRun.run(root: URL(fileURLWithPath: content), environment: environment, state: appleState)
            if let appleState, let state, let report = run.report, let bundleId = run.compilation.catalog.config?.bundleId.value {
                try StateOption.requireOrigin(appleState, path: state, environment: report.environment, bundleId: bundleId)
            }
            let options = RenderOptions(
                pathPrefix: ContentTreeLocation.pathPrefix(content), sources: run.compilation.snippetSources,
                useColor: color.isEnabled(for: .standardError))
            guard var report = run.report else {
                try Output.write(HumanRenderer.render(run.failures, options: options), to: .standardError)
                // Why there is no report is in what was said: files msgc could not read, or no usable msgc.yaml.
                return Outcome(.io)
            }
            if !locale.isEmpty {
                // Matched as the project spells its locales, ignoring case and `_` for `-`.
                func spelled(_ tag: String) -> String { String(tag.lowercased().map { $0 == "_" ? "-" : $0 }) }
                var wanted = Set<String>()
                for asked in locale {
                    guard let known = report.locales.first(where: { spelled($0) == spelled(asked) }) else {
                        let shown = report.locales.map { "'\(TerminalText.escaped($0))'" }.joined(separator: ", ")
                        throw Refusal(.usage, "--locale '\(TerminalText.escaped(asked))' is not a locale of the project; its locales are \(shown)")
                    }
                    wanted.insert(known)
                }
                report = report.restricted(to: wanted)
            }
            if !run.drift.isEmpty { try Output.write(HumanRenderer.render(run.drift, options: options), to: .standardError) }

            let text: String
            switch format {
            case .table:
                let useColor = out == nil ? color.isEnabled(for: .standardOutput) : color == .always
                text = CoverageTableRenderer.render(report, options: .init(useColor: useColor))
            case .json: text = CoverageJSONRenderer.render(report)
            case .markdown: text = CoverageMarkdownRenderer.render(report)
            case .html: text = CoverageHTMLRenderer.render(report)
            }
            if let out {
                do {
                    try FileOutput.write(Array(text.utf8), to: URL(fileURLWithPath: out))
                } catch {
                    throw Refusal(.io, "\(error)")
                }
                if !quiet { try Output.write("wrote \(out): \(CoverageWording.headline(report))\n", to: .standardOutput) }
            } else {
                try Output.write(text, to: .standardOutput)
            }
            if let failUnder, report.isBelow(percent: failUnder) {
                try Output.write(
                    "msgc: \(CoverageWording.headline(report)), below --fail-under \(Self.formatPercent(failUnder))\n",
                    to: .standardError)
                return Outcome(Verdict(failingFindings: 1))
            }
            return .success
        }

        /// `90%` or `87.5%`, without a trailing `.0`.
        static func formatPercent(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value))%" : "\(value)%"
        }
    }
}
