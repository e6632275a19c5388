import ArgumentParser
import Bundle
import CommandLineSupport
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
            subcommands: [Snapshot.self, Check.self, Serve.self, Report.self, Outcomes.self, URLCommand.self, Perftest.self])

        struct Snapshot: MsgcCommand {
            static let configuration = CommandConfiguration(
                commandName: "snapshot",
                abstract: "Write the realtime snapshot of a bundle: the messages Apple shows, per product and locale.",
                discussion: """
                    Reads the bundle (verified against its manifest) and the state file `msgc state fetch` \
                    wrote for the same environment. In production a message is answerable once Apple \
                    holds it and every image it shows APPROVED; sandbox approves by itself. With \
                    --previous, a message whose new version waits for review is answered with its last \
                    approved version meanwhile, and so is one the bundle does not ship while its \
                    sources keep it (a locale waiting for its translation). The file lists every message \
                    of the sources left out and why (docs/realtime.md); with --previous, the output names \
                    every product, locale and message the previous snapshot answered that this one does not.

                    A snapshot that answers nothing at all (no product has a locale with a message) is \
                    refused and not written, unless --allow-empty: a state file with empty lists gives \
                    one, while a first production release whose content all waits for review is \
                    legitimately empty.

                    Exit status: 0 written (warnings name messages that need their sources fixed); \
                    1 the snapshot answers nothing (without --allow-empty; nothing written); 2 a bundle, \
                    state file or previous snapshot that cannot be used, or a file that cannot be written.
                    """)

            @Argument(help: ArgumentHelp("The bundle folder `msgc build` wrote.", valueName: "bundle"))
            var bundle: String

            @Option(name: .long, help: ArgumentHelp("The state file `msgc state fetch` wrote for the bundle's environment.", valueName: "file"))
            var state: String

            @Option(name: .long, help: ArgumentHelp("Where to write the snapshot.", valueName: "file"))
            var out: String

            @Option(name: .long, help: ArgumentHelp("The snapshot now deployed, whose approved versions answer while new ones wait for review.", valueName: "file"))
            var previous: String?

            @Flag(name: .long, help: "Write a snapshot that answers nothing (a first production release whose content all waits for review).")
            var allowEmpty = false

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
                // The bundle's manifest names its environment and app; one that cannot be read
                // is reported by the snapshot's own reading below.
                let manifestURL = URL(fileURLWithPath: bundle).appendingPathComponent("manifest.json")
                if case .success(let bytes) = FileReader.bytes(at: manifestURL, limit: BundleReader.maxJSONBytes),
                   let manifest = try? BundleReader.parseManifest(bytes, path: manifestURL.path) {
                    try StateOption.requireOrigin(held, path: state, environment: manifest.environment, bundleId: manifest.bundleId)
                }
                let made: (snapshot: RealtimeSnapshot, previous: RealtimeSnapshot?)
                do {
                    made = try RealtimeRelease.snapshot(
                        bundle: URL(fileURLWithPath: bundle), bundlePath: bundle, state: held,
                        previous: previous.map { URL(fileURLWithPath: $0) }, previousPath: previous, generatorVersion: Msgc.version)
                } catch {
                    throw Refusal(.io, "\(error); nothing was written")
                }
                let snapshot = made.snapshot
                if RealtimeRelease.answersNothing(snapshot) && !allowEmpty {
                    // A snapshot that answers nothing is a finding about the bundle and state: nothing is written.
                    return try .stop(RealtimeRelease.emptyRefusal(snapshot), Outcome(Verdict(failingFindings: 1)))
                }
                do {
                    try FileOutput.write(snapshot.json.canonicalBytes, to: URL(fileURLWithPath: out))
                } catch {
                    throw Refusal(.io, "\(error); nothing was written")
                }
                try output.write(RealtimeRelease.findings(snapshot, path: out), sources: [:], to: .standardError)
                var summary = output.quiet ? "" : RealtimeRelease.summary(snapshot, path: out)
                if let earlier = made.previous, let previous {
                    // What subscribers lose is said even with --quiet.
                    summary += RealtimeRelease.lostLines(snapshot, previous: earlier, previousPath: previous).map { TerminalText.escaped($0) + "\n" }.joined()
                }
                if !summary.isEmpty { try Output.write(summary, to: .standardOutput) }
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

                    With --no-answer instead of RESPONSE (the server answered 404 with nothing), it \
                    asserts that answering nothing is right: no locale of the product answers --locale, \
                    or the one that does has neither a usable realtime: message nor a default.

                    Exit status: 0 Apple shows the answer (or nothing is right); 1 errors (with \
                    --strict, warnings too); 2 a snapshot or answer file that cannot be read, or a \
                    product the snapshot lacks. There is no content tree here, so msgc.yaml's `rules:` \
                    does not apply: every finding keeps its rule's severity.
                    """)

            @Argument(help: ArgumentHelp("The server's answer, a JSON file (not with --no-answer).", valueName: "response"))
            var response: String?

            @Flag(name: .long, help: "The server answered nothing (404): check that the snapshot has no answer either.")
            var noAnswer = false

            @Option(name: .long, help: ArgumentHelp("The snapshot the server answers from.", valueName: "file"))
            var snapshot: String

            @Option(name: .long, help: ArgumentHelp("The request's productId.", valueName: "id"))
            var product: String

            @Option(name: .long, help: ArgumentHelp("The request's userLocale, as Apple sends it (en-US, de-AT, zh-HK).", valueName: "locale"))
            var locale: String

            @OptionGroup var output: RealtimeOutputOptions

            @Flag(name: .long, help: "Treat warnings as errors.")
            var strict = false

            /// The severity policy of a check: the rules' own severities (no msgc.yaml is read), and `--strict`.
            var policy: SeverityPolicy { SeverityPolicy(settings: RuleSettings([], codes: RealtimeDiagnostics.all), strict: strict) }

            func validate() throws {
                if noAnswer, let response { throw ValidationError("--no-answer says the server answered nothing, but an answer '\(response)' is given too; give one of them") }
                if !noAnswer, response == nil { throw ValidationError("give the server's answer (RESPONSE), or --no-answer when it answered nothing") }
            }

            func execute() throws -> Outcome {
                let loaded: RealtimeSnapshot
                do {
                    loaded = try RealtimeRelease.load(URL(fileURLWithPath: snapshot), displayPath: snapshot)
                } catch {
                    throw Refusal(.io, "\(error)")
                }
                guard loaded.product(product) != nil else {
                    throw ValidationError("the snapshot has no product '\(product)'; it has \(loaded.products.map(\.id).joined(separator: ", "))")
                }
                if noAnswer {
                    let findings = policy.settle(ResponseCheck.checkNoAnswer(path: snapshot, snapshot: loaded, request: .init(product: product, userLocale: locale)))
                    try output.write(findings, sources: [:], to: .standardOutput)
                    let verdict = policy.verdict(of: findings)
                    if verdict != .success { return Outcome(verdict) }
                    if !output.quiet && output.format == .human {
                        try Output.write("the snapshot has no answer for \(product) in \(locale) either: answering nothing is right\n", to: .standardOutput)
                    }
                    return .success
                }
                guard let response else { throw ValidationError("give the server's answer (RESPONSE), or --no-answer when it answered nothing") }
                let bytes: [UInt8]
                switch FileReader.bytes(at: URL(fileURLWithPath: response), limit: 1 << 20) {
                case .success(let read): bytes = read
                case .failure(.missing):
                    throw Refusal(.io, "the answer '\(response)' does not exist")
                case .failure(.tooLarge(let size)):
                    throw Refusal(.io, "the answer '\(response)' has \(size) bytes; Apple's answers are a few hundred")
                case .failure(.unreadable(let reason)):
                    throw Refusal(.io, "the answer '\(response)' cannot be read: \(reason)")
                }
                let findings = policy.settle(ResponseCheck.check(
                    bytes, path: response, snapshot: loaded, request: .init(product: product, userLocale: locale)))
                try output.write(findings, sources: [response: SourceFile(path: response, utf8: bytes, lineBreaks: .lineFeeds)], to: .standardOutput)
                let verdict = policy.verdict(of: findings)
                if verdict != .success { return Outcome(verdict) }
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
