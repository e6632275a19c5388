import ArgumentParser
import Compiler
import Model
import Foundation
import LanguageServer

extension Msgc {
    struct LSP: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "lsp",
            abstract: "Run the language server, for findings, fixes and lengths in an editor.",
            discussion: """
                Speaks the Language Server Protocol (3.17) on standard input and output; an editor \
                starts it. It finds the content tree in the workspace folder (its msgc.yaml, or \
                content/msgc.yaml), checks message sources, msgc.yaml and XLIFF files as they are \
                typed, offers fixes as code actions and shows lengths on hover. It never writes to \
                the content tree. README.md shows the set-up for VS Code, Neovim and Helix.
                """)

        func execute() throws -> Outcome {
            // 1 when the editor ended the server without asking it to shut down first, as LSP says.
            Outcome(LanguageServer.serve(version: Msgc.version))
        }
    }
}
