import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of the test's own: initdb into a fresh folder, started with pg_ctl on a
/// free loopback port, its Unix socket in that folder, stopped and removed when the test is
/// done with it (`stop`, and `deinit` for a test that failed before). As root, which initdb
/// refuses, the server runs as the `postgres` system user, owner of the folder.
///
/// Every command is bounded in time (`BoundedCommand`), and waits block the calling thread:
/// suites that use it run with `.ownThreads`.
final class PostgreSQLServer {
    /// The newest server binaries of Debian's postgresql packages, or nil where there are none.
    static let binaries: URL? = {
        let base = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { base.appendingPathComponent("\($0)/bin") }.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path)
                && FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("pg_ctl").path)
        }
    }()

    static let absence = "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql; CI installs it)"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let folder: URL
    let port: Int
    private let bin: URL
    private var isRunning = false

    /// The store URL of the server's `postgres` database, as its superuser `msgc` (trusted on loopback).
    var uri: String { "postgres://msgc@127.0.0.1:\(port)/postgres?connect_timeout=5" }

    private var dataFolder: String { folder.appendingPathComponent("data").path }

    init() throws {
        guard let bin = Self.binaries else { throw Failure(description: Self.absence) }
        self.bin = bin
        // /tmp rather than $TMPDIR: the postgres user must be able to reach it.
        folder = URL(fileURLWithPath: "/tmp/msgc-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        port = try Self.freePort()
        do {
            if getuid() == 0 {
                guard let user = getpwnam("postgres") else {
                    throw Failure(description: "running as root, and there is no postgres user for initdb")
                }
                guard chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                    throw Failure(description: "cannot give \(folder.path) to postgres: \(String(cString: strerror(errno)))")
                }
            }
            try runAsServerUser("initdb", ["-D", dataFolder, "-A", "trust", "-U", "msgc", "-E", "UTF8", "--locale=C", "--no-sync"], seconds: 120)
            try start()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Starts the server (again) on its port; returns when it accepts connections.
    func start() throws {
        let options = "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40"
        try runAsServerUser("pg_ctl", ["-D", dataFolder, "-l", folder.appendingPathComponent("server.log").path, "-o", options, "-w", "-t", "60", "start"], seconds: 90)
        isRunning = true
    }

    /// Stops the server (its sessions end at once) and returns when it has.
    func stop() throws {
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

    /// A port nobody listens on now: bound to 0, read, released.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "cannot bind a loopback port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A command run to its end or killed at its time limit, its output (both streams) in a file
/// so a pipe never fills. Blocks the calling thread.
enum BoundedCommand {
    static func run(_ argv: [String], seconds: Double) throws -> (status: Int32, output: String, timedOut: Bool) {
        let outputFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("msgc-command-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let handle = try FileHandle(forWritingTo: outputFile)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let end = Date().addingTimeInterval(seconds)
        var timedOut = false
        while process.isRunning {
            if Date() > end {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        // After SIGKILL the end is a matter of moments; bounded all the same.
        let reaped = Date().addingTimeInterval(10)
        while process.isRunning && Date() < reaped { Thread.sleep(forTimeInterval: 0.02) }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return (process.isRunning || timedOut ? -1 : process.terminationStatus, output, timedOut)
    }
}
