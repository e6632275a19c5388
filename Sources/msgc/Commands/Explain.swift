import ArgumentParser
import CommandLineSupport
import Compiler
import Diagnostics
import Foundation
import Realtime

extension Msgc {
    struct Explain: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Explain a diagnostic code: why it matters, and examples that do and do not trigger it.",
            discussion: "With no code, lists every code msgc reports.")

        @Argument(help: "A code such as PRJ003, or a rule name such as missing-default-message.")
        var rule: String?

        func execute() throws -> Outcome {
            guard let rule else {
                try Output.write(Explanation.catalog(Codes.all + RealtimeDiagnostics.all), to: .standardOutput)
                return .success
            }
            guard let info = Codes.info(for: rule) ?? RealtimeDiagnostics.info(for: rule) else {
                throw ValidationError("no rule '\(rule)'; `msgc explain` lists them all")
            }
            try Output.write(Explanation.text(for: info), to: .standardOutput)
            return .success
        }
    }
}
