import ArgumentParser
import Bundle
import CommandLineSupport
import Compiler
import Foundation
import Model
import Parser

extension Msgc {
    struct Init: MsgcCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create a content tree with a fresh identifier namespace and one example message.",
            discussion: "Refuses to write into a folder that already has files in it.")

        @Argument(help: ArgumentHelp("The folder to create.", valueName: "dir"))
        var directory: String = "content"

        @Option(name: .long, help: "The app's bundle identifier.")
        var bundleId: String = "com.example.app"

        func validate() throws {
            // The value goes into msgc.yaml and every product id as it is.
            guard !bundleId.isEmpty, ConfigParser.isPathSafe(bundleId) else {
                throw ValidationError("--bundle-id '\(bundleId)' may hold only ASCII letters, digits, '.', '_' and '-'")
            }
        }

        func execute() throws -> Outcome {
            let files = Scaffold.files(bundleId: bundleId, namespace: UUID().uuidString.lowercased())
            do {
                try Scaffold.write(files, into: URL(fileURLWithPath: directory))
            } catch {
                throw Refusal(.io, "\(error)")
            }
            try Output.write("""
                created \(directory)/ with msgc.yaml, messages/welcome.yaml and the JSON Schemas editors read (schemas/)
                next: edit the product list in \(directory)/msgc.yaml, then run `msgc lint --content \(directory)`

                """, to: .standardOutput)
            return .success
        }
    }
}
