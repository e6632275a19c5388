import Apply
import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Model

/// `--format` of `msgc realtime url` and `msgc realtime perftest`.
enum SetupFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// What `msgc realtime url` and `msgc realtime perftest` share: the environment, the app, the
/// credentials, `--api-base`, `--max-wait`; the client they make of them.
struct RealtimeSetupOptions: ParsableArguments {
    @Option(name: .long, help: "The environment: sandbox or production.")
    var environment: Environment

    @OptionGroup var app: AppBundleIDOptions

    @OptionGroup var apple: AppleCredentialOptions

    @Option(name: .long, help: "Output format: text or json.")
    var format: SetupFormat = .text

    func validate() throws {
        _ = try apple.base()
        _ = try apple.pace()
    }

    /// The client, and the app it signs for.
    func setup() throws -> (client: RealtimeSetup, bundleID: String, pace: Pace) {
        let bundleID = try app.resolve()
        let credentials = try apple.credentials(bundleID: bundleID)
        let pace = try apple.pace()
        return (RealtimeSetup(base: try apple.base() ?? .apple(environment), credentials: credentials, environment: environment, pace: pace),
                bundleID, pace)
    }
}

extension Msgc.RealtimeCommand {
    struct URLCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "url",
            abstract: "Set, show or delete the realtime URL Apple calls for the app (Configure, Get and Delete Realtime URL).",
            discussion: """
                Apple calls the realtime server only at the URL configured for the app in each \
                environment. Production takes a URL only once a sandbox performance test of it has \
                passed (`msgc realtime perftest`). Requests are paced by Apple's limit (1 a second in \
                production, a tenth of that in sandbox); a 429 waits at most --max-wait.

                Exit status: 0 done (get: also when no URL is set); 1 Apple refused the URL (in \
                production: no passed performance test); 2 usage, credentials Apple refuses or a \
                service that does not answer; 3 a 429 beyond --max-wait: run again later.
                """,
            subcommands: [SetURL.self, GetURL.self, DeleteURL.self])

        struct SetURL: MsgcCommand {
            static let configuration = CommandConfiguration(
                commandName: "set",
                abstract: "Configure the URL Apple calls: https, a host, no user name or password, at most 256 characters.")

            @Argument(help: ArgumentHelp("The realtime server's URL, as Apple will call it.", valueName: "url"))
            var url: String

            @OptionGroup var options: RealtimeSetupOptions

            func validate() throws {
                if let problem = RealtimeSetup.urlProblem(url) { throw ValidationError("the URL is refused: \(problem); nothing was sent") }
            }

            func execute() throws -> Outcome {
                let (client, bundleID, _) = try options.setup()
                do {
                    try client.setURL(url)
                } catch {
                    return try .stop(error.description, Outcome(error.verdict))
                }
                switch options.format {
                case .text:
                    try Output.write(TerminalText.escaped("the realtime URL of \(bundleID) in \(options.environment.rawValue) is now \(url)") + "\n",
                                     to: .standardOutput)
                case .json:
                    try Output.write(String(decoding: JSONValue.object(["realtimeURL": .string(url)]).canonicalBytes, as: UTF8.self),
                                     to: .standardOutput)
                }
                return .success
            }
        }

        struct GetURL: MsgcCommand {
            static let configuration = CommandConfiguration(
                commandName: "get",
                abstract: "Print the URL Apple calls, or say that none is set (json: {\"realtimeURL\": null}).")

            @OptionGroup var options: RealtimeSetupOptions

            func execute() throws -> Outcome {
                let (client, bundleID, _) = try options.setup()
                let url: String?
                do {
                    url = try client.url()
                } catch {
                    return try .stop(error.description, Outcome(error.verdict))
                }
                switch options.format {
                case .text:
                    let line = url ?? "no realtime URL is set for \(bundleID) in \(options.environment.rawValue)"
                    try Output.write(TerminalText.escaped(line) + "\n", to: .standardOutput)
                case .json:
                    try Output.write(String(decoding: JSONValue.object(["realtimeURL": url.map { .string($0) } ?? .null]).canonicalBytes, as: UTF8.self),
                                     to: .standardOutput)
                }
                return .success
            }
        }

        struct DeleteURL: MsgcCommand {
            static let configuration = CommandConfiguration(
                commandName: "delete",
                abstract: "Delete the URL: Apple stops calling the realtime server and shows the default messages.")

            @OptionGroup var options: RealtimeSetupOptions

            func execute() throws -> Outcome {
                let (client, bundleID, _) = try options.setup()
                do {
                    try client.deleteURL()
                } catch {
                    return try .stop(error.description, Outcome(error.verdict))
                }
                switch options.format {
                case .text:
                    try Output.write("the realtime URL of \(bundleID) in \(options.environment.rawValue) is deleted\n", to: .standardOutput)
                case .json:
                    try Output.write(String(decoding: JSONValue.object(["realtimeURL": .null]).canonicalBytes, as: UTF8.self), to: .standardOutput)
                }
                return .success
            }
        }
    }

    struct Perftest: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "perftest",
            abstract: "Run Apple's performance test of the sandbox realtime URL, wait for its result and print it.",
            discussion: """
                Apple sends the sandbox realtime URL (`msgc realtime url set`) a burst of signed \
                requests and judges the answers' times and success rate; production takes a realtime \
                URL only after a passed test. The test's request id is printed on standard error as \
                soon as Apple gives it: a run that stops (killed, or --max-wait ran out) resumes with \
                --request-id. msgc asks for the result at the endpoint's pace (every 10 s in sandbox); \
                --max-wait bounds the whole wait, 429s included. Prints the configuration, the response \
                times, the success rate, the failures by reason and PASS or FAIL; a member Apple \
                leaves out is said to be missing, never taken for a pass.

                Exit status: 0 PASS; 1 FAIL, a result msgc does not know, or Apple refused to start a \
                test; 2 usage, credentials Apple refuses, a service that does not answer or an answer \
                msgc cannot read; 3 no result within --max-wait: run again with --request-id.
                """)

        @OptionGroup var options: RealtimeSetupOptions

        @Option(name: .long, help: ArgumentHelp("A transaction of a sandbox subscriber of the app: Apple's requests carry it.", valueName: "id"))
        var originalTransactionId: String?

        @Option(name: .long, help: ArgumentHelp("Follow a test already started (printed when it started) instead of starting one.", valueName: "id"))
        var requestId: String?

        @Flag(name: .long, help: "Print only the result.")
        var quiet = false

        func validate() throws {
            guard options.environment == .sandbox else {
                throw ValidationError("Apple runs performance tests in sandbox only: give --environment sandbox (production then takes the URL)")
            }
            switch (originalTransactionId, requestId) {
            case (nil, nil): throw ValidationError("give --original-transaction-id ID to start a test, or --request-id ID to follow one")
            case (_?, _?): throw ValidationError("give --original-transaction-id to start a test or --request-id to follow one, not both")
            case (let id?, nil):
                if let problem = RealtimeSetup.transactionIDProblem(id) { throw ValidationError("--original-transaction-id '\(id)' is refused: \(problem)") }
            case (nil, let id?):
                if let problem = RealtimeSetup.requestIDProblem(id) { throw ValidationError("--request-id '\(id)' is refused: \(problem)") }
            }
        }

        func execute() throws -> Outcome {
            let (client, _, pace) = try options.setup()
            let started = pace.clock.now()
            let result: PerformanceTestResult
            do {
                let id: String
                if let requestId {
                    id = requestId
                } else {
                    id = try client.startTest(originalTransactionID: originalTransactionId!).requestID
                    try Output.error("Apple started performance test \(id); if this run stops, carry on with: "
                        + "msgc realtime perftest --environment sandbox --request-id \(id)")
                }
                // --max-wait counts the whole run, the test's start included; the message that
                // it ran out names the --max-wait given.
                result = try client.result(requestID: id, maxWait: pace.maxWait, startedAt: started) { answer in
                    guard !quiet, answer.state == .pending || answer.state == .missing else { return }
                    let pending = answer.numPending.map { ": \($0) requests pending" } ?? ""
                    try? Output.error("test \(id) is still running\(pending)")
                }
            } catch let error as RealtimeSetup.Failure {
                return try .stop(error.description, Outcome(error.verdict))
            }
            switch options.format {
            case .text: try Output.write(Self.text(result, requests: quiet ? nil : client.requestCounts), to: .standardOutput)
            case .json: try Output.write(String(decoding: Self.json(result).canonicalBytes, as: UTF8.self), to: .standardOutput)
            }
            // A test that did not pass is a finding about the server.
            return Outcome(Verdict(failingFindings: result.passed ? 0 : 1))
        }

        /// The result, a line per part; every part Apple left out says so.
        static func text(_ result: PerformanceTestResult, requests: RequestCounts?) -> String {
            func value(_ number: Int?, _ unit: String = "") -> String { number.map { "\($0)\(unit)" } ?? "missing" }
            var lines: [String] = []
            let verdict = switch result.state {
            case .pass: "PASS"
            case .fail: "FAIL"
            case .pending: "PENDING"
            case .missing: "no result (Apple's answer has none; not a pass)"
            case .unknown(let state): "'\(state)', a result msgc does not know (not a pass)"
            }
            lines.append("performance test \(result.requestID): \(verdict)")
            lines.append("target: \(result.target ?? "missing")")
            if let config = result.config {
                lines.append("configuration: " + config.members.map { "\($0.name) \(value($0.value))" }.joined(separator: ", "))
            } else {
                lines.append("configuration: missing")
            }
            if let times = result.responseTimes {
                lines.append("response times: " + times.map { "\($0.name) \(value($0.value, " ms"))" }.joined(separator: ", "))
            } else {
                lines.append("response times: missing")
            }
            lines.append("success rate: \(value(result.successRate, " %"))")
            if let pending = result.numPending, pending > 0 { lines.append("pending: \(pending)") }
            if let failures = result.failures {
                lines.append("failures: " + (failures.isEmpty ? "none" : failures.map { "\($0.reason) \(value($0.count))" }.joined(separator: ", ")))
            } else {
                lines.append("failures: missing")
            }
            lines += result.warnings.map { "warning: Apple's result: \($0)" }
            if let requests { lines.append(requests.summary) }
            return lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n"
        }

        /// Apple's members under Apple's names, `null` where Apple gave none, with `passed`.
        static func json(_ result: PerformanceTestResult) -> JSONValue {
            func number(_ value: Int?) -> JSONValue { value.map { .integer($0) } ?? .null }
            let state: JSONValue = switch result.state {
            case .pass: "PASS"
            case .fail: "FAIL"
            case .pending: "PENDING"
            case .missing: .null
            case .unknown(let text): .string(text)
            }
            var members: [String: JSONValue] = [
                "requestId": .string(result.requestID),
                "result": state,
                "passed": .bool(result.passed),
                "target": result.target.map { .string($0) } ?? .null,
                "successRate": number(result.successRate),
                "numPending": number(result.numPending),
                "warnings": .array(result.warnings.map { .string($0) }),
            ]
            members["config"] = result.config.map { .object(Dictionary(uniqueKeysWithValues: $0.members.map { ($0.name, number($0.value)) })) } ?? .null
            members["responseTimes"] = result.responseTimes.map { .object(Dictionary(uniqueKeysWithValues: $0.map { ($0.name, number($0.value)) })) } ?? .null
            members["failures"] = result.failures.map {
                .object(Dictionary($0.map { ($0.reason, number($0.count)) }, uniquingKeysWith: { first, _ in first }))
            } ?? .null
            return .object(members)
        }
    }
}
