import ArgumentParser
import Compiler
import Foundation
import Model

extension Msgc {
    struct Schema: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the JSON Schema of msgc.yaml or of message sources, for editors.",
            discussion: """
                With yaml-language-server (VS Code's YAML extension, Neovim, Helix), a YAML file \
                whose first line is `# yaml-language-server: $schema=PATH` gets completion, \
                descriptions and shape checks as it is typed; `msgc init` writes that line. The \
                repository keeps the same schemas in schemas/.
                """)

        @Argument(help: ArgumentHelp("Which schema: config (msgc.yaml) or messages (messages/**/*.yaml).", valueName: "kind"))
        var kind: Schemas.Kind

        func execute() throws -> Outcome {
            Output.write(String(decoding: Schemas.schema(kind).canonicalBytes, as: UTF8.self), to: .standardOutput)
            return .success
        }
    }
}

extension Schemas.Kind: ExpressibleByArgument {}
