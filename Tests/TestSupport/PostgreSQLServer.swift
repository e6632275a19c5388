import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of the test's own: initdb into a fresh folder, started with pg_ctl on a
/// free loopback port, its Unix socket in that folder, stopped and removed when the test is
/// done with it (`stop`, and `deinit` for a test that failed before). As root, which initdb
/// refuses, the server runs as the `postgres` system user, owner of the folder.
///
/// With a `password`, connections over TCP need it (SCRAM) and `passfile` holds it in libpq's
/// format, readable by its owner only, for the `PGPASSFILE` of the processes that connect: the
/// password is never on a command line. The Unix socket stays trusted, for `psql`.
///
/// Every command is bounded in time (`BoundedCommand`), and waits block the calling thread:
/// suites that use it run with `.ownThreads`.
public final class PostgreSQLServer {
    /// The newest server binaries of Debian's postgresql packages, or nil where there are none.
    public static let binaries: URL? = {
        let base = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { base.appendingPathComponent("\($0)/bin") }.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path)
                && FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("pg_ctl").path)
        }
    }()

    public static let absence = "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql; CI installs it)"

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let folder: URL
    /// Chosen below the kernel's ephemeral range (`freePort`), and another one if the first
    /// start finds it taken; the same for the server's life, restarts included.
    public private(set) var port: Int
    /// With a password: a libpq passfile for `PGPASSFILE` (mode 0600).
    public let passfile: URL?
    private let bin: URL
    private var isRunning = false

    /// The store URL of the server's `postgres` database, as its superuser `msgc` (trusted on loopback).
    public var uri: String { "postgres://msgc@127.0.0.1:\(port)/postgres?connect_timeout=5" }

    private var dataFolder: String { folder.appendingPathComponent("data").path }

    public init(password: String? = nil) throws {
        guard let bin = Self.binaries else { throw Failure(description: Self.absence) }
        self.bin = bin
        // /tmp rather than $TMPDIR: the postgres user must be able to reach it.
        let folder = URL(fileURLWithPath: "/tmp/msgc-pg-\(UUID().uuidString)")
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        port = try Self.freePort()
        passfile = password == nil ? nil : folder.appendingPathComponent("client.pgpass")
        do {
            var authentication = ["-A", "trust"]
            // initdb reads the superuser's password from a file the server user can read.
            let passwordFile = folder.appendingPathComponent("initdb.password")
            if let password, let passfile {
                try Self.writePrivate(Data(password.utf8), to: passwordFile)
                try Self.writePrivate(Data("127.0.0.1:\(port):*:msgc:\(password)\n".utf8), to: passfile)
                authentication = ["--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=\(passwordFile.path)"]
            }
            if getuid() == 0 {
                guard let user = getpwnam("postgres") else {
                    throw Failure(description: "running as root, and there is no postgres user for initdb")
                }
                for path in [folder.path] + (password == nil ? [] : [passwordFile.path]) {
                    guard chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                        throw Failure(description: "cannot give \(path) to postgres: \(String(cString: strerror(errno)))")
                    }
                }
            }
            try runAsServerUser(
                "initdb", ["-D", dataFolder] + authentication + ["-U", "msgc", "-E", "UTF8", "--locale=C", "--no-sync"], seconds: 120)
            if password != nil { unlink(passwordFile.path) }
            // The port was free when chosen, before initdb; another test's server may have
            // taken it since (a full run at a load of 5 saw it once): the first start moves on
            // to another port, a few times at most.
            for attempt in 1...5 {
                do {
                    try start()
                    break
                } catch let failure as Failure where attempt < 5 && failure.description.contains("Address already in use") {
                    port = try Self.freePort()
                    if let password, let passfile {
                        try Self.writePrivate(Data("127.0.0.1:\(port):*:msgc:\(password)\n".utf8), to: passfile)
                    }
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Starts the server (again) on its port; returns when it accepts connections.
    public func start() throws {
        let options = "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40"
        try runAsServerUser("pg_ctl", ["-D", dataFolder, "-l", folder.appendingPathComponent("server.log").path, "-o", options, "-w", "-t", "60", "start"], seconds: 90)
        isRunning = true
    }

    /// Stops the server (its sessions end at once) and returns when it has.
    public func stop() throws {
        guard isRunning else { return }
        try runAsServerUser("pg_ctl", ["-D", dataFolder, "-m", "fast", "-w", "-t", "60", "stop"], seconds: 90)
        isRunning = false
    }

    deinit {
        if isRunning {
            try? runAsServerUser("pg_ctl", ["-D", dataFolder, "-m", "immediate", "-w", "-t", "30", "stop"], seconds: 45)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    private func runAsServerUser(_ program: String, _ arguments: [String], seconds: Double) throws {
        let path = bin.appendingPathComponent(program).path
        let argv = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments
        let result = try BoundedCommand.run(argv, seconds: seconds)
        guard result.status == 0 else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw Failure(description: "\(program) failed (\(result.timedOut ? "killed after \(seconds) s" : "status \(result.status)")): \(result.output)\n\(log)")
        }
    }

    /// The first column of each row `sql` selects, by `psql` over the trusted Unix socket.
    public func query(_ sql: String) throws -> [String] {
        let argv = [bin.appendingPathComponent("psql").path, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder.path,
                    "-p", String(port), "-U", "msgc", "-d", "postgres", "-c", sql]
        let result = try BoundedCommand.run(argv, seconds: 60)
        guard result.status == 0 else { throw Failure(description: "psql failed (status \(result.status)): \(result.output)") }
        return result.output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Writes `data` to a new file only its owner can read.
    private static func writePrivate(_ data: Data, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot write \(url.path)")
        }
    }

    /// A loopback port nobody listens on now, drawn at random below the kernel's ephemeral
    /// range (`ip_local_port_range`, 32768 and up by default). The client sockets the tests
    /// open take their local ports from that range, so a port chosen there (bound to 0, read,
    /// released) could be a client's before the server binds it.
    public static func freePort() throws -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let ephemeralStart = range.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) } ?? 32_768
        let candidates = max(1_024, ephemeralStart - 12_000)..<max(1_025, ephemeralStart)
        for _ in 0..<200 {
            let port = Int.random(in: candidates)
            if try isFree(port) { return port }
        }
        throw Failure(description: "no free loopback port in \(candidates.lowerBound)-\(candidates.upperBound - 1) after 200 tries")
    }

    /// Whether `port` can be bound on 127.0.0.1 now.
    private static func isFree(_ port: Int) throws -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 }
        }
    }
}

/// A command run to its end or killed at its time limit, its output (both streams) in a file
/// so a pipe never fills. Blocks the calling thread, polling `waitpid`.
///
/// posix_spawn rather than Foundation's `Process`: `pg_ctl start` leaves the server running
/// behind it, and `Process` noticed pg_ctl's end only when every descriptor it had handed on
/// was closed, which the server kept open, so the wait ran to its limit.
public enum BoundedCommand {
    public static func run(_ argv: [String], seconds: Double) throws -> (status: Int32, output: String, timedOut: Bool) {
        let outputPath = "/tmp/msgc-command-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, arguments, environ)
        guard spawned == 0 else {
            throw PostgreSQLServer.Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        let end = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        var timedOut = false
        var ended = false
        // After SIGKILL the end is a matter of moments; bounded all the same.
        while Date() < end.addingTimeInterval(10) {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) {
                ended = waited == pid
                break
            }
            if !timedOut && Date() > end {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(20_000)
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import as functions.
        let exitStatus: Int32 = ended && !timedOut && status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        return (exitStatus, output, timedOut)
    }
}
