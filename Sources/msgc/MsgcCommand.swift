import ArgumentParser
import CommandLineSupport
import Compiler
import Model

/// A subcommand of msgc: it parses its options, calls one function, renders what it returned,
/// and returns the outcome. `main` alone turns the outcome into an exit status; a command
/// never throws an exit code. ArgumentParser's `run()` is not used: `main` calls `execute()`.
protocol MsgcCommand: ParsableCommand {
    func execute() throws -> Outcome
}

/// A command that cannot do its job for a usage or I/O reason: an output that would lose a
/// translator's work, a file that cannot be written, an input that cannot be used. `main` says
/// `message` on standard error as `msgc: MESSAGE` and ends as `Verdict` decides for `kind` (2).
/// Findings, refusals by Apple and waits are never thrown: a command returns them in its
/// `Outcome` (`stop(_:_:)` says a line and returns).
struct Refusal: Error {
    enum Kind {
        case usage, io

        var failure: CommandFailure { self == .usage ? .usage : .io }
    }

    var kind: Kind
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

extension Outcome {
    /// Says `message` on standard error as `msgc: MESSAGE`, as a refusal is said, and ends with
    /// `outcome`: how a command stops for findings, a refusal by Apple or a wait.
    static func stop(_ message: String, _ outcome: Outcome) throws(OutputFailure) -> Outcome {
        try Output.error(message)
        return outcome
    }
}
