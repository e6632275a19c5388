import ArgumentParser
import Diagnostics
import Foundation
import Model

/// Ends the process for an error ArgumentParser found in the command line, as both of msgc's
/// executables write it: each line escaped for the terminal, exit status 2. A request for help
/// or the version is not an error, and ends as ArgumentParser says.
public func exitForUsage<Command: ParsableCommand>(_ command: Command.Type, _ error: Error, _ message: String) -> Never {
    if Command.exitCode(for: error) == .success {
        Command.exit(withError: error)
    }
    // Errors quote what was typed.
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        .map { TerminalText.escaped(String($0)) }.joined(separator: "\n")
    do throws(OutputFailure) { try Output.write(lines + "\n", to: .standardError) } catch { error.report() }
    Foundation.exit(Verdict(.usage).status.rawValue)
}
