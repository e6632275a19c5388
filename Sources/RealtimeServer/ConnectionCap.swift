#if canImport(Glibc)
import Glibc
#endif
import HummingbirdCore

/// How many connections the server holds open at once: below the process's descriptor limit,
/// so that a flood of connections (idle, or trickling) leaves descriptors for everything else
/// the process opens: a snapshot being read, NIO's own, and libdispatch's worker monitor,
/// which while Swift's threads are busy opens `/proc/<tid>/stat` of each worker every second
/// and, when that `open` fails (EMFILE), takes the worker for dead and traps (SIGILL): the
/// whole server dies, not one request. Connections past the cap wait in the listen backlog, unaccepted,
/// until one closes; every connection is itself bounded in time (the idle timeout, the body
/// deadline), so the wait is too.
struct ConnectionCap: AvailableConnectionsDelegate {
    let maximum: Int
    let notice: @Sendable (String) -> Void
    private var open = 0
    /// Whether the cap was reached and not yet left well below: the notice is said once per
    /// episode, not once per connection.
    private var full = false
    /// When the notice was last said: at most once a minute, however often a flood that
    /// hovers about the cap (connections closing as the backlog's are accepted) starts a new
    /// episode.
    private var noticed: ContinuousClock.Instant?
    static let noticeInterval = Duration.seconds(60)

    init(maximum: Int, notice: @escaping @Sendable (String) -> Void) {
        self.maximum = maximum
        self.notice = notice
    }

    mutating func connectionOpened() {
        open += 1
        if open >= maximum && !full {
            full = true
            let now = ContinuousClock.now
            if let noticed, now - noticed < Self.noticeInterval { return }
            noticed = now
            notice("\(open) connections are open, the most this server holds (its descriptor limit less headroom); new ones wait in the listen backlog until one closes")
        }
    }

    mutating func connectionClosed() {
        open -= 1
        if full && open <= maximum - max(1, maximum / 10) { full = false }
    }

    func isAcceptingNewConnections() -> Bool {
        open < maximum
    }

    /// The descriptors kept free beyond those open at start, out of a limit of `limit`: for a
    /// snapshot being read, libdispatch's monitor, and what NIO opens as it goes.
    static func headroom(limit: Int) -> Int {
        max(16, limit / 8)
    }

    /// Raises the soft descriptor limit to the hard one (as a server should; systemd's
    /// `LimitNOFILE` sets both) and returns the cap below it: the limit less the descriptors
    /// open now (standard streams, NIO's event loops, signal handlers: about 20, so call it
    /// once they exist) less the headroom.
    static func fromDescriptorLimit() -> (cap: Int, limit: Int) {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return (896, 1024) }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        // RLIM_INFINITY, or a limit past what a process could use: a million is plenty.
        let limit = Int(min(limits.rlim_cur, 1 << 20))
        return (max(1, limit - openDescriptors() - headroom(limit: limit)), limit)
    }

    /// How many descriptors the process has open (`/proc/self/fd`, whose own descriptor is
    /// counted too), or 64 where that cannot be read.
    static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 64 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = entry.pointee.d_name.0
            if name != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count
    }
}
