import ArgumentParser
import Compiler
import Model

/// A subcommand of msgc: it parses its options, calls one function, renders what it returned,
/// and returns the outcome. `main` alone turns the outcome into an exit status; a command
/// never throws an exit code. ArgumentParser's `run()` is not used: `main` calls `execute()`.
protocol MsgcCommand: ParsableCommand {
    func execute() throws -> Outcome
}

/// A command that stops short of its job for a reason that is not a finding: an output that
/// would lose a translator's work, a file that cannot be written, sources with errors that a
/// translator's file may not be made from. `main` says `message` on standard error as
/// `msgc: MESSAGE` and ends with `status`.
struct Refusal: Error {
    var status: ExitStatus
    var message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}
