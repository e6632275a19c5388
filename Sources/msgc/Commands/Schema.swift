import ArgumentParser
import CommandLineSupport
import Compiler
import Foundation
import Model
import Realtime

extension Msgc {
    struct Schema: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the JSON Schema of msgc.yaml, of message sources or of the realtime snapshot.",
            discussion: """
                With yaml-language-server (VS Code's YAML extension, Neovim, Helix), a YAML file \
                whose first line is `# yaml-language-server: $schema=PATH` gets completion, \
                descriptions and shape checks as it is typed; `msgc init` writes that line. The \
                repository keeps the same schemas in schemas/.
                """)

        enum Kind: String, ExpressibleByArgument, CaseIterable {
            case config, messages
            case realtimeSnapshot = "realtime-snapshot"
        }

        @Argument(help: ArgumentHelp("Which schema: config (msgc.yaml), messages (messages/**/*.yaml) or realtime-snapshot.", valueName: "kind"))
        var kind: Kind

        func execute() throws -> Outcome {
            let schema: JSONValue = switch kind {
            case .config: Schemas.schema(.config)
            case .messages: Schemas.schema(.messages)
            case .realtimeSnapshot: RealtimeSnapshot.jsonSchema
            }
            try Output.write(String(decoding: schema.canonicalBytes, as: UTF8.self), to: .standardOutput)
            return .success
        }
    }
}
