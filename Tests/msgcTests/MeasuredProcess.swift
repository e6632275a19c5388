import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and measures what it cost: its own peak resident memory (its VmHWM, read
/// every 5 ms while it runs, so neither other tests' children nor this process count) and
/// whether it had to be stopped.
///
/// The time limit is a hang guard, far above what any run needs: a run that reaches it is
/// killed and reported as `timedOut`, so a hang fails its test instead of the whole suite.
struct MeasuredProcess {
    struct Result {
        var status: Int32
        /// Set when the child was ended by a signal.
        var signal: Int32?
        var stdout: String
        var stderr: String
        var peakRSSBytes: Int
        var timedOut: Bool
    }

    /// Runs `executable` with `arguments` in `directory`; `environment` adds to (or with nil,
    /// removes from) this process's environment. `prelude` is shell code run before the program
    /// replaces the shell, for limits such as `ulimit -f` and signal dispositions it must inherit.
    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String?] = [:],
        prelude: String? = nil, hangGuardSeconds: Double = 300
    ) throws -> Result {
        let scratch = try MsgcRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path

        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        // /bin/sh changes into `directory`, applies the prelude, then becomes the program.
        let program = "/bin/sh"
        let script = "cd \"$0\" || exit 125\n" + (prelude ?? "") + "\nexec \"$@\""
        let argv = ["sh", "-c", script, directory.path, executable.path] + arguments

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw NSError(domain: "MeasuredProcess", code: Int(spawned),
                          userInfo: [NSLocalizedDescriptionKey: "cannot start \(program): \(String(cString: strerror(spawned)))"])
        }

        let deadline = Date().addingTimeInterval(hangGuardSeconds)
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        // The child's own high-water mark, read while it runs: `ru_maxrss` also counts the
        // memory of this test process, which the child shares until it execs (posix_spawn
        // clones the address space), so a busy test run can push it over any bound. VmHWM is
        // the mark of the executed program's own memory, and only grows.
        var highWater = 0
        let statusPath = "/proc/\(pid)/status"
        while true {
            if let text = try? String(contentsOfFile: statusPath, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                highWater = max(highWater, kilobytes * 1024)
            }
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { break }
            if !timedOut && Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(5_000)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7F
        return Result(
            status: signal == 0 ? (status >> 8) & 0xFF : -1,
            signal: signal == 0 ? nil : signal,
            stdout: String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self),
            peakRSSBytes: highWater > 0 ? highWater : Int(usage.ru_maxrss) * 1024,
            timedOut: timedOut)
    }
}
