import ArgumentParser
import Bundle
import Compiler
import Diagnostics
import Foundation
import Model
import Realtime

extension Msgc {
    struct RealtimeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "realtime",
            abstract: "The realtime snapshot: which approved message a realtime server answers with, per product and locale.",
            subcommands: [Snapshot.self, Check.self, Serve.self, URLCommand.self, Perftest.self])

        struct Snapshot: MsgcCommand {
            static let configuration = CommandConfiguration(
                commandName: "snapshot",
                abstract: "Write the realtime snapshot of a bundle: the messages Apple shows, per product and locale.",
                discussion: """
                    Reads the bundle (verified against its manifest) and the state file `msgc state fetch` \
                    wrote for the same environment. In production a message is answerable once Apple \
                    holds it and every image it shows APPROVED; sandbox approves by itself. With \
                    --previous, a message whose new version waits for review is answered with its last \
                    approved version meanwhile. The file lists every message left out and why \
                    (docs/realtime.md).

                    Exit status: 0 written (warnings name messages that need their sources fixed); \
                    2 a bundle, state file or previous snapshot that cannot be used, or a file that \
                    cannot be written.
                    """)

            @Argument(help: ArgumentHelp("The bundle folder `msgc build` wrote.", valueName: "bundle"))
            var bundle: String

            @Option(name: .long, help: ArgumentHelp("The state file `msgc state fetch` wrote for the bundle's environment.", valueName: "file"))
            var state: String

            @Option(name: .long, help: ArgumentHelp("Where to write the snapshot.", valueName: "file"))
            var out: String

            @Option(name: .long, help: ArgumentHelp("The snapshot now deployed, whose approved versions answer while new ones wait for review.", valueName: "file"))
            var previous: String?

            @OptionGroup var output: RealtimeOutputOptions

            func validate() throws {
                // A file written into the bundle would be a file its manifest does not list.
                let folder = URL(fileURLWithPath: bundle).standardizedFileURL.resolvingSymlinksInPath().path
                let target = URL(fileURLWithPath: out).standardizedFileURL.deletingLastPathComponent().resolvingSymlinksInPath().path
                if target == folder || target.hasPrefix(folder + "/") {
                    throw ValidationError("--out '\(out)' is inside the bundle '\(bundle)', whose manifest lists every file it holds; write the snapshot elsewhere")
                }
            }

            func execute() throws -> Outcome {
                guard let held = try StateOption.load(state, color: output.color, format: output.format) else { return .success }
                let snapshot: RealtimeSnapshot
                do {
                    snapshot = try RealtimeRelease.snapshot(
                        bundle: URL(fileURLWithPath: bundle), bundlePath: bundle, state: held,
                        previous: previous.map { URL(fileURLWithPath: $0) }, previousPath: previous, generatorVersion: Msgc.version)
                    try FileOutput.write(snapshot.json.canonicalBytes, to: URL(fileURLWithPath: out))
                } catch {
                    throw Refusal(.failure, "\(error); nothing was written")
                }
                try output.write(RealtimeRelease.findings(snapshot, path: out), sources: [:], to: .standardError)
                if !output.quiet { try Output.write(RealtimeRelease.summary(snapshot, path: out), to: .standardOutput) }
                return .success
            }
        }

        struct Check: MsgcCommand {
            static let configuration = CommandConfiguration(
                commandName: "check",
                abstract: "Judge a realtime server's answer as Apple would, against a snapshot.",
                discussion: """
                    RESPONSE is the JSON body a server answered with. It must have exactly one of \
                    message, alternateProduct and promotionalOffer; name a message the snapshot lists \
                    for the product in the locale that answers --locale (matched as a server matches \
                    Apple's userLocale), in the member its type needs; an offer or another plan only \
                    with a message without images, another plan only of the same group.

                    Exit status: 0 Apple shows the answer; 1 findings; 2 a snapshot or answer file that \
                    cannot be read, or a product the snapshot lacks.
                    """)

            @Argument(help: ArgumentHelp("The server's answer, a JSON file.", valueName: "response"))
            var response: String

            @Option(name: .long, help: ArgumentHelp("The snapshot the server answers from.", valueName: "file"))
            var snapshot: String

            @Option(name: .long, help: ArgumentHelp("The request's productId.", valueName: "id"))
            var product: String

            @Option(name: .long, help: ArgumentHelp("The request's userLocale, as Apple sends it (en-US, de-AT, zh-HK).", valueName: "locale"))
            var locale: String

            @OptionGroup var output: RealtimeOutputOptions

            func execute() throws -> Outcome {
                let loaded: RealtimeSnapshot
                do {
                    loaded = try RealtimeRelease.load(URL(fileURLWithPath: snapshot), displayPath: snapshot)
                } catch {
                    throw Refusal(.failure, "\(error)")
                }
                guard loaded.product(product) != nil else {
                    throw ValidationError("the snapshot has no product '\(product)'; it has \(loaded.products.map(\.id).joined(separator: ", "))")
                }
                let bytes: [UInt8]
                switch FileReader.bytes(at: URL(fileURLWithPath: response), limit: 1 << 20) {
                case .success(let read): bytes = read
                case .failure(.missing):
                    throw Refusal(.failure, "the answer '\(response)' does not exist")
                case .failure(.tooLarge(let size)):
                    throw Refusal(.failure, "the answer '\(response)' has \(size) bytes; Apple's answers are a few hundred")
                case .failure(.unreadable(let reason)):
                    throw Refusal(.failure, "the answer '\(response)' cannot be read: \(reason)")
                }
                let findings = ResponseCheck.check(
                    bytes, path: response, snapshot: loaded, request: .init(product: product, userLocale: locale))
                try output.write(findings, sources: [response: SourceFile(path: response, utf8: bytes, lineBreaks: .lineFeeds)], to: .standardOutput)
                if findings.contains(where: { $0.severity == .error }) { return Outcome(status: .findings) }
                if !output.quiet && findings.isEmpty && output.format == .human {
                    try Output.write("Apple shows this answer for \(product) in \(locale)\n", to: .standardOutput)
                }
                return .success
            }
        }
    }
}

/// `--format`, `--color` and `--quiet` of the realtime commands, whose findings are about files
/// outside a content tree and whose codes are the realtime ones.
struct RealtimeOutputOptions: ParsableArguments {
    @Option(name: .long, help: "Diagnostics format: \(DiagnosticFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: DiagnosticFormat = .human

    @Option(name: .long, help: "Colour: auto (only on a terminal, and never with NO_COLOR set), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .long, help: "Print only findings, no summary.")
    var quiet = false

    func write(_ diagnostics: [Diagnostic], sources: [String: SourceFile], to handle: FileHandle) throws(OutputFailure) {
        guard !diagnostics.isEmpty || format != .human else { return }
        let options = RenderOptions(sources: sources, useColor: color.isEnabled(for: handle))
        let text = switch format {
        case .human: HumanRenderer.render(diagnostics, options: options)
        case .json: JSONRenderer.render(diagnostics, options: options)
        case .sarif: SARIFRenderer.render(diagnostics, options: options, toolVersion: Msgc.version, rules: RealtimeDiagnostics.all)
        case .github: GitHubRenderer.render(diagnostics, options: options)
        }
        try Output.write(text, to: handle)
    }
}
